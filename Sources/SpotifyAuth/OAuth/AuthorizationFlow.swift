package import Foundation
import SpotifyLinkSupport
package import SpotifyWebAPI

/// One sign-in, as a pure state machine: it binds the verifier, `state`, issuer and redirect URI
/// to the request and judges the callback, without doing any I/O.
///
/// Callback checks run in a fixed order: `state` first (a callback with a wrong state is treated
/// as forged whatever else it says), then readable and unrepeated parameters, then the issuer
/// (RFC 9207), then `error`, then `code`.
package struct AuthorizationFlow: Sendable {
    /// What the app asks for.
    package struct Request: Sendable {
        /// The app's client ID from Spotify's dashboard.
        package var clientID: String
        /// The redirect URI registered in the dashboard, exactly as registered (a loopback port aside).
        package var redirectURI: String
        /// The scopes asked for.
        package var scopes: [String]
        /// The accounts service.
        package var server: AuthorizationServer
        /// Ask Spotify to show the consent page even if the user agreed before.
        package var showDialog: Bool

        /// A request for `scopes` from `server` on behalf of `clientID`, answered at `redirectURI`.
        package init(
            clientID: String, redirectURI: String, scopes: [String] = SpotifyScope.all, server: AuthorizationServer,
            showDialog: Bool = false
        ) {
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.scopes = scopes
            self.server = server
            self.showDialog = showDialog
        }
    }

    /// Where the flow is.
    package enum Phase: Sendable, Equatable {
        /// The authorize URL is out; waiting for the callback.
        case awaitingCallback
        /// A code was accepted: exchange it.
        case completed
        /// The sign-in is over without a code.
        case failed
    }

    /// What to do with one callback.
    package enum Outcome: Sendable {
        /// Exchange this code (with ``verifier``) at the token endpoint.
        case exchange(AuthorizationCode)
        /// Refuse the request and keep waiting for the real callback.
        case ignore(OAuthError)
        /// The flow is over with this error.
        case fail(OAuthError)
    }

    /// What the app asked for.
    package let request: Request
    /// The PKCE verifier, sent with the code to the token endpoint.
    package let verifier: CodeVerifier
    /// The random `state` the callback must carry.
    package let state: String
    /// Where the flow is.
    package private(set) var phase: Phase = .awaitingCallback
    /// Callbacks refused so far; after ``maxRejectedCallbacks`` the flow fails.
    package private(set) var rejectedCallbacks = 0
    /// How many forged or stray callbacks are ignored before the flow fails.
    package var maxRejectedCallbacks = 5

    /// Starts a flow with a fresh verifier and state.
    /// - Throws: ``OAuthError`` if the redirect URI breaks Spotify's rules or the random source fails.
    package init(_ request: Request, random: any RandomSource = SystemRandomSource()) throws {
        _ = try RedirectURIPolicy.validate(request.redirectURI)
        self.request = request
        self.verifier = try PKCE.makeVerifier(using: random)
        self.state = try PKCE.makeState(using: random)
    }

    /// The URL to open in the browser. It carries the challenge, never the verifier or a secret.
    package var authorizeURL: URL {
        var components = URLComponents(url: request.server.authorizeURL, resolvingAgainstBaseURL: false)!
        var items = [
            URLQueryItem(name: "client_id", value: request.clientID),
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "redirect_uri", value: request.redirectURI),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "scope", value: request.scopes.joined(separator: " ")),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
            URLQueryItem(name: "code_challenge", value: PKCE.challenge(for: verifier)),
        ]
        if request.showDialog { items.append(URLQueryItem(name: "show_dialog", value: "true")) }
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// Judges a callback's query string.
    ///
    /// - Parameter query: the raw query (`code=…&state=…&iss=…`), percent-encoded as received.
    ///
    /// A callback without exactly one `state` equal to this sign-in's is refused before anything
    /// else in it is read. Then the issuer (RFC 9207): an `iss` naming another service is a mix-up,
    /// and so is a missing `iss` from a service that always sends it
    /// (``AuthorizationServer/sendsIssuerInCallbacks``).
    package mutating func handleCallback(query: String) -> Outcome {
        guard phase == .awaitingCallback else {
            return .ignore(
                OAuthError(
                    code: .invalidCallback,
                    message: "This sign-in has already finished; the repeated callback was ignored."))
        }
        guard Self.carries(state: state, in: query) else {
            return reject(
                OAuthError(
                    code: .stateMismatch,
                    message: "The callback did not carry this sign-in's state; it may be forged and was ignored."))
        }
        guard let pairs = Self.parse(query) else {
            return reject(OAuthError(code: .invalidCallback, message: "The callback's parameters could not be read."))
        }
        let names = pairs.map(\.0)
        guard Set(names).count == names.count else {
            return reject(
                OAuthError(code: .invalidCallback, message: "The callback repeated a parameter; it was refused."))
        }
        let values = Dictionary(uniqueKeysWithValues: pairs)
        switch values["iss"] {
        case let issuer? where issuer != request.server.issuer:
            return finish(
                OAuthError(
                    code: .issuerMismatch,
                    message:
                        "The callback came from a different sign-in service (\(SpotifyAPIError.sanitized(issuer, limit: 80))) than this sign-in started with (\(request.server.issuer)); it was refused. Sign in again."
                ))
        case nil where request.server.sendsIssuerInCallbacks:
            return finish(
                OAuthError(
                    code: .issuerMismatch,
                    message:
                        "The callback did not say which sign-in service sent it, and \(request.server.issuer) always does; it was refused. Sign in again."
                ))
        default: break
        }
        switch (values["code"], values["error"]) {
        case (let code?, nil) where !code.isEmpty:
            phase = .completed
            return .exchange(AuthorizationCode(code))
        case (nil, "access_denied"?):
            return finish(
                OAuthError(
                    code: .accessDenied,
                    message: "Spotify access was not granted: the consent page was cancelled. Nothing was stored."))
        case (nil, let error?):
            let description =
                values["error_description"].map { " (\(SpotifyAPIError.sanitized($0, limit: 120)))" } ?? ""
            return finish(
                OAuthError(
                    code: .authorizationFailed,
                    message:
                        "Spotify refused the sign-in: \(SpotifyAPIError.sanitized(error, limit: 60))\(description)."))
        default:
            return reject(
                OAuthError(
                    code: .invalidCallback,
                    message: "The callback must carry either a code or an error; it was refused."))
        }
    }

    /// Marks the flow failed (a deadline passed, the user pressed Ctrl-C).
    package mutating func abandon() { phase = .failed }

    private mutating func reject(_ error: OAuthError) -> Outcome {
        rejectedCallbacks += 1
        guard rejectedCallbacks >= maxRejectedCallbacks else { return .ignore(error) }
        // The last refusal ends the sign-in: say so, not "ignored".
        var stopped = error
        stopped.message =
            "\(rejectedCallbacks) callbacks that were not this sign-in's reached it (the last: "
            + "\(error.message.prefix { $0 != ";" })); the sign-in was stopped so that a forged one cannot "
            + "be accepted. Sign in again."
        return finish(stopped)
    }

    private mutating func finish(_ error: OAuthError) -> Outcome {
        phase = .failed
        return .fail(error)
    }

    /// Whether `query` holds exactly one `state` parameter and it equals `expected`; read from the
    /// raw text, so nothing else in a forged callback is decoded.
    package static func carries(state expected: String, in query: String) -> Bool {
        let values = FormEncoding.rawPairs(query).filter { $0.name == "state" }.map(\.value)
        guard values.count == 1, let value = FormEncoding.decode(values[0]), !value.isEmpty
        else { return false }
        return constantTimeEqual(value, expected)
    }

    /// Splits a query into name-value pairs; `nil` on bad percent-encoding or NUL bytes.
    package static func parse(_ query: String) -> [(String, String)]? { FormEncoding.decode(query) }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
