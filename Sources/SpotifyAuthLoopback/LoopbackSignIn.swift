public import Foundation
public import SpotifyAuth
public import SpotifyWebAPI

/// Sign-in for command-line and desktop apps: PKCE through the browser, with the redirect
/// received by a listener on this machine that is open only while the sign-in is pending.
///
/// It signs in the session's own app at the session's own accounts service
/// (`SpotifySession.endpoint`), as `BrowserSignIn` does: the tokens can only be saved under
/// the key of the app that asked for them.
///
/// ```swift
/// let session = SpotifySession(endpoint: TokenEndpoint(server: .live, clientID: clientID), store: store)
/// try await LoopbackSignIn().run(session: session) { url in print("Open \(url) to sign in") }
/// ```
public struct LoopbackSignIn: Sendable {
    /// A loopback redirect URI as registered with Spotify, e.g. `http://127.0.0.1/callback`. Without
    /// a port, any free port is used (Spotify matches loopback URIs registered without a port).
    package var redirectURI: String
    /// How long the user has to finish.
    package var timeout: Duration

    /// - Parameters:
    ///   - redirectURI: the loopback redirect URI registered in the dashboard; its port is replaced
    ///     by the one the listener gets.
    ///   - timeout: how long the user has to finish in the browser.
    public init(redirectURI: String = "http://127.0.0.1/callback", timeout: Duration = .seconds(300)) {
        self.redirectURI = redirectURI
        self.timeout = timeout
    }

    /// Signs in with the scopes granted now plus `scopes`, and saves the tokens in `session`.
    ///
    /// Adding a scope shows Spotify's consent page even to a user who agreed before, since only a
    /// new consent grants one.
    ///
    /// - Parameters:
    ///   - session: the app and accounts service to sign in with; receives the tokens.
    ///   - scopes: scopes to add to the ones granted now (all of SpotifyLink's for a first sign-in).
    ///   - clock: the deadline's clock.
    ///   - openBrowser: shows the authorize URL to the user (opens a browser, or prints it). An
    ///     error it throws (no browser could be opened) ends the sign-in at once with that error.
    /// - Throws: `OAuthError` (`.timedOut` after `timeout`, `.accessDenied`, `.stateMismatch`
    ///   after repeated forged callbacks, …); `TokenStoreError` when the tokens could not be
    ///   saved; `CancellationError` when the task is cancelled; what `openBrowser` threw. The port
    ///   is closed in every case.
    @discardableResult
    public func run(
        session: SpotifySession, adding scopes: [String] = [], clock: any SpotifyClock = SystemClock(),
        openBrowser: @escaping @Sendable (URL) async throws -> Void
    ) async throws -> StoredTokens {
        try await run(
            session: session, scopes: await session.scopesForSignIn(adding: scopes), showDialog: !scopes.isEmpty,
            random: SystemRandomSource(), clock: clock, openBrowser: openBrowser)
    }

    /// Signs in asking for exactly `scopes`, and saves the tokens in `session`.
    ///
    /// - Parameters:
    ///   - session: the app and accounts service to sign in with; receives the tokens.
    ///   - scopes: exactly the scopes to ask for.
    ///   - showDialog: show the consent page even to a user who agreed before.
    ///   - clock: the deadline's clock.
    ///   - openBrowser: shows the authorize URL to the user (opens a browser, or prints it).
    /// - Throws: as ``run(session:adding:clock:openBrowser:)``.
    @discardableResult
    public func run(
        session: SpotifySession, scopes: [String], showDialog: Bool, clock: any SpotifyClock = SystemClock(),
        openBrowser: @escaping @Sendable (URL) async throws -> Void
    ) async throws -> StoredTokens {
        try await run(
            session: session, scopes: scopes, showDialog: showDialog, random: SystemRandomSource(), clock: clock,
            openBrowser: openBrowser)
    }

    /// ``run(session:scopes:showDialog:clock:openBrowser:)`` drawing the PKCE verifier and state
    /// from `random` (tests pass a recording one).
    @discardableResult
    package func run(
        session: SpotifySession, scopes: [String] = SpotifyScope.all, showDialog: Bool = false,
        random: any RandomSource, clock: any SpotifyClock = SystemClock(),
        openBrowser: @escaping @Sendable (URL) async throws -> Void
    ) async throws -> StoredTokens {
        guard case .loopback(let host, let port, let path) = try RedirectURIPolicy.validate(redirectURI) else {
            throw OAuthError(
                code: .configuration,
                message: "Command-line sign-in needs a loopback redirect URI such as http://127.0.0.1/callback.")
        }
        let coordinator = CallbackCoordinator()
        let receiver = try await LoopbackReceiver.start(host: host, port: port ?? 0, path: path) { query in
            await coordinator.receive(query)
        }
        do {
            let hostPart = host == "::1" ? "[::1]" : host
            let actualRedirect = "http://\(hostPart):\(receiver.port)\(path)"
            let flow = try AuthorizationFlow(
                .init(
                    clientID: session.endpoint.clientID, redirectURI: actualRedirect, scopes: scopes,
                    server: session.endpoint.server, showDialog: showDialog),
                random: random)
            await coordinator.begin(flow: flow, session: session)
            try await openBrowser(flow.authorizeURL)
            // The coordinator saved the tokens before it told the browser "connected".
            let tokens = try await coordinator.result(timeout: timeout, clock: clock)
            await receiver.stop()
            return tokens
        } catch {
            await receiver.stop()
            throw error
        }
    }
}

/// Holds the flow while the listener waits, and turns callbacks into one result.
actor CallbackCoordinator {
    private var flow: AuthorizationFlow?
    private var session: SpotifySession?
    private var outcome: Result<StoredTokens, any Error>?
    private var waiter: CheckedContinuation<StoredTokens, any Error>?

    func begin(flow: AuthorizationFlow, session: SpotifySession) {
        self.flow = flow
        self.session = session
    }

    func receive(_ query: String) async -> LoopbackReceiver.Page {
        guard var flow, let session, outcome == nil else {
            return .init(
                status: 400, title: "No sign-in pending",
                message: "There is no Spotify sign-in waiting here. You can close this tab.")
        }
        let decision = flow.handleCallback(query: query)
        self.flow = flow
        switch decision {
        case .ignore:
            return .init(
                status: 400, title: "Sign-in request not recognised",
                message:
                    "This link does not belong to the sign-in in progress. Go back to the app and start again if needed."
            )
        case .fail(let error):
            finish(.failure(error))
            return .init(status: 400, title: "Spotify was not connected", message: error.message)
        case .exchange(let code):
            do {
                // "Connected" only once the tokens are kept: a store that fails says so here too.
                let tokens = try await session.finishSignIn(code, flow: flow).tokens
                finish(.success(tokens))
                return .init(
                    status: 200, title: "Spotify is connected",
                    message: "You can close this tab and go back to the app.")
            } catch let error as TokenStoreError {
                finish(.failure(error))
                return .init(
                    status: 500, title: "Spotify was not connected",
                    message: "The sign-in could not be saved: \(error.message)")
            } catch {
                finish(.failure(error))
                return .init(
                    status: 502, title: "Spotify was not connected",
                    message: (error as? OAuthError)?.message ?? "The sign-in could not be completed.")
            }
        }
    }

    private func finish(_ result: Result<StoredTokens, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        waiter?.resume(with: result)
        waiter = nil
    }

    /// Waits for the outcome, or fails with `.timedOut` after `timeout` on `clock`.
    func result(timeout: Duration, clock: any SpotifyClock) async throws -> StoredTokens {
        let deadline = Task { [weak self] in
            try await clock.sleep(for: timeout)
            await self?.expire()
        }
        defer { deadline.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let outcome {
                    continuation.resume(with: outcome)
                } else {
                    waiter = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel() }
        }
    }

    private func expire() {
        flow?.abandon()
        finish(
            .failure(
                OAuthError(code: .timedOut, message: "The sign-in was not finished in time. Run it again when ready.")))
    }

    private func cancel() {
        flow?.abandon()
        finish(.failure(CancellationError()))
    }
}
