import Foundation
public import Logging
@_spi(Storage) import PlaylistLinks
import PostgresNIO
package import SpotifyWebAPI

/// The tables SpotifyLink keeps in a PostgreSQL database, one versioned migration per step, run at
/// start-up by ``migrate(_:deadline:logger:)`` before any store is used.
///
/// Every table is prefixed `spotlink_`, so the database can hold the server's own tables too. The
/// link tables carry the user each row belongs to; the ledger's tables the app (`SpotifyAppKey`) whose
/// quota they count.
public enum PostgresSchema {
    /// The schema version this build writes and reads.
    package static let currentVersion = migrations.count

    /// Brings the database at `url` to the schema version this build writes over a connection of its own, in one
    /// transaction under an advisory lock, so several processes starting at once migrate it once.
    /// Run it at start-up, before the server's `PostgresClient` serves: a wrong URL or a server
    /// that is down fails here at once, named, instead of as a pool that keeps retrying.
    /// - Throws: `PlaylistLinksError`, naming the URL without its password: `.invalidArgument` for
    ///   a URL that cannot be used; `.database` when the server cannot be reached or refuses the
    ///   sign-in, or when the database was written by a newer SpotifyLink (update this server
    ///   before it writes there).
    ///   A server that does not answer within `PostgresDeadline.default` (the connection, and the
    ///   check of the schema's version, which is all a start-up does when nothing is to migrate),
    ///   or a migration that does not end within `deadline` (10 minutes unless given: a new index
    ///   on a large table takes its time), fails with `.database` too, and leaves the tables as
    ///   they were.
    public static func migrate(
        _ url: String, deadline: Duration = .seconds(600),
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        try await migrate(
            url, deadline: deadline, checking: PostgresDeadline.default, clock: SystemClock(), logger: logger)
    }

    /// ``migrate(_:deadline:logger:)`` with the check's deadline and the clock the check's and the
    /// migration's deadlines run on: the tests' hook.
    package static func migrate(
        _ url: String, deadline: Duration, checking: Duration, clock: any SpotifyClock, logger: Logger
    ) async throws {
        let configuration = try PostgresURL.connectionConfiguration(url)
        let connection: PostgresConnection
        let connecting = PostgresDeadline.default
        do {
            connection = try await PostgresDeadline.run(
                within: connecting, clock: SystemClock(),
                expired: { PostgresFailure.expired("answer at \(PostgresURL.redacted(url))", connecting) }
            ) {
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
        } catch let error as PlaylistLinksError {
            throw error
        } catch {
            throw PostgresFailure.unreachable(url, error)
        }
        do {
            // The long deadline is for a migration's work: a start-up that finds the tables current
            // (almost every one) reads one row under the ordinary deadline, so a server that stops
            // answering is said in seconds, not in ten minutes.
            let stored = try await storedVersion(on: connection, deadline: checking, clock: clock, logger: logger)
            if stored > currentVersion { throw newer(stored) }
            if stored < currentVersion {
                try await migrate(on: connection, deadline: deadline, clock: clock, logger: logger)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    private static func migrate(
        on connection: PostgresConnection, deadline: Duration, clock: any SpotifyClock, logger: Logger
    ) async throws {
        try await PostgresFailure.wrapping("migrate the SpotifyLink tables", within: deadline, clock: clock) {
            try await connection.withTransaction(logger: logger) { connection in
                _ = try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger).collect()
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS spotlink_schema (version integer NOT NULL)", logger: logger)
                let rows = try await connection.query("SELECT version FROM spotlink_schema", logger: logger)
                var stored = 0
                for try await (version) in rows.decode(Int.self) { stored = max(stored, version) }
                guard stored <= currentVersion else { throw newer(stored) }
                for version in stored..<currentVersion {
                    for statement in migrations[version] {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                }
                if stored == 0 {
                    try await connection.query(
                        "INSERT INTO spotlink_schema (version) VALUES (\(currentVersion))", logger: logger)
                } else if stored < currentVersion {
                    try await connection.query("UPDATE spotlink_schema SET version = \(currentVersion)", logger: logger)
                }
            }
        }
    }

    /// The schema version the database holds, 0 when it has no SpotifyLink tables: read without
    /// the migrations' lock (a migration in another process is one transaction, so this sees its
    /// state before or after).
    private static func storedVersion(
        on connection: PostgresConnection, deadline: Duration, clock: any SpotifyClock, logger: Logger
    ) async throws -> Int {
        try await PostgresFailure.wrapping("check the SpotifyLink tables", within: deadline, clock: clock) {
            let found = try await connection.query("SELECT to_regclass('spotlink_schema') IS NOT NULL", logger: logger)
            var exists = false
            for try await (value) in found.decode(Bool.self) { exists = value }
            guard exists else { return 0 }
            let rows = try await connection.query(
                "SELECT COALESCE(max(version), 0) FROM spotlink_schema", logger: logger)
            var stored = 0
            for try await (version) in rows.decode(Int.self) { stored = version }
            return stored
        }
    }

    /// The refusal of a database a newer SpotifyLink wrote.
    private static func newer(_ stored: Int) -> PlaylistLinksError {
        PlaylistLinksError(
            code: .database,
            message: "This database holds SpotifyLink tables of schema version \(stored), newer than "
                + "this build's \(currentVersion). Update this server to the SpotifyLink version that "
                + "wrote them; nothing was changed.")
    }

    /// The advisory lock migrations take turns under (an arbitrary constant: "SPOTLINK").
    static let lockKey: Int64 = 0x5350_4F54_4C49_4E4B

    /// Never edit a shipped migration: add one.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE spotlink_playlist (
                user_key text NOT NULL, id text NOT NULL, name text, description text, owner_name text,
                track_count integer, duration_ms bigint, unavailable_count integer, snapshot_id text,
                fetched_at double precision, availability text NOT NULL DEFAULT 'unknown', cover_url text,
                PRIMARY KEY (user_key, id))
            """,
            """
            CREATE TABLE spotlink_link (
                user_key text NOT NULL, namespace text NOT NULL, record_id text NOT NULL, playlist_id text NOT NULL,
                linked_at double precision NOT NULL,
                PRIMARY KEY (user_key, namespace, record_id),
                FOREIGN KEY (user_key, playlist_id) REFERENCES spotlink_playlist (user_key, id) ON DELETE RESTRICT)
            """,
            "CREATE INDEX spotlink_link_playlist ON spotlink_link (user_key, playlist_id)",
            """
            CREATE TABLE spotlink_cover (
                user_key text NOT NULL, playlist_id text NOT NULL, bytes bytea NOT NULL, size integer NOT NULL,
                last_used_at double precision NOT NULL,
                PRIMARY KEY (user_key, playlist_id),
                FOREIGN KEY (user_key, playlist_id) REFERENCES spotlink_playlist (user_key, id) ON DELETE CASCADE)
            """,
            """
            CREATE TABLE spotlink_library (
                user_key text NOT NULL, id text NOT NULL, name text NOT NULL, owner_name text, track_count integer,
                cover_url text, snapshot_id text, position integer NOT NULL,
                PRIMARY KEY (user_key, id))
            """,
            """
            CREATE TABLE spotlink_cooldown (
                issuer text NOT NULL, client_id text NOT NULL, kind text NOT NULL, until double precision NOT NULL,
                learned_at double precision NOT NULL,
                PRIMARY KEY (issuer, client_id))
            """,
            """
            CREATE TABLE spotlink_request (
                issuer text NOT NULL, client_id text NOT NULL, sent_at double precision NOT NULL, endpoint text NOT NULL,
                status integer, background boolean NOT NULL)
            """,
            "CREATE INDEX spotlink_request_by_app_and_time ON spotlink_request (issuer, client_id, sent_at)",
        ],
        // Requests are counted before they leave and their status filled in after; the ID finds
        // the row. Rows of version 1 keep no ID: they are complete.
        [
            "ALTER TABLE spotlink_request ADD COLUMN id uuid",
            "CREATE INDEX spotlink_request_by_id ON spotlink_request (id)",
        ],
        // Temporary by design: when the details came from Spotify, and when they were dropped for
        // their age. Rows saved before keep their last fetch as their age, or start now.
        [
            "ALTER TABLE spotlink_playlist ADD COLUMN saved_at double precision",
            "ALTER TABLE spotlink_playlist ADD COLUMN dropped_at double precision",
            """
            UPDATE spotlink_playlist SET saved_at = COALESCE(fetched_at, extract(epoch FROM now()))
            WHERE name IS NOT NULL OR owner_name IS NOT NULL OR track_count IS NOT NULL OR duration_ms IS NOT NULL
                OR cover_url IS NOT NULL OR snapshot_id IS NOT NULL OR description IS NOT NULL
            """,
            "CREATE INDEX spotlink_playlist_detail_age ON spotlink_playlist (user_key, (COALESCE(saved_at, fetched_at)))",
            "CREATE INDEX spotlink_cover_last_shown ON spotlink_cover (user_key, last_used_at)",
        ],
        // Sign-ins of a server's users, each sealed (AES-256-GCM) under a key the server holds:
        // the key's ID and fingerprint are kept, never the key or a token.
        [
            """
            CREATE TABLE spotlink_token (
                user_key text NOT NULL, issuer text NOT NULL, client_id text NOT NULL,
                key_id text NOT NULL, key_check text NOT NULL, sealed bytea NOT NULL,
                saved_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_key, issuer, client_id))
            """
        ],
        // What the app can read of each playlist of the picker's copy (Development Mode shows the
        // songs of the user's own and collaborative playlists only); rows listed before stay unknown.
        ["ALTER TABLE spotlink_library ADD COLUMN access text"],
        // Each QUOTA_EXCEEDED with the window's count and its Retry-After: what the ledger learns
        // the developer's quota from. Kept 30 days.
        [
            """
            CREATE TABLE spotlink_quota_refusal (
                issuer text NOT NULL, client_id text NOT NULL, at double precision NOT NULL,
                window_count integer NOT NULL, retry_after double precision)
            """,
            "CREATE INDEX spotlink_quota_refusal_by_app ON spotlink_quota_refusal (issuer, client_id, at)",
        ],
        // Each user's forget epoch: every forget increases it in its own transaction, and a write
        // that read an earlier one (a refresh's answer arriving after a disconnect, from any of the
        // server's processes) is refused. A user without a row has forgotten nothing yet.
        ["CREATE TABLE spotlink_forget_epoch (user_key text PRIMARY KEY, epoch bigint NOT NULL)"],
        // The entries Spotify marks explicit, counted with the duration from the same read; rows
        // saved before stay unknown until their next refresh reads the entries.
        ["ALTER TABLE spotlink_playlist ADD COLUMN explicit_count integer"],
        // The search service's own state, shared by its instances (spotlink-search with
        // SPOTLINK_SEARCH_POSTGRES_URL): its one-use challenges, the devices' attested keys with
        // their assertion counters, and the per-device and per-address windows of its limits.
        [
            """
            CREATE TABLE spotlink_search_challenge (value text PRIMARY KEY, expires_at double precision NOT NULL)
            """,
            "CREATE INDEX spotlink_search_challenge_expiry ON spotlink_search_challenge (expires_at)",
            """
            CREATE TABLE spotlink_search_device_key (
                key_id bytea PRIMARY KEY, public_key bytea NOT NULL, environment text NOT NULL, receipt bytea NOT NULL,
                app_id text NOT NULL, counter bigint NOT NULL, attested_at double precision NOT NULL)
            """,
            """
            CREATE TABLE spotlink_search_rate_window (
                bucket text PRIMARY KEY, window_start double precision NOT NULL, count integer NOT NULL)
            """,
            "CREATE INDEX spotlink_search_rate_window_start ON spotlink_search_rate_window (window_start)",
        ],
    ]
}

/// Words PostgreSQL's failures as `PlaylistLinksError`: what was being done and what the server
/// said, never the connection's password.
package enum PostgresFailure {
    /// Runs `body`, one call to PostgreSQL, within `limit`: its failure, or its running out of
    /// time, is worded as what was being done.
    @discardableResult
    package static func wrapping<T: Sendable>(
        _ doing: String, within limit: Duration, clock: any SpotifyClock,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await PostgresDeadline.run(within: limit, clock: clock, expired: { expired(doing, limit) }, body)
        } catch {
            throw word(unwrap(error), doing)
        }
    }

    /// `duration` in seconds, as people write them: "15", "0.5".
    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        let value = Double(whole) + Double(fraction) / 1e18
        return value == value.rounded() ? String(Int64(value)) : String(format: "%.3g", value)
    }

    /// A call that ran out of time: which one, and what to check.
    static func expired(_ doing: String, _ limit: Duration) -> PlaylistLinksError {
        PlaylistLinksError(
            code: .database,
            message: "PostgreSQL did not \(doing) within \(seconds(limit)) s. Check that the server runs and "
                + "can be reached, and that no long transaction holds the SpotifyLink tables (pg_stat_activity). "
                + "The call was cancelled: what it would have written is there whole or not at all.")
    }

    /// A connection to `url` that could not be opened: the URL without its password, what went
    /// wrong in a few words, and what to check.
    static func unreachable(_ url: String, _ error: any Error) -> PlaylistLinksError {
        let reason: String
        if let error = error as? PSQLError, let said = error.serverInfo?[.message] {
            reason = "the server said: \(said)"
        } else {
            let detail = String(describing: (error as? PSQLError)?.underlying ?? error)
            if detail.contains("Connection refused") || detail.contains("errno: 111") {
                reason = "the connection was refused"
            } else if detail.contains("No such file") || detail.contains("errno: 2") {
                reason = "no server listens on that socket"
            } else {
                reason = detail
            }
        }
        return PlaylistLinksError(
            code: .database,
            message: "PostgreSQL at \(PostgresURL.redacted(url)) could not be reached: \(reason). Check that the "
                + "server runs and that the URL's host, port, user, database and sslmode are right; nothing was "
                + "changed.",
            underlying: error)
    }

    /// The error inside a transaction's wrapper: the closure's, else BEGIN's or COMMIT's.
    static func unwrap(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError,
            let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError
        else { return error }
        return unwrap(inner)
    }

    static func word(_ error: any Error, _ doing: String) -> PlaylistLinksError {
        switch error {
        case let error as PlaylistLinksError:
            return error
        case let error as PSQLError:
            let said =
                error.serverInfo?[.message].map { ": \($0)" }
                ?? error.underlying.map { " (\(error.code): \($0))" } ?? " (\(error.code))"
            return PlaylistLinksError(
                code: .database, message: "PostgreSQL could not \(doing)\(said).", underlying: error)
        default:
            return PlaylistLinksError(
                code: .database, message: "PostgreSQL could not \(doing): \(error).", underlying: error)
        }
    }
}
