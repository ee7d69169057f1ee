#if PostgreSQL
    import AppAttest
    package import Foundation
    package import Logging
    package import PostgresNIO
    import SpotifyLinkPostgres
    import SpotifyLinkSupport
    package import SpotifyWebAPI
    import Synchronization

    /// The service's state in PostgreSQL (the `spotlink_search_` tables of ``PostgresSchema``), for
    /// instances on several machines: one challenge is used once, one counter moves once and one
    /// device's window counts every instance's requests, whichever instance answers.
    ///
    /// Each rule is one statement or one transaction PostgreSQL runs atomically: a challenge is
    /// used by a `DELETE … RETURNING` that only one transaction can win, a counter by a
    /// compare-and-set `UPDATE … RETURNING`, a window by one `INSERT … ON CONFLICT` that counts
    /// only under its limit. Every call ends within `deadline`, as the ledger's do.
    package final class PostgresSearchServiceStore: SearchServiceStore {
        let client: PostgresClient
        let logger: Logger
        let deadline: Duration
        let clock: any SpotifyClock
        /// The window start of the last sweep of ended windows and expired challenges.
        private let swept = Lock(-Double.infinity)

        /// The store on `client`'s database; run ``PostgresSchema/migrate(_:deadline:logger:)`` first.
        package init(
            client: PostgresClient, logger: Logger, deadline: Duration = PostgresDeadline.default,
            clock: any SpotifyClock = SystemClock()
        ) {
            self.client = client
            self.logger = logger
            self.deadline = deadline
            self.clock = clock
        }

        @discardableResult
        private func run<T: Sendable>(_ doing: String, _ body: @escaping @Sendable () async throws -> T)
            async throws -> T
        {
            try await PostgresFailure.wrapping(doing, within: deadline, clock: clock, body)
        }

        package func issueChallenge(_ value: String, expiresAt: Date, now: Date) async throws {
            try await run("keep a challenge") { [self] in
                try await client.withConnection { connection in
                    try await Self.issue(value, expiresAt: expiresAt, now: now, connection, logger)
                }
            }
            await sweep(now: now, window: SearchService.window)
        }

        /// Drops the ended windows and the expired challenges, once per window and instance, in
        /// one statement of its own that never waits: rows another instance is touching are left
        /// for the next sweep (`SKIP LOCKED`), so no transaction waits on a sweep's row while the
        /// sweep waits on its, and no two sweeps deadlock. Housekeeping only: a sweep that fails is
        /// logged and left to the next window, never the failure of the request it follows (whose
        /// work is already committed).
        private func sweep(now: Date, window: Duration) async {
            let (start, _) = Self.windowStart(now, window)
            let due = swept.withLock { last in
                guard start > last else { return false }
                last = start
                return true
            }
            guard due else { return }
            do {
                // Read to its end: the statement's error (a refused delete) comes after the row's
                // shape, so a query whose rows are not read would never throw it.
                try await run("drop ended windows and expired challenges") { [self] in
                    _ = try await client.query(
                        """
                        WITH challenges AS (
                            DELETE FROM spotlink_search_challenge WHERE value IN (
                                SELECT value FROM spotlink_search_challenge WHERE expires_at <= \(now.timeIntervalSince1970)
                                FOR UPDATE SKIP LOCKED)),
                        windows AS (
                            DELETE FROM spotlink_search_rate_window WHERE bucket IN (
                                SELECT bucket FROM spotlink_search_rate_window WHERE window_start < \(start)
                                FOR UPDATE SKIP LOCKED))
                        SELECT 1
                        """, logger: logger
                    ).collect()
                }
            } catch {
                logger.warning(
                    "the search service's sweep failed; the next window sweeps again", metadata: ["error": "\(error)"])
            }
        }

        private static func issue(
            _ value: String, expiresAt: Date, now: Date, _ connection: PostgresConnection, _ logger: Logger
        ) async throws {
            try await connection.query(
                """
                INSERT INTO spotlink_search_challenge (value, expires_at)
                VALUES (\(value), \(expiresAt.timeIntervalSince1970))
                """, logger: logger)
        }

        package func accept(
            challenge: String, counter: (keyID: [UInt8], value: UInt32)?, device bucket: String, limit: Int,
            window: Duration, next: String, expiresAt: Date, now: Date
        ) async throws -> SearchServiceAcceptance {
            let counter = counter.map { (keyID: Data($0.keyID), value: Int64($0.value)) }
            let acceptance = try await run("check a request") { [self] in
                try await client.withTransaction(logger: logger) { connection -> SearchServiceAcceptance in
                    guard try await Self.consume(challenge, now: now, connection, self.logger) else {
                        return .challengeUnknown
                    }
                    if let counter {
                        guard try await Self.advance(counter.keyID, to: counter.value, connection, self.logger) else {
                            return .replayed
                        }
                    }
                    let reopens = try await Self.admit(
                        bucket, limit: limit, window: window, now: now, readingKey: nil, connection, self.logger
                    ).reopens
                    try await Self.issue(next, expiresAt: expiresAt, now: now, connection, self.logger)
                    return .accepted(deviceReopens: reopens)
                }
            }
            await sweep(now: now, window: window)
            return acceptance
        }

        package func consumeChallenge(_ value: String, now: Date) async throws -> Bool {
            try await run("use a challenge") { [self] in
                try await client.withConnection { connection in
                    try await Self.consume(value, now: now, connection, self.logger)
                }
            }
        }

        private static func consume(_ value: String, now: Date, _ connection: PostgresConnection, _ logger: Logger)
            async throws -> Bool
        {
            let rows = try await connection.query(
                """
                DELETE FROM spotlink_search_challenge WHERE value = \(value) AND expires_at > \(now.timeIntervalSince1970)
                RETURNING 1
                """, logger: logger)
            return try await rows.decode(Int.self).reduce(0) { count, _ in count + 1 } == 1
        }

        package func saveKey(_ device: DeviceKey, at now: Date) async throws -> Bool {
            try await run("keep a device's key") { [self] in
                let rows = try await client.query(
                    """
                    INSERT INTO spotlink_search_device_key
                        (key_id, public_key, environment, receipt, app_id, counter, attested_at)
                    VALUES (\(Data(device.key.keyID)), \(Data(device.key.publicKey)), \(device.key.environment.rawValue),
                            \(Data(device.key.receipt)), \(device.appID), \(Int64(device.counter)),
                            \(now.timeIntervalSince1970))
                    ON CONFLICT (key_id) DO NOTHING
                    RETURNING 1
                    """, logger: logger)
                return try await rows.decode(Int.self).reduce(0) { count, _ in count + 1 } == 1
            }
        }

        package func key(_ keyID: [UInt8]) async throws -> DeviceKey? {
            try await run("read a device's key") { [self] in
                let rows = try await client.query(
                    """
                    SELECT public_key, environment, receipt, app_id, counter FROM spotlink_search_device_key
                    WHERE key_id = \(Data(keyID))
                    """, logger: logger)
                for try await (publicKey, environment, receipt, appID, counter) in rows.decode(
                    (Data, String, Data, String, Int64).self)
                {
                    return Self.deviceKey(keyID, publicKey, environment, receipt, appID, counter)
                }
                return nil
            }
        }

        /// The key with `keyID` from its row's columns; `nil` for an environment this build does not know.
        private static func deviceKey(
            _ keyID: [UInt8], _ publicKey: Data, _ environment: String, _ receipt: Data, _ appID: String,
            _ counter: Int64
        ) -> DeviceKey? {
            guard let environment = AppAttestEnvironment(rawValue: environment) else { return nil }
            return DeviceKey(
                key: AttestedKey(
                    keyID: keyID, publicKey: Array(publicKey), environment: environment, receipt: Array(receipt)),
                appID: appID, counter: UInt32(clamping: counter))
        }

        package func advanceCounter(_ keyID: [UInt8], to counter: UInt32) async throws -> Bool {
            try await run("move a key's counter") { [self] in
                try await client.withConnection { connection in
                    try await Self.advance(Data(keyID), to: Int64(counter), connection, self.logger)
                }
            }
        }

        private static func advance(
            _ keyID: Data, to counter: Int64, _ connection: PostgresConnection, _ logger: Logger
        )
            async throws -> Bool
        {
            let rows = try await connection.query(
                """
                UPDATE spotlink_search_device_key SET counter = \(counter) WHERE key_id = \(keyID) AND counter < \(counter)
                RETURNING 1
                """, logger: logger)
            return try await rows.decode(Int.self).reduce(0) { count, _ in count + 1 } == 1
        }

        package func admit(_ bucket: String, limit: Int, window: Duration, now: Date) async throws -> Date? {
            try await admit(bucket, limit: limit, window: window, now: now, readingKey: nil).reopens
        }

        /// One statement for both, one trip to the database: the count, and the named key, read
        /// only when the request was counted.
        package func admit(_ bucket: String, limit: Int, window: Duration, now: Date, readingKey keyID: [UInt8]?)
            async throws -> SearchServiceAdmission
        {
            let admission = try await run("count a request in its window") { [self] in
                try await client.withConnection { connection in
                    try await Self.admit(
                        bucket, limit: limit, window: window, now: now, readingKey: keyID, connection, self.logger)
                }
            }
            await sweep(now: now, window: window)
            return admission
        }

        /// One statement: a new window starts at 1, the current one counts on while under `limit`
        /// (the window is full when no row is counted); two instances counting the same bucket at
        /// once take turns on its row, so neither count is lost and the limit holds across them. Its
        /// one row says whether the request was counted, and carries the columns of the key with
        /// `keyID` when it was and the key is held.
        private static func admit(
            _ bucket: String, limit: Int, window: Duration, now: Date, readingKey keyID: [UInt8]?,
            _ connection: PostgresConnection, _ logger: Logger
        ) async throws -> SearchServiceAdmission {
            let (start, length) = windowStart(now, window)
            let rows = try await connection.query(
                """
                WITH counted AS (
                    INSERT INTO spotlink_search_rate_window AS kept (bucket, window_start, count)
                    VALUES (\(bucket), \(start), 1)
                    ON CONFLICT (bucket) DO UPDATE SET window_start = excluded.window_start,
                        count = CASE WHEN kept.window_start = excluded.window_start THEN kept.count + 1 ELSE 1 END
                    WHERE kept.window_start <> excluded.window_start OR kept.count < \(limit)
                    RETURNING count)
                SELECT (SELECT count(*) FROM counted), key.public_key, key.environment, key.receipt, key.app_id,
                    key.counter
                FROM (SELECT 1) AS one LEFT JOIN spotlink_search_device_key AS key
                    ON key.key_id = \(keyID.map { Data($0) }) AND EXISTS (SELECT 1 FROM counted)
                """, logger: logger)
            var admission = SearchServiceAdmission(reopens: Date(timeIntervalSince1970: start + length), key: nil)
            for try await (counted, publicKey, environment, receipt, appID, counter) in rows.decode(
                (Int64, Data?, String?, Data?, String?, Int64?).self)
            {
                guard counted == 1 else { continue }
                admission.reopens = nil
                if let keyID, let publicKey, let environment, let receipt, let appID, let counter {
                    admission.key = deviceKey(keyID, publicKey, environment, receipt, appID, counter)
                }
            }
            return admission
        }

        package func keptWindows() async throws -> Int {
            try await run("count the limits' windows") { [self] in
                let rows = try await client.query("SELECT count(*) FROM spotlink_search_rate_window", logger: logger)
                var count = 0
                for try await value in rows.decode(Int.self) { count = value }
                return count
            }
        }

        package func isReadable() async -> Bool {
            let answer = try? await run("answer") { [self] in
                let rows = try await client.query("SELECT 1", logger: logger)
                var value = 0
                for try await one in rows.decode(Int.self) { value = one }
                return value
            }
            return answer == 1
        }
    }
#endif
