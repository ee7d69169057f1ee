import Foundation
public import Observation
public import SpotifyAuth
public import SpotifyWebAPI

/// The settings screen's Connect / Disconnect, and the one place the other models ask whether
/// Spotify may be called at all.
///
/// Until the user connects, nothing here or in the other models touches the network: an app that
/// never connects behaves exactly as without the feature.
@MainActor @Observable
public final class SpotifyConnectionModel {
    /// What the settings screen shows.
    public enum State: Sendable, Equatable {
        /// Not connected: show Connect.
        case disconnected
        /// A sign-in is in flight; ``connect(using:)`` does nothing more until it ends.
        case connecting
        /// Connected to this account.
        case connected(Account)
        /// Spotify ended the sign-in (six months passed, access revoked): the reason, and a Connect button.
        case needsSignInAgain(String)
        /// The last attempt failed; the message says what to do. Connect is offered again.
        case failed(String)
    }

    /// The connected user, as far as known (the name arrives once Spotify answers `/me`).
    public struct Account: Sendable, Equatable {
        /// The immutable key of the account (`account_id`), once Spotify said.
        public var accountID: String?
        /// The Spotify user ID, once known.
        public var userID: String?
        /// The name the user shows on Spotify, when they set one.
        public var displayName: String?
        /// The scopes the sign-in granted.
        public var scopes: [String]
    }

    /// Where the connection is: what the settings row shows.
    public private(set) var state: State = .disconnected
    /// Shown near the Connect button when the six-month sign-in limit is near.
    public private(set) var signInWarning: String?
    /// What the last disconnect did, to show once.
    public private(set) var lastDisconnectMessage: String?
    /// A scope Spotify said the sign-in lacks; offer ``connect(adding:using:)`` with it.
    public private(set) var missingScope: String?

    /// The session that holds the tokens.
    public let session: SpotifySession
    /// The client every other model calls Spotify through.
    public let client: SpotifyClient
    private let signIn: BrowserSignIn
    private var connectTask: Task<Void, Never>?
    /// Sign-ins started, for diagnostics (a double tap starts one).
    package private(set) var signInCount = 0

    /// A connection for `session` and `client` whose sign-in comes back to `redirectURI`, as
    /// registered in Spotify's dashboard (`myapp://spotify-callback`).
    public init(session: SpotifySession, client: SpotifyClient, redirectURI: String) {
        self.session = session
        self.client = client
        self.signIn = BrowserSignIn(redirectURI: redirectURI)
    }

    /// Whether Spotify may be called: only with a sign-in in place.
    public var isConnected: Bool {
        if case .connected = state { return true }
        return false
    }

    /// What disconnecting keeps and removes, for the confirmation dialog.
    public var disconnectExplanation: String {
        "Disconnecting removes the Spotify sign-in (its tokens) from the \(session.store.kind). "
            + "Your linked playlists and their saved names, covers, track counts and durations stay on this device. "
            + "Spotify lets no app revoke its own access: to end it on Spotify too, remove the app at "
            + "\(AuthorizationServer.revokeAccessPage.absoluteString); a token already issued works until it expires, "
            + "up to an hour."
    }

    /// Reads the stored sign-in (no network), then asks Spotify who the user is.
    public func load() async {
        do {
            guard let tokens = try await session.tokens() else {
                state = await needsSignInReason().map(State.needsSignInAgain) ?? .disconnected
                return
            }
            state = .connected(
                Account(
                    accountID: tokens.account?.accountID, userID: tokens.account?.userID,
                    displayName: tokens.account?.displayName,
                    scopes: tokens.scopes))
            signInWarning = try await session.signInWarning()
            await fetchAccount(scopes: tokens.scopes)
        } catch {
            state = await needsSignInReason().map(State.needsSignInAgain) ?? .failed(Self.message(for: error))
        }
    }

    /// Starts a sign-in in `browser`; while one is in flight, further calls do nothing (a double tap
    /// starts one). In SwiftUI, with `@Environment(\.webAuthenticationSession) var web`:
    ///
    /// ```swift
    /// connection.connect { url, scheme in
    ///     try await web.authenticate(using: url, callback: .customScheme(scheme), additionalHeaderFields: [:])
    /// }
    /// ```
    ///
    /// The user closing the sheet, or declining on Spotify's page, leaves the model disconnected
    /// with nothing to report; it says "connected" only once the tokens are saved.
    public func connect(using browser: @escaping BrowserSignIn.Browser) {
        guard !isConnected else { return }
        startSignIn(adding: [], browser: browser)
    }

    /// Signs in again in `browser`, asking for `scopes` on top of those granted (Spotify fixes
    /// scopes at consent, so only a new sign-in adds one; its consent page is shown); works while
    /// connected.
    public func connect(adding scopes: [String], using browser: @escaping BrowserSignIn.Browser) {
        startSignIn(adding: scopes, browser: browser)
    }

    private func startSignIn(adding scopes: [String], browser: @escaping BrowserSignIn.Browser) {
        guard connectTask == nil else { return }
        state = .connecting
        signInCount += 1
        connectTask = Task {
            defer { connectTask = nil }
            do {
                let tokens = try await signIn.run(session: session, adding: scopes, browser: browser)
                missingScope = nil
                state = .connected(Account(accountID: nil, userID: nil, displayName: nil, scopes: tokens.scopes))
                signInWarning = nil
                await fetchAccount(scopes: tokens.scopes)
            } catch is CancellationError {
                state = .disconnected
            } catch let error as OAuthError where error.code == .accessDenied {
                // The user said no on Spotify's page: not a failure to report.
                state = .disconnected
            } catch {
                state = .failed(Self.message(for: error))
            }
        }
    }

    /// Cancels a sign-in in flight: the browser's task is cancelled, and nothing it returns is used.
    public func cancelConnect() {
        connectTask?.cancel()
    }

    /// Waits for a sign-in in flight to end (for tests and for apps that await the result).
    public func waitForConnect() async {
        await connectTask?.value
    }

    /// Removes this app's Spotify tokens and nothing else.
    public func disconnect() async {
        // A sign-in that is finishing must not save its tokens after the sign-out: stop it and wait.
        connectTask?.cancel()
        await connectTask?.value
        do {
            lastDisconnectMessage = try await session.signOut()
            state = .disconnected
            signInWarning = nil
        } catch {
            state = .failed(Self.message(for: error))
        }
    }

    /// Lets the other models report an error from Spotify: an ended sign-in moves this model to
    /// "needs sign-in again". Returns the message to show.
    @discardableResult
    public func report(_ error: any Error) async -> String {
        // After the user disconnected, calls that were in flight fail for want of a token: that
        // is not Spotify ending the sign-in.
        guard isConnected else { return Self.message(for: error) }
        if let error = error as? SpotifyAPIError, error.code == .missingScope {
            missingScope = error.scope
        }
        if let reason = await needsSignInReason() {
            state = .needsSignInAgain(reason)
        } else if let error = error as? OAuthError, error.code == .needsSignIn || error.code == .invalidGrant {
            state = .needsSignInAgain(error.message)
        }
        return Self.message(for: error)
    }

    private func fetchAccount(scopes: [String]) async {
        do {
            let user = try await client.currentUser()
            _ = try? await session.remember(user)
            if isConnected {
                state = .connected(
                    Account(
                        accountID: SpotifyAccount(user).accountID, userID: user.id, displayName: user.displayName,
                        scopes: scopes))
            }
        } catch {
            // Offline or rate limited: still connected, the name comes later.
            await report(error)
        }
    }

    private func needsSignInReason() async -> String? {
        if case .needsSignIn(let reason) = await session.status { return reason }
        return nil
    }

    /// A message for people, never containing a token (the errors' own messages carry none).
    static func message(for error: any Error) -> String {
        switch error {
        case let error as SpotifyAPIError where error.code == .transport:
            "Spotify can't be reached. Check the connection and try again."
        case let error as SpotifyAPIError: error.message
        case let error as OAuthError: error.message
        case let error as TokenStoreError: error.message
        default: "Something went wrong connecting to Spotify. Try again."
        }
    }
}
