import Foundation
import GRDB
import PlaylistLinks
import PlaylistLinksSQLite

/// The CLI's own records: a small session journal, kept in the links' SQLite file through the
/// store's one writer with migrations of its own, as any app keeps its tables beside the store's.
struct Journal {
    struct Entry: Equatable {
        var id: Int64
        var title: String
        var minutes: Int?
        var createdAt: Date
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
        return migrator
    }

    let links: SQLitePlaylistLinkStore
    private let database: any DatabaseWriter

    /// Opens the journal in the file `links` keeps its tables in, through the same writer.
    init(links: SQLitePlaylistLinkStore) throws {
        self.links = links
        database = try links.writer
        do {
            try Self.migrator.migrateAlongsideOtherProcesses(database)
        } catch {
            throw CLIFailure("The session journal could not be opened: \(error)", exitCode: 1)
        }
    }

    /// The context, the links and one session: what every per-session command starts with.
    static func open(_ options: GlobalOptions, session id: String, requireClientID: Bool = false) throws
        -> (Context, SQLitePlaylistLinkStore, Entry)
    {
        let context = try Context(options, requireClientID: requireClientID)
        let journal = try context.journal()
        return (context, journal.links, try journal.find(id))
    }

    func create(title: String, minutes: Int?, at date: Date) throws -> Entry {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO session (title, minutes, createdAt) VALUES (?, ?, ?)",
                arguments: [title, minutes, date.timeIntervalSince1970])
            return Entry(id: db.lastInsertedRowID, title: title, minutes: minutes, createdAt: date)
        }
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
            try links.removeLink(for: entry.record, in: db)
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [entry.id])
        }
    }

    private static func entry(_ row: Row) -> Entry {
        Entry(
            id: row["id"], title: row["title"], minutes: row["minutes"],
            createdAt: Date(timeIntervalSince1970: row["createdAt"]))
    }
}
