import Foundation
import GRDB
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyLinkSQLite

/// The CLI's own records: a small session journal, kept in the links' SQLite file through the
/// store's one writer with migrations of its own, as any app keeps its tables beside the store's.
struct Journal {
    struct Entry: Equatable {
        var id: Int64
        var title: String
        var minutes: Int?
        var createdAt: Date
        /// The session's identity in every folder and backup; the number `id` is this folder's.
        var uid: String
        var record: RecordID { RecordID(namespace: "session", id: String(id)) }
    }

    /// The journal's migrations. The identifier keeps the "host: " prefix under which the store
    /// once applied it, so databases written before the store and the journal parted open as they were.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("host: v1 sessions") { db in
            try db.create(table: "session", ifNotExists: true) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("minutes", .integer)
                t.column("createdAt", .double).notNull()
            }
        }
        // A session's identity across folders: a backup restored into a fresh folder gets new
        // numbers, and the same backup restored twice matches its sessions instead of doubling them.
        migrator.registerMigration("host: v2 session uid") { db in
            try db.alter(table: "session") { t in t.add(column: "uid", .text) }
            try db.execute(sql: "UPDATE session SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL")
            try db.create(index: "session_uid", on: "session", columns: ["uid"], unique: true)
        }
        return migrator
    }

    /// The store behind ``links``, whose file and writer the journal shares.
    let store: SQLitePlaylistLinkStore
    /// The links of the journal's sessions.
    var links: LinkedPlaylists { LinkedPlaylists(store) }
    private let database: any DatabaseWriter

    /// Opens the journal in the file `store` keeps its tables in, through the same writer.
    init(store: SQLitePlaylistLinkStore) throws {
        self.store = store
        database = try store.writer
        do {
            try Self.migrator.migrateAlongsideOtherProcesses(database, component: "spotlink journal")
        } catch {
            throw CLIFailure(
                PlaylistLinksError.database(error, doing: "The session journal could not be opened", file: nil))
        }
    }

    /// The context, the links and one session: what every per-session command starts with.
    static func open(_ options: GlobalOptions, session id: String, requireClientID: Bool = false) throws
        -> (Context, LinkedPlaylists, Entry)
    {
        let context = try Context(options, requireClientID: requireClientID)
        let journal = try context.journal()
        return (context, journal.links, try journal.find(id))
    }

    func create(title: String, minutes: Int?, at date: Date) throws -> Entry {
        try database.write { db in try Self.insert(title: title, minutes: minutes, createdAt: date, uid: nil, db) }
    }

    /// A new session row: its number is one this folder never gave (AUTOINCREMENT), so no link
    /// of an earlier session, imported or deleted, can be inherited.
    private static func insert(title: String, minutes: Int?, createdAt: Date, uid: String?, _ db: Database) throws
        -> Entry
    {
        let uid = uid ?? UUID().uuidString.lowercased()
        try db.execute(
            sql: "INSERT INTO session (title, minutes, createdAt, uid) VALUES (?, ?, ?, ?)",
            arguments: [title, minutes, createdAt.timeIntervalSince1970, uid])
        return Entry(id: db.lastInsertedRowID, title: title, minutes: minutes, createdAt: createdAt, uid: uid)
    }

    func all() throws -> [Entry] {
        try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM session ORDER BY id").map(Self.entry) }
    }

    func find(_ id: String) throws -> Entry {
        guard let number = Int64(id),
            let entry = try database.read({ db in
                try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [number])
            })
            .map(Self.entry)
        else { throw CLIFailure("There is no session \(id). List them with 'spotlink session list'.", exitCode: 1) }
        return entry
    }

    /// Deletes the session and its link, in one transaction.
    func delete(_ entry: Entry) throws {
        try database.write { db in
            try store.removeLink(for: entry.record, in: db)
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [entry.id])
        }
    }

    private static func entry(_ row: Row) -> Entry {
        Entry(
            id: row["id"], title: row["title"], minutes: row["minutes"],
            createdAt: Date(timeIntervalSince1970: row["createdAt"]), uid: row["uid"])
    }
}

// MARK: - Backups: the sessions and their links together

extension Journal {
    /// `spotlink export`'s file: `{"format": "spotlink-backup", "version": 1, "sessions": […],
    /// "links": …}`, each session with its identity (`uid`) and its number in the exporting folder,
    /// and under `links` the store's own export (`LinkedPlaylists.exportJSON()`), whose links name
    /// sessions by those numbers.
    static let backupFormat = "spotlink-backup"

    /// What `spotlink export` writes: the sessions and the links.
    func exportBackup() async throws -> Data {
        let dates = ISO8601DateFormatter()
        let sessions: [[String: Any]] = try all().map {
            [
                "number": $0.id, "uid": $0.uid, "title": $0.title, "minutes": $0.minutes as Any,
                "created_at": dates.string(from: $0.createdAt),
            ]
        }
        let links = try JSONSerialization.jsonObject(with: try await self.links.exportJSON())
        let backup: [String: Any] = ["format": Self.backupFormat, "version": 1, "sessions": sessions, "links": links]
        return try JSONSerialization.data(
            withJSONObject: backup, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// Restores a backup: each session is matched by its identity, or created with a number of this
    /// folder's, and the links follow their sessions to those numbers. A links-only export (of an
    /// earlier version, or of the library) gets a session per linked number, named so. Sessions come
    /// first: a crash between the two steps leaves sessions without their links (the same import run
    /// again adds them), never a link that a new session could inherit.
    /// - Returns: the links' report, and how many sessions were created.
    func importBackup(_ data: Data, replacingNewer: Bool) async throws -> (RestoreReport, sessions: Int) {
        let document = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        var sessions: [(number: Int64, uid: String, title: String, minutes: Int?, createdAt: Date)] = []
        var links = document ?? [:]
        if let document, document["format"] as? String == Self.backupFormat {
            guard document["version"] as? Int == 1, let inner = document["links"] as? [String: Any] else {
                throw CLIFailure(
                    "This backup was written by a newer spotlink (or changed by hand): update spotlink to read it.",
                    exitCode: 1)
            }
            let dates = ISO8601DateFormatter()
            for case let session as [String: Any] in document["sessions"] as? [Any] ?? [] {
                guard let number = (session["number"] as? NSNumber)?.int64Value, let uid = session["uid"] as? String,
                    let title = session["title"] as? String
                else {
                    throw CLIFailure(
                        "A session in this backup has no number, identity or title: it was changed by hand.",
                        exitCode: 1)
                }
                let createdAt = (session["created_at"] as? String).flatMap(dates.date(from:)) ?? Date()
                sessions.append((number, uid, title, try Self.minutes(session["minutes"], of: number), createdAt))
            }
            links = inner
        }
        // Numbers the links name that no session of the backup has: a links-only export.
        let linked = Self.sessionNumbers(in: links)
        // Placeholders of one file are the same sessions when it is imported again.
        let fingerprint = String(
            data.reduce(14_695_981_039_346_656_037 as UInt64) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 36)
        for number in linked.subtracting(sessions.map(\.number)).sorted() {
            sessions.append((number, "imported-\(fingerprint)-\(number)", "Imported session \(number)", nil, Date()))
        }
        // The links are read and checked before anything is written; then the sessions and the
        // links go in one transaction: a file the store refuses, a full disk or a kill leaves the
        // journal as it was, never sessions without their links.
        let (restoredLinks, metadata) = try self.links.decodedExport(
            document == nil ? data : try JSONSerialization.data(withJSONObject: links))
        let restored = sessions
        let (report, created) = try await database.write { db in
            var renumbered: [Int64: Int64] = [:]
            var created = 0
            for session in restored {
                if let number = try Int64.fetchOne(
                    db, sql: "SELECT id FROM session WHERE uid = ?", arguments: [session.uid])
                {
                    renumbered[session.number] = number
                } else {
                    let entry = try Self.insert(
                        title: session.title, minutes: session.minutes, createdAt: session.createdAt, uid: session.uid,
                        db)
                    renumbered[session.number] = entry.id
                    created += 1
                }
            }
            let report = try SQLitePlaylistLinkStore.restoreRows(
                db, links: restoredLinks.map { Self.renumbered($0, renumbered) }, metadata: metadata,
                replacingNewer: replacingNewer)
            return (report, created)
        }
        return (report, created)
    }

    /// A backup session's planned minutes: absent or `null`, or a whole number within what
    /// `session new --minutes` takes; anything else (a fraction, a huge or negative number, text)
    /// refuses the import before anything is written.
    private static func minutes(_ value: Any?, of number: Int64) throws -> Int? {
        guard let value, !(value is NSNull) else { return nil }
        let longest = SessionCommand.New.longest
        if let number = value as? NSNumber, let whole = Int(exactly: number.doubleValue), (1...longest).contains(whole)
        {
            return whole
        }
        throw CLIFailure(
            "Session \(number) in this backup plans \(value) minutes, not a whole number from 1 to \(longest): "
                + "the file was changed by hand. Correct or remove that value and import again; nothing was imported.",
            exitCode: 1)
    }

    /// The session numbers a links export names.
    private static func sessionNumbers(in links: [String: Any]) -> Set<Int64> {
        Set(
            (links["links"] as? [[String: Any]] ?? []).compactMap { link in
                guard let record = link["record"] as? [String: Any], record["namespace"] as? String == "session" else {
                    return nil
                }
                return (record["id"] as? String).flatMap(Int64.init)
            })
    }

    /// `link` with its session renumbered as this journal numbers it (other records as they are).
    private static func renumbered(_ link: PlaylistLink, _ numbers: [Int64: Int64]) -> PlaylistLink {
        guard link.record.namespace == "session", let old = Int64(link.record.id), let new = numbers[old] else {
            return link
        }
        var link = link
        link.record = RecordID(namespace: "session", id: String(new))
        return link
    }
}
