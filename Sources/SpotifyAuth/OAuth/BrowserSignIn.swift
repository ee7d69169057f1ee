public import Foundation
import SpotifyWebAPI

/// Sign-in through a browser the platform shows once: on iOS and macOS the system's web
/// authentication sheet, in tests a scripted browser. The package owns every security-relevant
/// step; the app only shows the page.
///
/// It builds the PKCE flow for the scopes asked for, hands the authorize URL to the `browser` once,
/// judges the callback URL it returns (a callback that is not this sign-in's fails: the browser
/// will not come back a second time), exchanges the code, saves the tokens in the session, and
/// only then returns. The user closing the sheet ends it with `CancellationError`.
///
/// In SwiftUI, with `@Environment(\.webAuthenticationSession) var web`:
///
/// ```swift
/// try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: session) { url, callback in
///     if #available(iOS 17.4, macOS 14.4, *) {
///         try await web.authenticate(using: url, callback: callback.webAuthentication, additionalHeaderFields: [:])
///     } else {
///         try await web.authenticate(using: url, callbackURLScheme: "myapp")  // iOS 17.0–17.3
///     }
/// }
/// ```
///
/// The redirect URI is a custom scheme (`myapp://spotify-callback`) or, from iOS 17.4 and macOS 14.4,
/// an https address the app owns as a universal link (`https://app.example/spotify-callback`); ``Callback`` says which, as
/// `ASWebAuthenticationSession.Callback` does (`callback.webAuthentication` is that value on Apple platforms).
///
/// `SpotifyConnectionModel.connect(using:)` (SpotifyLinkUI) wraps this for a settings screen.
public struct BrowserSignIn: Sendable {
    /// Shows `authorizeURL` and returns the URL the sign-in came back to, which `callback`
    /// describes; throws when the user closes it. Called once per sign-in.
    public typealias Browser = @Sendable (_ authorizeURL: URL, _ callback: Callback) async throws -> URL

    /// How the browser recognises the end of the sign-in, one to one with
    /// `ASWebAuthenticationSession.Callback` (iOS 17.4, macOS 14.4).
    public enum Callback: Sendable, Hashable {
        /// A navigation to this custom scheme (`"myapp"`, without `://`) ends the sign-in.
        case customScheme(String)
        /// A navigation to `https://host/path` ends it: a universal link of the app's own domain,
        /// which needs the domain's `webcredentials` associated domain.
        case https(host: String, path: String)

        /// The callback of `redirectURI`: `.https(host:path:)` for an https address, else its scheme.
        public init(redirectURI: String) {
            let components = URLComponents(string: redirectURI)
            let scheme = components?.scheme?.lowercased() ?? ""
            if scheme == "https" {
                let path = components?.path ?? ""
                self = .https(host: components?.host?.lowercased() ?? "", path: path.isEmpty ? "/" : path)
            } else {
                self = .customScheme(scheme)
            }
        }
    }

    /// The redirect URI registered in Spotify's dashboard, as `myapp://spotify-callback`.
    package let redirectURI: String
    private let random: any RandomSource

    /// A sign-in that comes back to `redirectURI`, which must be registered in Spotify's dashboard
    /// exactly so (a custom scheme, as `myapp://spotify-callback`, needs no other set-up on iOS).
    public init(redirectURI: String) {
        self.init(redirectURI: redirectURI, random: SystemRandomSource())
    }

    /// A sign-in whose verifier and state come from `random` (tests pass a seeded one).
    package init(redirectURI: String, random: any RandomSource) {
        self.redirectURI = redirectURI
        self.random = random
    }

    /// Signs in with the scopes granted now plus `scopes`, and saves the tokens in `session`.
    ///
    /// Adding a scope shows Spotify's consent page even to a user who agreed before, since only a
    /// new consent grants one.
    ///
    /// - Returns: the tokens saved.
    /// - Throws: `CancellationError` when the user closes the browser or the task is cancelled;
    ///   ``OAuthError`` (`.accessDenied` when the user declines on Spotify's page, `.stateMismatch`
    ///   or `.issuerMismatch` for a callback of another sign-in or service, `.configuration` for a
    ///   redirect URI Spotify refuses); ``TokenStoreError`` when the tokens could not be saved.
    ///   Nothing is saved unless it returns.
    @discardableResult
    public func run(session: SpotifySession, adding scopes: [String] = [], browser: Browser) async throws
        -> StoredTokens
    {
        try await run(
            session: session, scopes: await session.scopesForSignIn(adding: scopes), showDialog: !scopes.isEmpty,
            browser: browser)
    }

    /// Signs in asking for exactly `scopes`, and saves the tokens in `session`.
    ///
    /// - Returns: the tokens saved.
    /// - Throws: as ``run(session:adding:browser:)``.
    @discardableResult
    public func run(session: SpotifySession, scopes: [String], showDialog: Bool, browser: Browser) async throws
        -> StoredTokens
    {
        try await signIn(session: session, scopes: scopes, showDialog: showDialog, browser: browser).tokens
    }

    /// ``run(session:adding:browser:)``, also returning the status change the save made in the
    /// order of the session's changes (the connection model compares it with what it hears).
    package func signIn(session: SpotifySession, adding scopes: [String] = [], browser: Browser) async throws
        -> (tokens: StoredTokens, status: SpotifySession.StatusChange)
    {
        try await signIn(
            session: session, scopes: await session.scopesForSignIn(adding: scopes), showDialog: !scopes.isEmpty,
            browser: browser)
    }

    private func signIn(session: SpotifySession, scopes: [String], showDialog: Bool, browser: Browser) async throws
        -> (tokens: StoredTokens, status: SpotifySession.StatusChange)
    {
        let endpoint = session.endpoint
        var flow = try AuthorizationFlow(
            .init(
                clientID: endpoint.clientID, redirectURI: redirectURI, scopes: scopes, server: endpoint.server,
                showDialog: showDialog),
            random: random)
        let callback: URL
        do {
            callback = try await browser(flow.authorizeURL, Callback(redirectURI: redirectURI))
        } catch  where Self.isCancellation(error) {
            throw CancellationError()
        }
        // Cancelled while the browser was up: whatever it returned is not used.
        try Task.checkCancellation()
        guard Self.returns(callback, to: redirectURI) else {
            throw OAuthError(
                code: .invalidCallback,
                message:
                    "The browser came back to an address that is not this app's redirect URI (\(redirectURI)); nothing was exchanged."
            )
        }
        switch flow.handleCallback(
            query: URLComponents(url: callback, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
        {
        case .exchange(let code):
            // The exchange and the save finish even if the app is sent to the background meanwhile.
            let finishing = flow
            return try await session.activity.run("Finishing the Spotify sign-in") {
                try await session.finishSignIn(code, flow: finishing)
            }
        // A browser sheet returns once: a callback the flow would wait past is a failed sign-in.
        case .ignore(let error), .fail(let error):
            throw error
        }
    }

    /// Whether `error` means the sign-in was called off: Swift's cancellation, or the Apple web
    /// authentication session's `canceledLogin` (the user closed the sheet), recognised by its
    /// domain and code so that nothing here imports AuthenticationServices.
    package static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        let error = error as NSError
        return error.domain == "com.apple.AuthenticationServices.WebAuthenticationSession" && error.code == 1
    }

    /// Whether `callback` is the redirect URI (scheme, host and path; the query is the sign-in's).
    static func returns(_ callback: URL, to redirectURI: String) -> Bool {
        guard let got = URLComponents(url: callback, resolvingAgainstBaseURL: false),
            let expected = URLComponents(string: redirectURI)
        else { return false }
        func path(_ components: URLComponents) -> String { components.path.isEmpty ? "/" : components.path }
        return got.scheme?.lowercased() == expected.scheme?.lowercased()
            && got.host?.lowercased() == expected.host?.lowercased() && got.port == expected.port
            && path(got) == path(expected)
    }
}
