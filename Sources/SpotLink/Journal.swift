import Foundation
import GRDB
import PlaylistLinks

/// The CLI's own records: a small session journal, in the same database as the links.
struct Journal {
    struct Entry: Equatable {
        var id: Int64
        var title: String
        var minutes: Int?
        var createdAt: Date
        var record: RecordID { RecordID(namespace: "session", id: String(id)) }
    }

    static let migrations: [(String, @Sendable (Database) throws -> Void)] = [
        ("v1 sessions", { db in
            try db.create(table: "session") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("minutes", .integer)
                t.column("createdAt", .double).notNull()
            }
        }),
    ]

    let links: PlaylistLinks

    /// The context, the database and one session: what every per-session command starts with.
    static func open(_ options: GlobalOptions, session id: String, requireClientID: Bool = false) throws
        -> (Context, PlaylistLinks, Entry)
    {
        let context = try Context(options, requireClientID: requireClientID)
        let links = try context.links()
        return (context, links, try Journal(links: links).find(id))
    }

    func create(title: String, minutes: Int?, at date: Date) throws -> Entry {
        try links.write { db in
            try db.execute(
                sql: "INSERT INTO session (title, minutes, createdAt) VALUES (?, ?, ?)",
                arguments: [title, minutes, date.timeIntervalSince1970])
            return Entry(id: db.lastInsertedRowID, title: title, minutes: minutes, createdAt: date)
        }
    }

    func all() throws -> [Entry] {
        try links.read { db in try Row.fetchAll(db, sql: "SELECT * FROM session ORDER BY id").map(Self.entry) }
    }

    func find(_ id: String) throws -> Entry {
        guard let number = Int64(id),
            let entry = try links.read({ db in try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [number]) })
                .map(Self.entry)
        else { throw CLIFailure("There is no session \(id). List them with 'spotlink session list'.", exitCode: 1) }
        return entry
    }

    func delete(_ entry: Entry) throws {
        try links.unlink(entry.record)
        try links.write { db in try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [entry.id]) }
    }

    private static func entry(_ row: Row) -> Entry {
        Entry(id: row["id"], title: row["title"], minutes: row["minutes"], createdAt: Date(timeIntervalSince1970: row["createdAt"]))
    }
}
