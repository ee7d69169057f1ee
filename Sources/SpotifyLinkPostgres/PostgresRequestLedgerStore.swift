package import Foundation
public import Logging
@_spi(Storage) import PlaylistLinks
public import PostgresNIO
import SpotifyLinkSupport
public import SpotifyWebAPI

/// The request ledger in PostgreSQL: one quota for every process of a server. A cooldown one
/// process learns stops every other, and the counts are the server's, not a process's.
///
/// Each write is one statement PostgreSQL runs atomically (a cooldown is extended only by a later
/// one, in the `ON CONFLICT` clause itself), so two processes cannot overwrite each other's
/// cooldown by reading then writing.
package final class PostgresRequestLedgerStore: RequestLedgerStore {
    let client: PostgresClient
    let logger: Logger
    /// How long one call may take before it fails with `.database`, naming the call.
    let deadline: Duration
    /// The clock deadlines run on.
    let deadlineClock: any SpotifyClock

    package init(
        client: PostgresClient, logger: Logger, deadline: Duration = PostgresDeadline.default,
        deadlineClock: any SpotifyClock = SystemClock()
    ) {
        self.client = client
        self.logger = logger
        self.deadline = deadline
        self.deadlineClock = deadlineClock
    }

    package func cooldown(for key: SpotifyAppKey) async throws -> Cooldown? {
        try await PostgresFailure.wrapping("read the cooldown", within: deadline, clock: deadlineClock) { [self] in
            let rows = try await client.query(
                """
                SELECT kind, until, learned_at FROM spotlink_cooldown
                WHERE issuer = \(key.issuer) AND client_id = \(key.clientID)
                """, logger: logger)
            for try await (kind, until, learnedAt) in rows.decode((String, Double, Double).self) {
                return Cooldown(
                    kind: Cooldown.Kind(rawValue: kind) ?? .quota, until: Date(timeIntervalSince1970: until),
                    learnedAt: Date(timeIntervalSince1970: learnedAt))
            }
            return nil
        }
    }

    package func extendCooldown(_ cooldown: Cooldown, for key: SpotifyAppKey) async throws {
        try await PostgresFailure.wrapping("keep a cooldown", within: deadline, clock: deadlineClock) { [self] in
            try await client.query(
                """
                INSERT INTO spotlink_cooldown (issuer, client_id, kind, until, learned_at)
                VALUES (\(key.issuer), \(key.clientID), \(cooldown.kind.rawValue), \(cooldown.until.timeIntervalSince1970),
                        \(cooldown.learnedAt.timeIntervalSince1970))
                ON CONFLICT (issuer, client_id) DO UPDATE SET kind = excluded.kind, until = excluded.until,
                    learned_at = excluded.learned_at
                WHERE excluded.until > spotlink_cooldown.until
                """, logger: logger)
        }
    }

    package func reserve(_ entry: LedgerEntry, for key: SpotifyAppKey, limit: Int?, windowStart: Date) async throws
        -> LedgerReservation
    {
        try await PostgresFailure.wrapping("count a request", within: deadline, clock: deadlineClock) { [self] in
            try await client.withTransaction(logger: logger) { connection in
                // A count under a limit takes turns with the app's others under a lock of its own,
                // held to the commit: no process counts between another's read and its insert, and
                // other apps never wait. A count without a limit reads nothing, so it needs none.
                if limit != nil {
                    _ = try await connection.query(
                        "SELECT pg_advisory_xact_lock(hashtextextended(\(key.issuer) || ' ' || \(key.clientID), 0))",
                        logger: self.logger
                    ).collect()
                }
                try await connection.query(
                    """
                    DELETE FROM spotlink_request WHERE issuer = \(key.issuer) AND client_id = \(key.clientID)
                    AND sent_at < \(windowStart.timeIntervalSince1970)
                    """, logger: self.logger)
                var reservation = LedgerReservation.counted
                if let limit {
                    // Only the limit-th newest entry matters: when there is one, the window is full
                    // until it leaves. One row read through the index, however full the window.
                    let rows = try await connection.query(
                        """
                        SELECT sent_at FROM spotlink_request WHERE issuer = \(key.issuer) AND client_id = \(key.clientID)
                        ORDER BY sent_at DESC OFFSET \(max(limit - 1, 0)) LIMIT 1
                        """, logger: self.logger)
                    var sent: [Date] = []
                    for try await (sentAt) in rows.decode(Double.self) {
                        sent.append(Date(timeIntervalSince1970: sentAt))
                    }
                    reservation = .judgingNewest(sent, limit: limit)
                }
                guard reservation == .counted else { return reservation }
                try await connection.query(
                    """
                    INSERT INTO spotlink_request (id, issuer, client_id, sent_at, endpoint, status, background)
                    VALUES (\(entry.id), \(key.issuer), \(key.clientID), \(entry.sentAt.timeIntervalSince1970),
                            \(entry.route), \(entry.status), \(entry.background))
                    """, logger: self.logger)
                return reservation
            }
        }
    }

    package func settle(_ id: UUID, status: Int, for key: SpotifyAppKey) async throws {
        try await PostgresFailure.wrapping("keep a request's answer", within: deadline, clock: deadlineClock) {
            [self] in
            try await client.query(
                """
                UPDATE spotlink_request SET status = \(status)
                WHERE id = \(id) AND issuer = \(key.issuer) AND client_id = \(key.clientID)
                """, logger: logger)
        }
    }

    package func entries(for key: SpotifyAppKey, since date: Date) async throws -> [LedgerEntry] {
        try await PostgresFailure.wrapping("read the requests", within: deadline, clock: deadlineClock) { [self] in
            let rows = try await client.query(
                """
                SELECT id, sent_at, endpoint, status, background FROM spotlink_request
                WHERE issuer = \(key.issuer) AND client_id = \(key.clientID) AND sent_at >= \(date.timeIntervalSince1970)
                ORDER BY sent_at
                """, logger: logger)
            var entries: [LedgerEntry] = []
            for try await (id, sentAt, endpoint, status, background) in rows.decode(
                (UUID?, Double, String, Int?, Bool).self)
            {
                entries.append(
                    LedgerEntry(
                        sentAt: Date(timeIntervalSince1970: sentAt), route: endpoint, status: status,
                        background: background, id: id ?? UUID()))
            }
            return entries
        }
    }
}

extension PostgresRequestLedgerStore {
    package func recordQuotaRefusal(_ refusal: QuotaRefusal, for key: SpotifyAppKey) async throws {
        let forgetBefore = refusal.at.addingTimeInterval(-LearnedQuota.memory).timeIntervalSince1970
        let retryAfter = refusal.retryAfter?.seconds
        try await PostgresFailure.wrapping("keep a quota refusal", within: deadline, clock: deadlineClock) {
            [self] in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    DELETE FROM spotlink_quota_refusal WHERE issuer = \(key.issuer) AND client_id = \(key.clientID)
                    AND at < \(forgetBefore)
                    """, logger: self.logger)
                try await connection.query(
                    """
                    INSERT INTO spotlink_quota_refusal (issuer, client_id, at, window_count, retry_after)
                    VALUES (\(key.issuer), \(key.clientID), \(refusal.at.timeIntervalSince1970), \(refusal.windowCount),
                            \(retryAfter))
                    """, logger: self.logger)
            }
        }
    }

    package func quotaRefusals(for key: SpotifyAppKey, since date: Date) async throws -> [QuotaRefusal] {
        try await PostgresFailure.wrapping("read the quota refusals", within: deadline, clock: deadlineClock) {
            [self] in
            let rows = try await client.query(
                """
                SELECT at, window_count, retry_after FROM spotlink_quota_refusal
                WHERE issuer = \(key.issuer) AND client_id = \(key.clientID) AND at >= \(date.timeIntervalSince1970)
                ORDER BY at
                """, logger: logger)
            var refusals: [QuotaRefusal] = []
            for try await (at, count, retryAfter) in rows.decode((Double, Int, Double?).self) {
                refusals.append(
                    QuotaRefusal(
                        at: Date(timeIntervalSince1970: at), windowCount: count,
                        retryAfter: retryAfter.map { .milliseconds(Int64(($0 * 1000).rounded())) }))
            }
            return refusals
        }
    }
}

extension RequestLedger {
    /// A ledger in PostgreSQL, shared by every process of a server that uses the same database: a
    /// quota cooldown one process learns stops them all, and the daily budget counts every
    /// process's requests. Run ``PostgresSchema/migrate(_:deadline:logger:)`` first.
    ///
    /// Every call ends within `deadline`: one that PostgreSQL does not answer in time fails with
    /// `.database`, saying which call and what to check.
    public init(
        key: SpotifyAppKey, postgres client: PostgresClient, dailyBudget: Int? = nil,
        deadline: Duration = PostgresDeadline.default,
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(
            key: key, store: PostgresRequestLedgerStore(client: client, logger: logger, deadline: deadline),
            dailyBudget: dailyBudget)
    }
}
