package import AppAttest
package import Foundation
package import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device key the service has seen attested, with the highest assertion counter it accepted.
package struct DeviceKey: Sendable, Equatable {
    package var key: AttestedKey
    package var appID: String
    package var counter: UInt32

    /// `key`, attested for `appID`, its assertions accepted up to `counter`.
    package init(key: AttestedKey, appID: String, counter: UInt32) {
        self.key = key
        self.appID = appID
        self.counter = counter
    }
}

/// What ``SearchServiceStore/accept(challenge:counter:device:limit:window:next:expiresAt:now:)`` decided.
package enum SearchServiceAcceptance: Sendable, Equatable {
    /// The challenge was not issued, was used, or has expired: nothing changed.
    case challengeUnknown
    /// The key's counter is already as high: the challenge is used up, nothing else changed.
    case replayed
    /// The request is the device's: the challenge is used, the counter moved, the next
    /// challenge kept; `deviceReopens` when the device's window is full (then not counted).
    case accepted(deviceReopens: Date?)
}

/// What the service keeps besides the request ledger: the challenges it issued (one use each,
/// five minutes), the attested device keys with their counters, and the request counts of the
/// per-device and per-address limits. Every instance sharing the store shares them; each change is
/// one transaction, so two requests racing with one challenge or one counter cannot both win.
///
/// Two stores keep it: ``SQLiteSearchServiceStore`` (instances on one machine, beside the ledger in
/// one file) and `PostgresSearchServiceStore` (instances on several machines; the `PostgreSQL`
/// trait). The same property tests hold both to the same rules.
///
/// Every bucket is counted in windows of one length (``SearchService``'s minute), aligned on the
/// epoch: a window that has ended is dropped by the next request counted, whoever it is from.
package protocol SearchServiceStore: Sendable {
    /// Keeps `value` as a challenge until `expiresAt`, and drops the challenges expired at `now`.
    func issueChallenge(_ value: String, expiresAt: Date, now: Date) async throws

    /// A signed request's whole bookkeeping in one transaction: uses up `challenge`, moves the
    /// key's counter up to `counter` (App Attest; `nil` in development), counts the request in the
    /// device's window, and keeps `next` as the device's next challenge. One write where four
    /// would each wait for the database.
    func accept(
        challenge: String, counter: (keyID: [UInt8], value: UInt32)?, device bucket: String, limit: Int,
        window: Duration, next: String, expiresAt: Date, now: Date
    ) async throws -> SearchServiceAcceptance

    /// Uses up the challenge `value`: `true` once if it was issued and has not expired at `now`.
    func consumeChallenge(_ value: String, now: Date) async throws -> Bool

    /// Keeps a newly attested key; `false` when a key with its ID is already kept (a key is
    /// attested once: a second attestation of the same ID is a replay).
    func saveKey(_ device: DeviceKey, at now: Date) async throws -> Bool

    /// The attested key with `keyID`, if the service has one.
    func key(_ keyID: [UInt8]) async throws -> DeviceKey?

    /// Moves the key's counter up to `counter`: `false` when the kept one is already as high (a
    /// replay, or another request with the same counter won).
    func advanceCounter(_ keyID: [UInt8], to counter: UInt32) async throws -> Bool

    /// Counts one request in `bucket`'s fixed window of `window` at `now`: `nil` when admitted,
    /// else when the window ends (the request is then not counted). Drops the windows ended at `now`.
    func admit(_ bucket: String, limit: Int, window: Duration, now: Date) async throws -> Date?

    /// ``admit(_:limit:window:now:)``, and the attested key with `keyID` (when one is named and
    /// the request is admitted): what a signed request needs before its signature is checked.
    /// Stores that can do both in one trip to the database do.
    func admit(_ bucket: String, limit: Int, window: Duration, now: Date, readingKey keyID: [UInt8]?)
        async throws -> SearchServiceAdmission

    /// How many windows are kept: the tests' view that ended ones are dropped.
    func keptWindows() async throws -> Int

    /// Whether the database answers: the readiness check.
    func isReadable() async -> Bool
}

/// What ``SearchServiceStore/admit(_:limit:window:now:readingKey:)`` found.
package struct SearchServiceAdmission: Sendable, Equatable {
    /// When the window reopens, if the request was over its limit (then not counted).
    package var reopens: Date?
    /// The key the request named, if the store holds it (read only when admitted).
    package var key: DeviceKey?

    package init(reopens: Date?, key: DeviceKey?) {
        self.reopens = reopens
        self.key = key
    }
}

extension SearchServiceStore {
    /// The two calls one after the other: for a store that has no single trip for both.
    package func admit(_ bucket: String, limit: Int, window: Duration, now: Date, readingKey keyID: [UInt8]?)
        async throws -> SearchServiceAdmission
    {
        if let reopens = try await admit(bucket, limit: limit, window: window, now: now) {
            return SearchServiceAdmission(reopens: reopens, key: nil)
        }
        guard let keyID else { return SearchServiceAdmission(reopens: nil, key: nil) }
        return SearchServiceAdmission(reopens: nil, key: try await key(keyID))
    }

    /// The start of the fixed window of `window` that holds `now`, and the window's length, in
    /// seconds since 1970: windows are aligned on the epoch, the same in every instance.
    static func windowStart(_ now: Date, _ window: Duration) -> (start: Double, length: Double) {
        let length = Double(window.components.seconds)
        return ((now.timeIntervalSince1970 / length).rounded(.down) * length, length)
    }
}

/// The service's state in SQLite, in the same file as its request ledger: for the instances of
/// one machine.
package final class SQLiteSearchServiceStore: SearchServiceStore {
    package let writer: any DatabaseWriter

    /// Opens (creating, readable by its owner alone, and migrating) the database at `url`.
    package convenience init(url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var info = stat()
        if lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw SearchServiceConfigurationError(
                setting: "SPOTLINK_SEARCH_DATABASE", message: "\(url.path) is a symbolic link; give the file itself")
        }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        try self.init(writer: DatabasePool(path: url.path, configuration: configuration))
    }

    /// The service's tables in `writer`'s database, migrated.
    package init(writer: any DatabaseWriter) throws {
        self.writer = writer
        var migrator = DatabaseMigrator()
        migrator.registerMigration("search-service-1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE searchChallenge (value TEXT PRIMARY KEY NOT NULL, expiresAt REAL NOT NULL) WITHOUT ROWID;
                    CREATE TABLE searchDeviceKey (
                        keyID BLOB PRIMARY KEY NOT NULL, publicKey BLOB NOT NULL, environment TEXT NOT NULL,
                        receipt BLOB NOT NULL, appID TEXT NOT NULL, counter INTEGER NOT NULL, attestedAt REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE searchRateWindow (
                        bucket TEXT PRIMARY KEY NOT NULL, windowStart REAL NOT NULL, count INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("search-service-2") { db in
            // Ended windows and expired challenges are dropped by every request: found by index.
            try db.execute(sql: "CREATE INDEX searchRateWindowStart ON searchRateWindow (windowStart)")
            try db.execute(sql: "CREATE INDEX searchChallengeExpiry ON searchChallenge (expiresAt)")
        }
        try migrator.migrate(writer)
    }

    /// Keeps `value` as a challenge until `expiresAt`, and drops the challenges expired at `now`.
    package func issueChallenge(_ value: String, expiresAt: Date, now: Date) async throws {
        try await writer.write { db in try Self.issue(value, expiresAt: expiresAt, now: now, db) }
    }

    private static func issue(_ value: String, expiresAt: Date, now: Date, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM searchChallenge WHERE expiresAt <= ?", arguments: [now.timeIntervalSince1970])
        try db.execute(
            sql: "INSERT INTO searchChallenge (value, expiresAt) VALUES (?, ?)",
            arguments: [value, expiresAt.timeIntervalSince1970])
    }

    /// A signed request's whole bookkeeping in one transaction: uses up `challenge`, moves the
    /// key's counter up to `counter` (App Attest; `nil` in development), counts the request in the
    /// device's window, and keeps `next` as the device's next challenge. One write where four
    /// would each wait for the file.
    package func accept(
        challenge: String, counter: (keyID: [UInt8], value: UInt32)?, device bucket: String, limit: Int,
        window: Duration, next: String, expiresAt: Date, now: Date
    ) async throws -> SearchServiceAcceptance {
        try await writer.write { db -> SearchServiceAcceptance in
            guard try Self.consume(challenge, now: now, db) else { return .challengeUnknown }
            if let counter {
                guard try Self.advance(counter.keyID, to: counter.value, db) else { return .replayed }
            }
            let reopens = try Self.admit(bucket, limit: limit, window: window, now: now, db)
            try Self.issue(next, expiresAt: expiresAt, now: now, db)
            return .accepted(deviceReopens: reopens)
        }
    }

    /// Uses up the challenge `value`: `true` once if it was issued and has not expired at `now`.
    package func consumeChallenge(_ value: String, now: Date) async throws -> Bool {
        try await writer.write { db in try Self.consume(value, now: now, db) }
    }

    private static func consume(_ value: String, now: Date, _ db: Database) throws -> Bool {
        try db.execute(
            sql: "DELETE FROM searchChallenge WHERE value = ? AND expiresAt > ?",
            arguments: [value, now.timeIntervalSince1970])
        return db.changesCount == 1
    }

    /// Keeps a newly attested key; `false` when a key with its ID is already kept (a key is
    /// attested once: a second attestation of the same ID is a replay).
    package func saveKey(_ device: DeviceKey, at now: Date) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO searchDeviceKey (keyID, publicKey, environment, receipt, appID, counter, attestedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (keyID) DO NOTHING
                    """,
                arguments: [
                    Data(device.key.keyID), Data(device.key.publicKey), device.key.environment.rawValue,
                    Data(device.key.receipt), device.appID, Int64(device.counter), now.timeIntervalSince1970,
                ])
            return db.changesCount == 1
        }
    }

    /// The attested key with `keyID`, if the service has one.
    package func key(_ keyID: [UInt8]) async throws -> DeviceKey? {
        try await writer.read { db in try Self.key(keyID, db) }
    }

    private static func key(_ keyID: [UInt8], _ db: Database) throws -> DeviceKey? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM searchDeviceKey WHERE keyID = ?", arguments: [Data(keyID)]),
            let environment = AppAttestEnvironment(rawValue: row["environment"])
        else { return nil }
        let publicKey: Data = row["publicKey"]
        let receipt: Data = row["receipt"]
        let counter: Int64 = row["counter"]
        return DeviceKey(
            key: AttestedKey(
                keyID: keyID, publicKey: Array(publicKey), environment: environment, receipt: Array(receipt)),
            appID: row["appID"], counter: UInt32(clamping: counter))
    }

    /// Moves the key's counter up to `counter`: `false` when the kept one is already as high (a
    /// replay, or another request with the same counter won).
    package func advanceCounter(_ keyID: [UInt8], to counter: UInt32) async throws -> Bool {
        try await writer.write { db in try Self.advance(keyID, to: counter, db) }
    }

    private static func advance(_ keyID: [UInt8], to counter: UInt32, _ db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE searchDeviceKey SET counter = ? WHERE keyID = ? AND counter < ?",
            arguments: [Int64(counter), Data(keyID), Int64(counter)])
        return db.changesCount == 1
    }

    /// Counts one request in `bucket`'s fixed window of `window` at `now`: `nil` when admitted,
    /// else when the window ends (the request is then not counted).
    package func admit(_ bucket: String, limit: Int, window: Duration, now: Date) async throws -> Date? {
        try await writer.write { db in try Self.admit(bucket, limit: limit, window: window, now: now, db) }
    }

    private static func admit(_ bucket: String, limit: Int, window: Duration, now: Date, _ db: Database) throws -> Date?
    {
        let (start, length) = windowStart(now, window)
        try db.execute(sql: "DELETE FROM searchRateWindow WHERE windowStart < ?", arguments: [start])
        let row = try Row.fetchOne(
            db, sql: "SELECT windowStart, count FROM searchRateWindow WHERE bucket = ?", arguments: [bucket])
        let (kept, count): (Double, Int) = row.map { ($0["windowStart"], $0["count"]) } ?? (start, 0)
        let current = kept == start ? count : 0
        guard current < limit else { return Date(timeIntervalSince1970: start + length) }
        try db.execute(
            sql: """
                INSERT INTO searchRateWindow (bucket, windowStart, count) VALUES (?, ?, ?)
                ON CONFLICT (bucket) DO UPDATE SET windowStart = excluded.windowStart, count = excluded.count
                """,
            arguments: [bucket, start, current + 1])
        return nil
    }

    /// One write transaction for both: the count, and the key read after it.
    package func admit(_ bucket: String, limit: Int, window: Duration, now: Date, readingKey keyID: [UInt8]?)
        async throws -> SearchServiceAdmission
    {
        try await writer.write { db in
            if let reopens = try Self.admit(bucket, limit: limit, window: window, now: now, db) {
                return SearchServiceAdmission(reopens: reopens, key: nil)
            }
            return SearchServiceAdmission(reopens: nil, key: try keyID.flatMap { try Self.key($0, db) })
        }
    }

    package func keptWindows() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM searchRateWindow") ?? 0 }
    }

    /// Whether the database answers: the readiness check.
    package func isReadable() async -> Bool {
        (try? await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}
