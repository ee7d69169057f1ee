public import Foundation
public import Logging
public import SpotifyWebAPI

/// A signed-in user's tokens, refreshed without the user noticing: the refresh coordinator.
///
/// It implements `AccessTokenProvider` for `SpotifyClient`. One refresh is in flight however
/// many callers need one; a refresh happens only if the failing token is still the current one;
/// tokens are refreshed 60 s before they expire; a new refresh token is persisted before the new
/// access token is handed out; `invalid_grant` removes the tokens and leaves the session in
/// "needs sign-in"; transient failures keep the tokens.
///
/// The store is asynchronous, so the actor is free while a keyring answers. Everything that
/// reads and then writes the store (loading, sign-in, sign-out, a refresh, remembering the account)
/// runs one at a time in the session, so a sign-out that arrives while a refresh waits for
/// Spotify takes effect after it, and the refreshed tokens are never written back over it.
public actor SpotifySession: AccessTokenProvider {
    /// What the session knows about the sign-in.
    public enum Status: Sendable, Equatable {
        /// No tokens are stored (or none were read yet).
        case signedOut
        /// Tokens are stored and usable.
        case signedIn
        /// The sign-in ended without the user signing out: why, as a value an app words itself.
        case needsSignIn(SignInEnd)
    }

    /// A status and its place in the order of the session's status changes.
    package struct StatusChange: Sendable, Equatable {
        /// The status.
        package let status: Status
        /// How many changes came before it and it: later changes have larger numbers.
        package let generation: Int
    }

    /// Why a sign-in ended without the user signing out.
    public enum SignInEnd: Sendable, Hashable {
        /// Spotify ends every sign-in six months after it began (`invalid_grant`, "expired").
        case expired
        /// Spotify refused the refresh token for another reason: access removed on the account
        /// page, or the token revoked.
        case revoked
        /// The stored sign-in could not be read (it was moved aside or removed).
        case unreadable
        /// The stored tokens are gone: another process of the app signed out.
        case removedElsewhere

        /// The reason an `invalid_grant`'s description gives.
        init(refusal description: String) {
            self = description.lowercased().contains("expired") ? .expired : .revoked
        }
    }

    /// Where codes are exchanged and tokens refreshed.
    public nonisolated let endpoint: TokenEndpoint
    /// Where the tokens are kept.
    public nonisolated let store: any TokenStore
    /// The key the tokens are kept under: this app on this accounts service.
    public nonisolated let key: SpotifyAppKey
    private let clock: any SpotifyClock
    private let logger: Logger?
    private var cached: StoredTokens?
    private var loaded = false
    /// One refresh however many callers need one, also when it fails.
    private let refreshes = SingleFlight<StoredTokens>()
    /// Refreshed tokens the store would not take: kept here, used, and saved again before any
    /// other store work, so a rotated refresh token is not lost to a passing store failure.
    private var unsaved: StoredTokens?
    /// What keeps the process running while a refresh, or a sign-in's exchange, and its save finish.
    package nonisolated let activity: any ExpiringActivity
    /// Store work of this session, one call at a time.
    private let storeTurns = StoreTurns()
    /// Whether the store's sign-in is an earlier install's: asked at the store's first use, removed
    /// once when it is.
    private var previousSignIn: PreviousSignIn
    private enum PreviousSignIn {
        case ask(@Sendable () -> Bool)
        case forget
        case kept
    }
    /// Calls waiting for their turn at the store (tests check that one has parked).
    package var storeWaiterCount: Int { storeTurns.waiting }
    /// Signed in or out, and why out. ``statusUpdates()`` follows it.
    public private(set) var status: Status = .signedOut {
        didSet {
            guard status != oldValue else { return }
            generation += 1
            let change = StatusChange(status: status, generation: generation)
            for follower in statusFollowers.values { follower(change) }
        }
    }
    /// How many times the status changed: the order of changes, which a follower that hears of one
    /// late compares with what it already knows.
    private var generation = 0
    private var statusFollowers: [Int: @Sendable (StatusChange) -> Void] = [:]
    private var nextFollower = 0
    /// Refreshes performed by this session (for diagnostics and benchmarks).
    package private(set) var refreshCount = 0

    /// Refresh this long before expiry.
    package static let proactiveMargin: TimeInterval = 60
    /// Warn this long before the six-month sign-in limit.
    package static let signInWarningPeriod: TimeInterval = 14 * 86400

    /// A session for `endpoint`'s app keeping its tokens in `store`.
    ///
    /// Use one session per process for each app: it is what makes a refresh happen once. An app and
    /// its extensions (a widget, a Live Activity) are separate processes; give their stores one lock
    /// folder in the App Group container (``KeychainTokenStore``'s `lockDirectory`) so that they never
    /// refresh at once.
    public init(
        endpoint: TokenEndpoint, store: any TokenStore, clock: any SpotifyClock = SystemClock(), logger: Logger? = nil
    ) {
        self.init(endpoint: endpoint, store: store, clock: clock, logger: logger, activity: platformExpiringActivity())
    }

    /// A session whose refreshes run inside `activity` (tests pass one that records).
    ///
    /// `isEarlierInstall` is asked once, at the store's first use (off the main actor, as it may
    /// read the disk): when it answers yes, the sign-in the store holds belongs to an earlier
    /// install of the app (Keychain items outlive an app's deletion), and it is removed before
    /// that use: the session starts signed out. A removal that fails is tried again at the next
    /// use; until then every use fails with the store's error.
    package init(
        endpoint: TokenEndpoint, store: any TokenStore, clock: any SpotifyClock, logger: Logger?,
        activity: any ExpiringActivity, isEarlierInstall: (@Sendable () -> Bool)? = nil
    ) {
        self.previousSignIn = isEarlierInstall.map(PreviousSignIn.ask) ?? .kept
        self.endpoint = endpoint
        self.store = store
        self.key = SpotifyAppKey(issuer: endpoint.server.issuer, clientID: endpoint.clientID)
        self.clock = clock
        self.logger = logger
        self.activity = activity
    }

    /// The stored tokens, read once from the store.
    public func tokens() async throws -> StoredTokens? {
        if loaded, unsaved == nil { return cached }
        // Not read yet, or refreshed tokens still wait to be saved: the store's turn first.
        return try await withStore { try await loadedTokens() }
    }

    /// The stored tokens; called only inside ``withStore(_:)``.
    private func loadedTokens() async throws -> StoredTokens? {
        if !loaded {
            do {
                cached = try await store.load(key)
                loaded = true
                status = cached == nil ? .signedOut : .signedIn
            } catch let error as TokenStoreError where error.code == .corrupt {
                loaded = true
                status = .needsSignIn(.unreadable)
                throw OAuthError(code: .needsSignIn, message: error.message, underlying: error)
            }
        }
        return cached
    }

    /// Runs `body` with the store to itself: store work of this session never interleaves, though
    /// the actor serves other calls while the store answers.
    private func withStore<T>(_ body: () async throws -> T) async throws -> T {
        try await storeTurns.run {
            try await forgetEarlierInstall()
            await saveUnsaved()
            return try await body()
        }
    }

    /// Removes an earlier install's sign-in from the store, once, at the store's first use.
    private func forgetEarlierInstall() async throws {
        if case .ask(let isEarlierInstall) = previousSignIn { previousSignIn = isEarlierInstall() ? .forget : .kept }
        if case .forget = previousSignIn {
            try await store.remove(key)
            previousSignIn = .kept
            logger?.debug("spotify sign-in of an earlier install removed", metadata: ["issuer": "\(key.issuer)"])
        }
    }

    /// Tries again to save refreshed tokens the store refused; they stay in memory until it takes them.
    private func saveUnsaved() async {
        guard let tokens = unsaved else { return }
        do {
            try await store.save(tokens, for: key)
            unsaved = nil
        } catch {
            logger?.debug(
                "spotify token save failed again; the tokens stay in memory", metadata: ["issuer": "\(key.issuer)"])
        }
    }

    /// Stores the tokens of a finished sign-in. They replace every stored token: the previous
    /// sign-in's refresh token is never sent again.
    ///
    /// - Returns: the status change it made, in the order of changes.
    @discardableResult
    package func signedIn(_ tokens: StoredTokens) async throws -> StatusChange {
        try await withStore {
            try await store.save(tokens, for: key)
            unsaved = nil
            cached = tokens
            loaded = true
            status = .signedIn
            return StatusChange(status: status, generation: generation)
        }
    }

    /// The last step of every sign-in, with a browser sheet or a loopback listener: exchanges
    /// `code` at this session's own token endpoint and saves the tokens, so they are kept under
    /// the key of the app that asked for them.
    ///
    /// - Returns: the tokens saved and the status change the save made.
    package func finishSignIn(_ code: AuthorizationCode, flow: AuthorizationFlow) async throws
        -> (tokens: StoredTokens, status: StatusChange)
    {
        let tokens = try await endpoint.exchange(code, flow: flow)
        try Task.checkCancellation()
        return (tokens, try await signedIn(tokens))
    }

    /// The stored tokens, and the status they leave the session in with its place in the order of
    /// changes, read together.
    package func tokensAndStatus() async throws -> (tokens: StoredTokens?, status: StatusChange) {
        let tokens = try await tokens()
        return (tokens, StatusChange(status: status, generation: generation))
    }

    /// Removes this issuer's and client's tokens and nothing else.
    ///
    /// Spotify has no revoke endpoint: tell the user that access is revoked on
    /// ``AuthorizationServer/revokeAccessPage``, and that a token already issued works until it
    /// expires, up to an hour.
    public func signOut() async throws {
        try await signedOut()
    }

    /// ``signOut()``, returning the status change it made in the order of changes.
    @discardableResult
    package func signedOut() async throws -> StatusChange {
        try await withStore {
            unsaved = nil
            try await store.remove(key)
            cached = nil
            loaded = true
            status = .signedOut
            return StatusChange(status: status, generation: generation)
        }
    }

    /// Adopts a sign-in the app kept by itself before it used SpotifyLink, so its users are not
    /// signed out by the upgrade: the refresh token is checked with one refresh, and the tokens
    /// Spotify answers are saved in this session's store.
    ///
    /// Call it once at launch while the app still holds its earlier token, then delete the
    /// earlier token according to the outcome:
    /// - it returns (``SignInAdoption/adopted`` or ``SignInAdoption/alreadySignedIn``): delete it;
    /// - it throws `OAuthError` with code `.needsSignIn`: Spotify refused the token (expired or
    ///   revoked). Delete it; the session's status says why the user must connect again;
    /// - it throws anything else (no network, the store unavailable): keep it, and try at the next
    ///   launch. A refresh Spotify answered is kept in memory and saved at the store's next use,
    ///   as any refresh is.
    ///
    /// A store that already holds a sign-in is left as it is, with nothing sent. The refresh
    /// runs under the store's lock, as every refresh does, so an extension refreshing at the same
    /// moment never races it. Cancelled before Spotify answers, it adopts nothing; once Spotify
    /// answered (it may have replaced the refresh token), it saves the answer all the same.
    ///
    /// - Throws: `OAuthError` (`.needsSignIn` when refused, `.transient` when Spotify could not be
    ///   reached), `TokenStoreError`, or `CancellationError`.
    public func adopt(_ earlier: EarlierSignIn) async throws -> SignInAdoption {
        try await withStore {
            if try await loadedTokens() != nil { return .alreadySignedIn }
            let lock = try await store.acquireLock(key)
            defer { lock.release() }
            // Another process may have saved a sign-in while this one waited for the lock.
            if let saved = try await store.load(key) {
                cached = saved
                status = .signedIn
                return .alreadySignedIn
            }
            try Task.checkCancellation()
            let now = clock.now
            let seed = StoredTokens(
                accessToken: AccessToken(""), refreshToken: earlier.refreshToken, expiresAt: .distantPast,
                scopes: earlier.scopes, signedInAt: min(earlier.signedInAt ?? now, now), issuer: key.issuer,
                clientID: key.clientID)
            let adopted: StoredTokens
            do {
                refreshCount += 1
                adopted = try await endpoint.refresh(seed)
            } catch {
                guard case .signOut(let reason) = RefreshRules.afterFailure(error) else { throw error }
                throw refused(error, reason: reason)
            }
            cached = adopted
            status = .signedIn
            do {
                try await store.save(adopted, for: key)
            } catch {
                unsaved = adopted
                logger?.debug(
                    "spotify adopted sign-in not saved; the tokens stay in memory",
                    metadata: ["issuer": "\(key.issuer)"])
                throw error
            }
            logger?.debug("spotify earlier sign-in adopted", metadata: ["issuer": "\(key.issuer)"])
            return .adopted
        }
    }

    /// The days left before Spotify ends this sign-in (six months after it began), once fewer than
    /// fourteen days remain; `nil` before that, or when nobody is signed in.
    public func daysUntilSignInEnds() async throws -> Int? {
        guard let tokens = try await tokens() else { return nil }
        let left = tokens.signInExpiresAt.timeIntervalSince(clock.now)
        guard left < Self.signInWarningPeriod else { return nil }
        return max(0, Int(left / 86400))
    }

    /// The sign-in's status now, then at every change, until the stream's consumer stops: what a
    /// settings screen follows, so a sign-in that ends in any part of the app shows there at once.
    public func statusUpdates() -> AsyncStream<Status> {
        let (stream, continuation) = AsyncStream.makeStream(of: Status.self, bufferingPolicy: .bufferingNewest(8))
        follow(until: continuation) { continuation.yield($0.status) }
        return stream
    }

    /// ``statusUpdates()`` with each status's place in the order of changes: a follower that hears
    /// of a change after it learned of a later one (its task ran late) can tell and skip it.
    package func statusChanges() -> AsyncStream<StatusChange> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: StatusChange.self, bufferingPolicy: .bufferingNewest(8))
        follow(until: continuation) { continuation.yield($0) }
        return stream
    }

    private func follow<Element>(
        until continuation: AsyncStream<Element>.Continuation, _ yield: @escaping @Sendable (StatusChange) -> Void
    ) {
        let id = nextFollower
        nextFollower += 1
        statusFollowers[id] = yield
        yield(StatusChange(status: status, generation: generation))
        continuation.onTermination = { _ in Task { await self.stopFollowing(id) } }
    }

    private func stopFollowing(_ id: Int) { statusFollowers[id] = nil }

    // MARK: - AccessTokenProvider

    public func accessToken() async throws -> AccessToken {
        let asked = refreshes.ticket
        return try await access(stored: try await tokens(), askedAt: asked)
    }

    public func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken {
        try await refresh(replacing: failed, askedAt: refreshes.ticket).accessToken
    }

    /// The token for one request, in one call: refused toward an API another accounts service
    /// serves (live tokens never go to an emulator, nor an emulator's to Spotify) and for a call
    /// needing a scope the sign-in lacks, both before any refresh; else ``accessToken()``.
    public func accessToken(for apiBaseURL: URL, scopes: [String]) async throws -> AccessToken {
        guard mayBeSent(to: apiBaseURL) else { throw SpotifyAPIError.tokensBelongElsewhere(apiBaseURL) }
        let asked = refreshes.ticket
        let stored = try await tokens()
        if let stored { try SpotifyAPIError.requireScope(of: scopes, granted: Set(stored.scopes)) }
        return try await access(stored: stored, askedAt: asked)
    }

    /// The stored access token, or a refreshed one when it is about to expire.
    private func access(stored: StoredTokens?, askedAt asked: Int) async throws -> AccessToken {
        switch RefreshRules.forAccess(stored: stored, now: clock.now, margin: Self.proactiveMargin) {
        case .notSignedIn: throw notSignedIn()
        case .useStored(let stored): return stored.accessToken
        case .refresh(let stored): return try await refresh(replacing: stored.accessToken, askedAt: asked).accessToken
        }
    }

    /// Keeps who signed in with the tokens, keyed by `account_id`; saved only when it changed.
    ///
    /// - Returns: whether the stored account changed (a different account signed in, or none was kept).
    @discardableResult
    public func remember(_ user: CurrentUser) async throws -> Bool {
        try await withStore {
            guard var tokens = try await loadedTokens() else { return false }
            let account = SpotifyAccount(user)
            guard tokens.account != account else { return false }
            tokens.account = account
            try await store.save(tokens, for: key)
            cached = tokens
            return true
        }
    }

    /// Whether `apiBaseURL` is the Web API of this session's accounts service (same scheme, host
    /// and port): live tokens never go to an emulator, nor an emulator's to Spotify.
    package nonisolated func mayBeSent(to apiBaseURL: URL) -> Bool {
        let own = endpoint.server.apiBaseURL
        return own.scheme == apiBaseURL.scheme && own.host?.lowercased() == apiBaseURL.host?.lowercased()
            && own.port == apiBaseURL.port
    }

    /// The scopes a new sign-in should ask for to add `scopes`: the ones granted now and the new
    /// ones (scopes are fixed at consent; a sign-in asking for fewer would lose some).
    public func scopesForSignIn(adding scopes: [String]) async -> [String] {
        let stored = try? await tokens()
        let granted = stored?.scopes ?? SpotifyScope.all
        return granted + scopes.filter { !granted.contains($0) }
    }

    /// One refresh however many callers need one, also when it fails: a caller joins the refresh
    /// in flight, and a caller who asked (at `asked`) before a refresh failed gets that failure,
    /// even if it was still waiting for the store when the refresh ended.
    private func refresh(replacing failed: AccessToken, askedAt asked: Int) async throws -> StoredTokens {
        if let joined = try await refreshes.joined(askedAt: asked) { return joined }
        let stored = try await tokens()
        // The store may have kept this caller waiting: look again.
        if let joined = try await refreshes.joined(askedAt: asked) { return joined }
        switch RefreshRules.afterRefusal(of: failed, stored: stored, now: clock.now, margin: Self.proactiveMargin) {
        case .notSignedIn: throw notSignedIn()
        case .useStored(let stored): return stored
        case .refresh: break
        }
        let activity = activity
        return try await refreshes.start {
            // A refresh and its save finish even if the app is sent to the background meanwhile.
            try await activity.run("Refreshing the Spotify sign-in") {
                try await self.withStore { try await self.performRefresh(replacing: failed) }
            }
        }
    }

    /// Callers waiting for the refresh in flight, its starter included (tests wait for them all).
    package var refreshWaiterCount: Int { refreshes.waiting }

    /// Calls waiting for their turn at the token store (tests see a sign-out wait for a refresh).
    package var storeTurnsWaiting: Int { storeTurns.waiting }

    private func performRefresh(replacing failed: AccessToken) async throws -> StoredTokens {
        let lock = try await store.acquireLock(key)
        defer { lock.release() }
        // Another process may have refreshed while this one waited for the lock.
        let latest: StoredTokens
        switch RefreshRules.afterRefusal(
            of: failed, stored: try await store.load(key), now: clock.now, margin: Self.proactiveMargin)
        {
        case .notSignedIn:
            cached = nil
            status = .needsSignIn(.removedElsewhere)
            throw notSignedIn()
        case .useStored(let stored):
            cached = stored
            return stored
        case .refresh(let stored):
            latest = stored
        }
        logger?.debug("spotify token refresh", metadata: ["issuer": "\(key.issuer)"])
        let refreshed: StoredTokens
        do {
            refreshCount += 1
            refreshed = try await endpoint.refresh(latest)
        } catch {
            guard case .signOut(let reason) = RefreshRules.afterFailure(error) else { throw error }
            // Another process (an extension without the shared lock) may have saved new tokens since
            // these were read: sign out only if the store still holds the refresh token refused.
            let now = try? await store.load(key)
            if case .useSaved(let saved) = RefreshRules.afterRefusedGrant(of: latest, stored: now) {
                cached = saved
                status = .signedIn
                return saved
            }
            try? await store.remove(key)
            cached = nil
            throw refused(error, reason: reason)
        }
        cached = refreshed
        status = .signedIn
        do {
            try await store.save(refreshed, for: key)
        } catch {
            // Spotify may have rotated the refresh token: losing it would end the sign-in. Keep the
            // tokens here, use them, and save them before the store's next use.
            unsaved = refreshed
            logger?.debug("spotify token save failed; the tokens stay in memory", metadata: ["issuer": "\(key.issuer)"])
        }
        return refreshed
    }

    /// Spotify refused a refresh token for good (`error`, saying `reason`): the session needs a
    /// new sign-in, and the caller gets why.
    private func refused(_ error: any Error, reason: String) -> OAuthError {
        status = .needsSignIn(SignInEnd(refusal: reason))
        return OAuthError(
            code: .needsSignIn, status: (error as? OAuthError)?.status, message: reason, underlying: error)
    }

    private func notSignedIn() -> OAuthError {
        switch status {
        case .needsSignIn(.expired): .needsSignIn("Spotify ended this sign-in six months after it began.")
        case .needsSignIn(.revoked): .needsSignIn("Spotify no longer accepts this sign-in.")
        case .needsSignIn(.unreadable): .needsSignIn("The stored sign-in could not be read.")
        case .needsSignIn(.removedElsewhere): .needsSignIn("The stored sign-in is gone.")
        case .signedIn, .signedOut: .needsSignIn("Not signed in to Spotify.")
        }
    }
}
