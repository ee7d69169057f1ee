import Foundation
public import Logging
@_spi(Storage) import PlaylistLinks
public import PostgresNIO
@_spi(Storage) public import SpotifyAuth
import SpotifyLinkSupport
public import SpotifyWebAPI
import Synchronization

/// A `TokenStore` in PostgreSQL for one user of a server: the sign-ins of many users in one
/// database, each sealed, each refreshed once however many server processes need it at once.
///
/// Every row and every query carries the user and the app (`SpotifyAppKey`), so one user's store
/// can never read or change another's sign-in. The whole sign-in (access and refresh token,
/// scopes, account) is sealed with AES-256-GCM under ``TokenSealingKeys`` the server gives; the
/// database holds the key's ID and a fingerprint beside each row, never the key or a token.
///
/// ```swift
/// try await PostgresSchema.migrate(databaseURL)
/// let keys = try TokenSealingKeys.fromEnvironment()  // SPOTLINK_TOKEN_KEYS
/// let tokens = try PostgresTokenStore(client: client, user: accountID, keys: keys)
/// let session = SpotifySession(endpoint: TokenEndpoint(server: .spotify, clientID: clientID), store: tokens)
/// ```
///
/// What goes wrong is a typed `TokenStoreError`, and the sign-in stays where it is:
/// - `.misconfigured`: a row sealed under a key this server was not given, or a different key
///   under the same ID;
/// - `.tampered`: a row that fails its authentication check, named; nothing is changed;
/// - `.unavailable`: a call that PostgreSQL did not answer within the deadline, named, or a lock
///   another process held too long.
///
/// ``acquireLock(_:)`` takes a per-user advisory lock, held by a transaction until released (or
/// until the process holding it dies), so a refresh runs once across every process.
public final class PostgresTokenStore: TokenStore {
    /// The user whose sign-ins this store reads and writes.
    public let user: String
    private let keys: TokenSealingKeys
    private let client: PostgresClient
    private let deadline: Duration
    private let lockWait: Duration
    private let deadlineClock: any SpotifyClock
    private let logger: Logger

    /// A store of `user`'s sign-ins in the database `client` reaches, sealed with `keys`.
    ///
    /// - Parameters:
    ///   - client: the server's pool, already running.
    ///   - user: the user whose sign-ins these are (the Spotify account ID, or the server's own key).
    ///   - keys: the sealing keys, the current one first.
    ///   - deadline: how long one read or write may take before it fails, naming the call.
    ///   - lockWait: how long ``acquireLock(_:)`` waits for another process's refresh.
    ///   - logger: where PostgresNIO logs its queries (never a token: they are bound sealed).
    /// - Throws: `TokenStoreError` with code `.misconfigured` for an empty user.
    public convenience init(
        client: PostgresClient, user: String, keys: TokenSealingKeys, deadline: Duration = PostgresDeadline.default,
        lockWait: Duration = .seconds(30),
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try self.init(
            client: client, user: user, keys: keys, deadline: deadline, lockWait: lockWait,
            deadlineClock: SystemClock(),
            logger: logger)
    }

    /// A store whose deadlines run on `deadlineClock`.
    package init(
        client: PostgresClient, user: String, keys: TokenSealingKeys, deadline: Duration, lockWait: Duration,
        deadlineClock: any SpotifyClock,
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        guard !user.isEmpty else {
            throw TokenStoreError(code: .misconfigured, message: "A PostgreSQL token store needs a user key.")
        }
        self.client = client
        self.user = user
        self.keys = keys
        self.deadline = deadline
        self.lockWait = lockWait
        self.deadlineClock = deadlineClock
        self.logger = logger
    }

    public var kind: TokenStoreKind { .database("PostgreSQL, sealed with key “\(keys.currentID)”") }

    @_spi(Storage) public func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
        let found = try await call("read a sign-in") { [self] in
            let rows = try await client.query(
                """
                SELECT key_id, key_check, sealed FROM spotlink_token
                WHERE user_key = \(user) AND issuer = \(key.issuer) AND client_id = \(key.clientID)
                """, logger: logger)
            var found: (String, String, Data)?
            for try await (id, check, sealed) in rows.decode((String, String, Data).self) {
                found = (id, check, sealed)
            }
            return found
        }
        guard let (id, check, sealed) = found else { return nil }
        guard keys.has(id) else {
            throw TokenStoreError(
                code: .misconfigured,
                message: "The Spotify sign-in of \(row(key)) is sealed with the key “\(id)”, which this server was "
                    + "not given. Add it to \(TokenSealingKeys.environmentVariable) after the current key; the "
                    + "sign-in was kept.")
        }
        guard keys.check(id) == check else {
            throw TokenStoreError(
                code: .misconfigured,
                message: "The Spotify sign-in of \(row(key)) was sealed with another key than the one this server "
                    + "has under the ID “\(id)”. Give the server the key it was sealed with; the sign-in was kept.")
        }
        guard let plain = keys.open(sealed, id: id, context: context(key, id)) else {
            throw TokenStoreError(
                code: .tampered,
                message: "The Spotify sign-in of \(row(key)) failed its authentication check: the row was changed "
                    + "outside SpotifyLink, or copied from another user. Nothing was changed; delete the row, and "
                    + "the user signs in again.")
        }
        guard let tokens = try? JSONDecoder.tokenStore.decode(StoredTokens.self, from: plain),
            tokens.version <= StoredTokens.currentVersion
        else {
            try await remove(key)
            throw TokenStoreError(
                code: .corrupt,
                message: "The Spotify sign-in of \(row(key)) could not be read (a newer SpotifyLink wrote it) and "
                    + "was removed. The user is signed out: sign in again.")
        }
        return tokens
    }

    @_spi(Storage) public func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        let id = keys.currentID
        let sealed = try keys.seal(try JSONEncoder.tokenStore.encode(tokens), context: context(key, id))
        let check = keys.check(id) ?? ""
        try await call("save a sign-in") { [self] in
            try await client.query(
                """
                INSERT INTO spotlink_token (user_key, issuer, client_id, key_id, key_check, sealed, saved_at)
                VALUES (\(user), \(key.issuer), \(key.clientID), \(id), \(check), \(sealed), now())
                ON CONFLICT (user_key, issuer, client_id) DO UPDATE SET key_id = excluded.key_id,
                    key_check = excluded.key_check, sealed = excluded.sealed, saved_at = excluded.saved_at
                """, logger: logger)
        }
    }

    @_spi(Storage) public func remove(_ key: SpotifyAppKey) async throws {
        try await call("remove a sign-in") { [self] in
            try await client.query(
                """
                DELETE FROM spotlink_token
                WHERE user_key = \(user) AND issuer = \(key.issuer) AND client_id = \(key.clientID)
                """, logger: logger)
        }
    }

    /// Takes this user's lock for `key` in the database: a transaction holds a transaction-level
    /// advisory lock until `TokenStoreLock.release()`, so every process of the server that uses
    /// the same database waits its turn, and a process that dies lets go with its connection.
    /// - Throws: `TokenStoreError` with code `.unavailable` when another process held the lock
    ///   for `lockWait`, or when PostgreSQL did not answer.
    @_spi(Storage) public func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock {
        let lock = AdvisoryLock()
        let name = "spotlink-token \(user) \(key.issuer) \(key.clientID)"
        let (seconds, attoseconds) = lockWait.components
        let wait = "\(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))ms"
        let holder = Task { [client, logger] in
            do {
                try await client.withTransaction(logger: logger) { connection in
                    _ = try await connection.query("SELECT set_config('lock_timeout', \(wait), true)", logger: logger)
                        .collect()
                    // The call returns once the row's shape is known; the lock is held when the row came.
                    let rows = try await connection.query(
                        "SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))", logger: logger)
                    for try await _ in rows {}
                    guard lock.acquired() else { return }
                    await lock.untilReleased()
                }
            } catch {
                lock.failed(error)
            }
        }
        do {
            try await PostgresDeadline.run(
                within: lockWait + deadline, clock: deadlineClock,
                expired: { [self] in unavailable("take the lock on the sign-in of \(row(key))", lockWait + deadline) }
            ) { try await lock.waitUntilAcquired() }
        } catch {
            lock.abandon()
            holder.cancel()
            throw storeError(PostgresFailure.unwrap(error), "take the lock on the sign-in of \(row(key))")
        }
        return lock
    }

    // MARK: - Rows

    /// The row's owner, as errors name it: the user, the app and the accounts service.
    private func row(_ key: SpotifyAppKey) -> String {
        "user “\(user)” of app \(key.clientID) at \(key.issuer) (table spotlink_token)"
    }

    /// What each sealed row is bound to: its user, app, accounts service and key ID, each with
    /// its length so no two owners read alike.
    private func context(_ key: SpotifyAppKey, _ id: String) -> Data {
        Data(["spotlink-token-1", user, key.issuer, key.clientID, id].map { "\($0.utf8.count):\($0)" }.joined().utf8)
    }

    /// One call within the deadline; PostgreSQL's failures become `TokenStoreError`s naming it.
    @discardableResult
    private func call<T: Sendable>(_ doing: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T
    {
        do {
            return try await PostgresDeadline.run(
                within: deadline, clock: deadlineClock, expired: { [self] in unavailable(doing, deadline) }, body)
        } catch let error as TokenStoreError {
            throw error
        } catch {
            throw storeError(PostgresFailure.unwrap(error), doing)
        }
    }

    private func unavailable(_ doing: String, _ limit: Duration) -> TokenStoreError {
        TokenStoreError(
            code: .unavailable,
            message: "PostgreSQL did not \(doing) within \(PostgresFailure.seconds(limit)) s. Check that the server "
                + "runs and can be reached, and that no long transaction holds the table spotlink_token "
                + "(pg_stat_activity). The sign-in was kept.")
    }

    private func storeError(_ error: any Error, _ doing: String) -> TokenStoreError {
        if let error = error as? TokenStoreError { return error }
        if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "55P03" {
            return TokenStoreError(
                code: .unavailable,
                message:
                    "Another process held the lock on the Spotify sign-in for \(PostgresFailure.seconds(lockWait)) s, "
                    + "longer than a refresh takes. Check for a stuck server process (pg_locks); the sign-in was kept.",
                underlying: error)
        }
        let worded = PostgresFailure.word(error, doing)
        return TokenStoreError(
            code: .unavailable, message: worded.message + " The sign-in was kept.", underlying: error)
    }
}

/// The advisory lock a transaction holds for one caller: acquired once, released once, and let go
/// at once when the caller stopped waiting.
private final class AdvisoryLock: TokenStoreLock {
    private enum Phase {
        case waiting(CheckedContinuation<Void, any Error>?)
        case held(CheckedContinuation<Void, Never>?)
        case failed(any Error)
        case over
    }
    private let phase = Lock(Phase.waiting(nil))

    /// Waits until the transaction holds the lock, or throws what kept it from it.
    func waitUntilAcquired() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = phase.withLock { phase -> Result<Void, any Error>? in
                switch phase {
                case .waiting:
                    phase = .waiting(continuation)
                    return nil
                case .held: return .success(())
                case .failed(let error): return .failure(error)
                case .over: return .failure(CancellationError())
                }
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// The transaction got the lock; `false` when nobody waits for it any more (let it go).
    func acquired() -> Bool {
        let waiter = phase.withLock { phase -> (Bool, CheckedContinuation<Void, any Error>?) in
            guard case .waiting(let waiter) = phase else { return (false, nil) }
            phase = .held(nil)
            return (true, waiter)
        }
        waiter.1?.resume()
        return waiter.0
    }

    /// Holds the transaction open until ``release()``.
    func untilReleased() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = phase.withLock { phase -> Bool in
                guard case .held = phase else { return true }
                phase = .held(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func failed(_ error: any Error) {
        let waiter = phase.withLock { phase -> CheckedContinuation<Void, any Error>? in
            guard case .waiting(let waiter) = phase else { return nil }
            phase = .failed(error)
            return waiter
        }
        waiter?.resume(throwing: error)
    }

    /// The caller stopped waiting: a lock taken later is let go at once.
    func abandon() { release() }

    func release() {
        let (holder, waiter) = phase.withLock {
            phase -> (CheckedContinuation<Void, Never>?, CheckedContinuation<Void, any Error>?) in
            defer { phase = .over }
            switch phase {
            case .held(let holder): return (holder, nil)
            case .waiting(let waiter): return (nil, waiter)
            case .failed, .over: return (nil, nil)
            }
        }
        holder?.resume()
        waiter?.resume(throwing: CancellationError())
    }
}
