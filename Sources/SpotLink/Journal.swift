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
        // Cached: an import inserts each session of a backup with this one statement.
        try db.cachedStatement(sql: "INSERT INTO session (title, minutes, createdAt, uid) VALUES (?, ?, ?, ?)")
            .execute(arguments: [title, minutes, createdAt.timeIntervalSince1970, uid])
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

    /// What `spotlink export` writes (the sessions and the links, as one JSON document laid out as
    /// the export encoder lays it out), given to `append` a megabyte at a time as it is made: each
    /// link, playlist and session is encoded on its own, so the document is never whole in memory
    /// (a journal of 100,000 sessions took 1.2 GB as dictionaries of `Any`, and 359 MiB encoded at
    /// once).
    func exportBackup(to append: (Data) throws -> Void) async throws {
        let document = try await links.exportDocument()
        let entries = try all()
        let encoder = LinkedPlaylists.exportEncoder
        encoder.outputFormatting.insert(.withoutEscapingSlashes)
        var buffer = Data()
        func emit(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 20 {
                try append(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        func encoded(_ value: some Encodable, indent: String) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self).replacingOccurrences(
                of: "\n", with: "\n" + indent)
        }
        func emitArray<Element>(_ items: [Element], indent: String, _ value: (Element) -> some Encodable) throws {
            guard !items.isEmpty else { return try emit("[]") }
            try emit("[\n")
            for (index, item) in items.enumerated() {
                try emit(indent + "  " + (try encoded(value(item), indent: indent + "  ")))
                try emit(index < items.count - 1 ? ",\n" : "\n")
            }
            try emit(indent + "]")
        }
        let dates = ISO8601DateFormatter()
        try emit("{\n  \"format\" : \(try encoded(Self.backupFormat, indent: ""))")
        try emit(",\n  \"links\" : {\n    \"format\" : \(try encoded(document.format, indent: ""))")
        try emit(",\n    \"links\" : ")
        try emitArray(document.links, indent: "    ") { $0 }
        try emit(",\n    \"playlists\" : ")
        try emitArray(document.playlists, indent: "    ") { $0 }
        try emit(",\n    \"version\" : \(document.version)\n  },\n  \"sessions\" : ")
        try emitArray(entries, indent: "  ") {
            BackupFile.Session(
                number: $0.id, uid: $0.uid, title: $0.title, minutes: $0.minutes.map { .number(Double($0)) },
                createdAt: dates.string(from: $0.createdAt))
        }
        try emit(",\n  \"version\" : 1\n}")
        try append(buffer)
    }

    /// Restores a backup: each session is matched by its identity, or created with a number of this
    /// folder's, and the links follow their sessions to those numbers. A links-only export (of an
    /// earlier version, or of the library) gets a session per linked number, named so. Everything
    /// is read and checked first, then the sessions and the links go in one transaction.
    /// - Returns: the links' report, and how many sessions were created.
    func importBackup(_ data: Data, replacingNewer: Bool) async throws -> (RestoreReport, sessions: Int) {
        var sessions: [(number: Int64, uid: String, title: String, minutes: Int?, createdAt: Date)] = []
        let decoded: (links: [PlaylistLink], metadata: [PlaylistMetadata])
        let decoder = LinkedPlaylists.exportDecoder
        // The format and version are read once: each decode parses the whole file.
        let probe = try? decoder.decode(BackupFile.Probe.self, from: data)
        if probe?.format == Self.backupFormat {
            let backup = try Self.decodeBackup(data, version: probe?.version, decoder)
            let dates = ISO8601DateFormatter()
            for session in backup.sessions {
                let createdAt = session.createdAt.flatMap(dates.date(from:)) ?? Date()
                sessions.append(
                    (
                        session.number, session.uid, session.title,
                        try Self.minutes(session.minutes, of: session.number),
                        createdAt
                    ))
            }
            decoded = try links.decodedExport(backup.links)
        } else {
            decoded = try links.decodedExport(data)
        }
        // Numbers the links name that no session of the backup has: a links-only export.
        let linked = Set(
            decoded.links.compactMap { $0.record.namespace == "session" ? Int64($0.record.id) : nil })
        // Placeholders of one file are the same sessions when it is imported again.
        let fingerprint = String(
            data.reduce(14_695_981_039_346_656_037 as UInt64) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 36)
        for number in linked.subtracting(sessions.map(\.number)).sorted() {
            sessions.append((number, "imported-\(fingerprint)-\(number)", "Imported session \(number)", nil, Date()))
        }
        // The links were read and checked before anything is written; the sessions and the links
        // go in one transaction: a file the store refuses, a full disk or a kill leaves the
        // journal as it was, never sessions without their links.
        let (restoredLinks, metadata) = decoded
        let restored = sessions
        let (report, created) = try await database.write { db in
            var renumbered: [Int64: Int64] = [:]
            var created = 0
            let lookup = try db.cachedStatement(sql: "SELECT id FROM session WHERE uid = ?")
            for session in restored {
                if let number = try Int64.fetchOne(lookup, arguments: [session.uid]) {
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

    /// A backup of this format, decoded; what does not decode is named as the file's fault.
    private static func decodeBackup(_ data: Data, version: Int?, _ decoder: JSONDecoder) throws -> BackupFile {
        guard version == 1 else {
            throw CLIFailure(Self.newerBackup, exitCode: 1)
        }
        do {
            return try decoder.decode(BackupFile.self, from: data)
        } catch let error as DecodingError {
            let path: [any CodingKey]
            switch error {
            case .keyNotFound(let key, let context): path = context.codingPath + [key]
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath
            @unknown default: path = []
            }
            switch path.first?.stringValue {
            case "sessions":
                throw CLIFailure(
                    "A session in this backup has no number, identity or title: it was changed by hand.", exitCode: 1)
            case "links" where path.count == 1:
                throw CLIFailure(Self.newerBackup, exitCode: 1)
            default:
                throw PlaylistLinksError(
                    code: .invalidImport, message: LinkedPlaylists.whyNotAnExport(error, data), underlying: error)
            }
        }
    }

    private static let newerBackup =
        "This backup was written by a newer spotlink (or changed by hand): update spotlink to read it."

    /// A backup session's planned minutes: absent or `null`, or a whole number within what
    /// `session new --minutes` takes; anything else (a fraction, a huge or negative number, text)
    /// refuses the import before anything is written.
    private static func minutes(_ value: BackupFile.Scalar?, of number: Int64) throws -> Int? {
        guard let value else { return nil }
        let longest = SessionCommand.New.longest
        if case .number(let number) = value, let whole = Int(exactly: number), (1...longest).contains(whole) {
            return whole
        }
        throw CLIFailure(
            "Session \(number) in this backup plans \(value) minutes, not a whole number from 1 to \(longest): "
                + "the file was changed by hand. Correct or remove that value and import again; nothing was imported.",
            exitCode: 1)
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

/// `spotlink export`'s file, as values, decoded in one pass with the links in place (an export
/// writes its sessions one by one, ``Journal/exportBackup(to:)``).
private struct BackupFile: Decodable {
    /// The format and version alone, read first to tell a backup from a links-only export.
    struct Probe: Decodable {
        var format: String?
        var version: Int?
    }

    /// A JSON value where a number is expected, kept as found so that a refusal can quote it.
    enum Scalar: Codable, CustomStringConvertible {
        case number(Double), text(String), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .other
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            case .other: try container.encodeNil()
            }
        }

        var description: String {
            switch self {
            case .number(let number): number.rounded() == number && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
            case .text(let text): "\"\(text.prefix(40))\""
            case .other: "a value that is not a number"
            }
        }
    }

    struct Session: Codable {
        var number: Int64
        var uid: String
        var title: String
        var minutes: Scalar?
        var createdAt: String?

        enum CodingKeys: String, CodingKey {
            case number, uid, title, minutes
            case createdAt = "created_at"
        }

        init(number: Int64, uid: String, title: String, minutes: Scalar?, createdAt: String?) {
            self.number = number
            self.uid = uid
            self.title = title
            self.minutes = minutes
            self.createdAt = createdAt
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number = try container.decode(Int64.self, forKey: .number)
            uid = try container.decode(String.self, forKey: .uid)
            title = try container.decode(String.self, forKey: .title)
            // `null` and absent are both "no planned length".
            minutes =
                try !container.contains(.minutes) || container.decodeNil(forKey: .minutes)
                ? nil : container.decode(Scalar.self, forKey: .minutes)
            createdAt = try? container.decodeIfPresent(String.self, forKey: .createdAt)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(uid, forKey: .uid)
            try container.encode(title, forKey: .title)
            try container.encode(minutes, forKey: .minutes)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    var format: String
    var version: Int
    var sessions: [Session]
    var links: LinksExport
}
