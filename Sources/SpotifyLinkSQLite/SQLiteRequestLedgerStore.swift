public import Foundation
public import GRDB
@_spi(Storage) import PlaylistLinks
import SpotifyLinkSupport
public import SpotifyWebAPI

/// A `RequestLedgerStore` in a SQLite file: the cooldown and request counts shared by every
/// process and client of the same app on the device, kept across restarts.
///
/// Writes are transactions in WAL mode, so a process killed mid-write leaves the last complete
/// state; several processes may use the file at once (each waits up to five seconds for another's
/// write). The file holds no secret and no personal data: endpoints with IDs folded, statuses and
/// times. Apps open it through `RequestLedger(key:file:dailyBudget:)`.
package final class SQLiteRequestLedgerStore: RequestLedgerStore {
    private let database: DeferredDatabase
    private var pool: any DatabaseWriter {
        get throws { try database.writer() }
    }

    /// Opens (and creates or migrates) the ledger at `url`.
    /// - Throws: `SpotifyAPIError` with code `.ledgerUnavailable` when the file cannot be opened.
    package convenience init(url: URL, configuration: Configuration = Configuration()) throws {
        self.init(deferring: url, configuration: configuration, protection: .platform)
        _ = try database.writer()
    }

    /// A ledger whose file is opened (created and migrated) at its first use: making it touches no
    /// disk. The file is left out of backups: its counts and cooldowns are this device's, and a
    /// restore onto another device would count the wrong device's requests. `beforeOpening` runs
    /// before each attempt to open it.
    package init(
        deferring url: URL, configuration: Configuration?, protection: FileProtection,
        beforeOpening: @escaping @Sendable () -> Void = {}
    ) {
        var configuration = configuration ?? Configuration()
        if case .immediateError = configuration.busyMode { configuration.busyMode = .timeout(5) }
        // In WAL mode, NORMAL syncs at checkpoints, not at every commit: a crashed or killed
        // process loses nothing, and a power cut may lose the last counts, which only makes the
        // ledger count a few requests fewer. FULL (SQLite's default) syncs at each of a request's
        // two commits: with it a request's path took 0.68–0.71 ms at p50 and 1.2–2.0 ms at p99,
        // with NORMAL 0.62–0.64 and 1.0–1.1 (spotlink-bench's request-cost group, this machine).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        database = DeferredDatabase { [configuration] in
            beforeOpening()
            let pool: any DatabaseWriter
            do {
                pool = try PrivateFile.openDatabase(
                    url, configuration: configuration, protection: protection, excludedFromBackup: true)
            } catch {
                throw SpotifyAPIError.ledgerDatabase(error, doing: "The request ledger could not be opened", file: url)
            }
            try Self.migrate(pool, file: url)
            // SQLite made the WAL and shared-memory files just now: out of backups as well.
            for suffix in ["-wal", "-shm"] { protection.excludeFromBackup(URL(fileURLWithPath: url.path + suffix)) }
            return pool
        }
    }

    /// Keeps the ledger's tables (`cooldown`, `request`, `quotaRefusal`) in a database the app already owns,
    /// migrating them on `writer`, so the file keeps one connection pool. Give the writer a busy
    /// timeout: every process of the app writes the ledger.
    /// - Throws: `SpotifyAPIError` with code `.ledgerUnavailable` when the tables cannot be migrated.
    package init(writer: any DatabaseWriter) throws {
        try Self.migrate(writer, file: writer.path.hasPrefix("/") ? URL(fileURLWithPath: writer.path) : nil)
        database = DeferredDatabase(opened: writer)
    }

    private static func migrate(_ writer: any DatabaseWriter, file: URL?) throws {
        do {
            try migrator.migrateAlongsideOtherProcesses(writer, component: "request ledger")
        } catch {
            throw SpotifyAPIError.ledgerDatabase(
                error, doing: "The request ledger could not be brought up to date", file: file)
        }
    }

    package func cooldown(for key: SpotifyAppKey) async throws -> Cooldown? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT kind, until, learnedAt FROM cooldown WHERE issuer = ? AND clientID = ?",
                arguments: [key.issuer, key.clientID]
            ).map { row in
                Cooldown(
                    kind: Cooldown.Kind(rawValue: row["kind"]) ?? .quota,
                    until: Date(timeIntervalSince1970: row["until"]),
                    learnedAt: Date(timeIntervalSince1970: row["learnedAt"]))
            }
        }
    }

    package func extendCooldown(_ cooldown: Cooldown, for key: SpotifyAppKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO cooldown (issuer, clientID, kind, until, learnedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(issuer, clientID) DO UPDATE SET kind = excluded.kind, until = excluded.until,
                        learnedAt = excluded.learnedAt
                    WHERE excluded.until > cooldown.until
                    """,
                arguments: [
                    key.issuer, key.clientID, cooldown.kind.rawValue, cooldown.until.timeIntervalSince1970,
                    cooldown.learnedAt.timeIntervalSince1970,
                ])
        }
    }

    package func reserve(_ entry: LedgerEntry, for key: SpotifyAppKey, limit: Int?, windowStart: Date) async throws
        -> LedgerReservation
    {
        // IMMEDIATE: the write lock is taken before the count is read, so another process cannot
        // count between this one's read and its insert.
        try await pool.writeWithoutTransaction { db in
            var reservation = LedgerReservation.counted
            try db.inTransaction(.immediate) {
                try db.execute(
                    sql: "DELETE FROM request WHERE issuer = ? AND clientID = ? AND sentAt < ?",
                    arguments: [key.issuer, key.clientID, windowStart.timeIntervalSince1970])
                if let limit {
                    // Only the limit-th newest entry matters (one row through the index).
                    let sent = try Double.fetchAll(
                        db,
                        sql: """
                            SELECT sentAt FROM request WHERE issuer = ? AND clientID = ?
                            ORDER BY sentAt DESC LIMIT 1 OFFSET ?
                            """,
                        arguments: [key.issuer, key.clientID, max(limit - 1, 0)])
                    reservation = .judgingNewest(sent.map(Date.init(timeIntervalSince1970:)), limit: limit)
                }
                if reservation == .counted {
                    try db.execute(
                        sql: """
                            INSERT INTO request (id, issuer, clientID, sentAt, endpoint, status, background)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            entry.id.uuidString, key.issuer, key.clientID, entry.sentAt.timeIntervalSince1970,
                            entry.route, entry.status, entry.background,
                        ])
                }
                return .commit
            }
            return reservation
        }
    }

    package func settle(_ id: UUID, status: Int, for key: SpotifyAppKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE request SET status = ? WHERE id = ? AND issuer = ? AND clientID = ?",
                arguments: [status, id.uuidString, key.issuer, key.clientID])
        }
    }

    package func entries(for key: SpotifyAppKey, since date: Date) async throws -> [LedgerEntry] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, sentAt, endpoint, status, background FROM request
                    WHERE issuer = ? AND clientID = ? AND sentAt >= ? ORDER BY sentAt
                    """,
                arguments: [key.issuer, key.clientID, date.timeIntervalSince1970]
            ).map { row in
                LedgerEntry(
                    sentAt: Date(timeIntervalSince1970: row["sentAt"]), route: row["endpoint"],
                    status: row["status"], background: row["background"],
                    id: (row["id"] as String?).flatMap(UUID.init(uuidString:)) ?? UUID())
            }
        }
    }

    package func recordQuotaRefusal(_ refusal: QuotaRefusal, for key: SpotifyAppKey) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM quotaRefusal WHERE issuer = ? AND clientID = ? AND at < ?",
                arguments: [
                    key.issuer, key.clientID, refusal.at.addingTimeInterval(-LearnedQuota.memory).timeIntervalSince1970,
                ])
            try db.execute(
                sql: "INSERT INTO quotaRefusal (issuer, clientID, at, windowCount, retryAfter) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    key.issuer, key.clientID, refusal.at.timeIntervalSince1970, refusal.windowCount,
                    refusal.retryAfter?.seconds,
                ])
        }
    }

    package func quotaRefusals(for key: SpotifyAppKey, since date: Date) async throws -> [QuotaRefusal] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT at, windowCount, retryAfter FROM quotaRefusal
                    WHERE issuer = ? AND clientID = ? AND at >= ? ORDER BY at
                    """,
                arguments: [key.issuer, key.clientID, date.timeIntervalSince1970]
            ).map { row in
                QuotaRefusal(
                    at: Date(timeIntervalSince1970: row["at"]), windowCount: row["windowCount"],
                    retryAfter: (row["retryAfter"] as Double?).map { .milliseconds(Int64(($0 * 1000).rounded())) })
            }
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 cooldown and requests") { db in
            try db.create(table: "cooldown") { t in
                t.column("issuer", .text).notNull()
                t.column("clientID", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("until", .double).notNull()
                t.column("learnedAt", .double).notNull()
                t.primaryKey(["issuer", "clientID"])
            }
            try db.create(table: "request") { t in
                t.column("issuer", .text).notNull()
                t.column("clientID", .text).notNull()
                t.column("sentAt", .double).notNull()
                t.column("endpoint", .text).notNull()
                t.column("status", .integer)
                t.column("background", .boolean).notNull()
            }
            try db.create(index: "request_by_app_and_time", on: "request", columns: ["issuer", "clientID", "sentAt"])
        }
        migrator.registerMigration("v2 request IDs") { db in
            // Requests are counted before they leave and their status filled in after; the ID
            // finds the row. Rows of v1 keep no ID: they are complete.
            try db.alter(table: "request") { t in t.add(column: "id", .text) }
            try db.create(index: "request_by_id", on: "request", columns: ["id"])
        }
        migrator.registerMigration("v3 quota refusals") { db in
            // Each QUOTA_EXCEEDED with the window's count and its Retry-After: what the ledger
            // learns the developer's quota from. Kept 30 days.
            try db.create(table: "quotaRefusal") { t in
                t.column("issuer", .text).notNull()
                t.column("clientID", .text).notNull()
                t.column("at", .double).notNull()
                t.column("windowCount", .integer).notNull()
                t.column("retryAfter", .double)
            }
            try db.create(
                index: "quotaRefusal_by_app_and_time", on: "quotaRefusal", columns: ["issuer", "clientID", "at"])
        }
        return migrator
    }
}

extension RequestLedger {
    /// A ledger in a SQLite file, shared by every process and client of the app on the device and
    /// kept across launches: a cooldown one learns stops the others. Keep it next to the app's data,
    /// one per device. Writes are transactions in WAL mode; each process waits up to five seconds
    /// for another's write.
    ///
    /// ```swift
    /// let ledger = try RequestLedger(key: key, file: appSupport.appendingPathComponent("spotify-requests.sqlite"))
    /// ```
    /// - Parameters:
    ///   - key: the app whose requests are counted.
    ///   - file: the SQLite file, created when missing. A quota cooldown is also kept in a small file
    ///     beside it (`spotify-requests-cooldown.json` for `spotify-requests.sqlite`), which a
    ///     damaged or moved ledger file does not take with it.
    ///   - configuration: the app's GRDB configuration, for example with
    ///     `observesSuspensionNotifications` for a file in an App Group container; unless it has its
    ///     own, each process waits up to five seconds for another's write.
    ///   - dailyBudget: the requests a day background work may send; `nil` for no budget.
    /// - Throws: `SpotifyAPIError` with code `.ledgerUnavailable` when the file cannot be opened.
    public init(
        key: SpotifyAppKey, file: URL, configuration: Configuration = Configuration(), dailyBudget: Int? = nil
    ) throws(SpotifyAPIError) {
        do {
            self.init(
                key: key, store: try SQLiteRequestLedgerStore(url: file, configuration: configuration),
                dailyBudget: dailyBudget, mirror: CooldownMirror(besideLedger: file))
        } catch {
            throw .ledgerUnavailable(error)
        }
    }

    /// A ledger whose tables (`cooldown`, `request`) live in a database the app already owns,
    /// migrated on `writer`, so the file keeps one connection pool. Give the writer a busy timeout:
    /// every process of the app writes the ledger.
    /// - Throws: `SpotifyAPIError` with code `.ledgerUnavailable` when the tables cannot be migrated.
    public init(key: SpotifyAppKey, writer: any DatabaseWriter, dailyBudget: Int? = nil) throws(SpotifyAPIError) {
        do {
            // A file's ledger keeps its quota cooldown beside it too; an in-memory one in this process.
            let mirror =
                writer.path.hasPrefix("/") ? CooldownMirror(besideLedger: URL(fileURLWithPath: writer.path)) : nil
            self.init(
                key: key, store: try SQLiteRequestLedgerStore(writer: writer), dailyBudget: dailyBudget,
                mirror: mirror ?? CooldownMirror(file: nil))
        } catch {
            throw .ledgerUnavailable(error)
        }
    }
}
