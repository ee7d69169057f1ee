import Foundation
package import GRDB
@_spi(Storage) import PlaylistLinks

/// The database schema, one migration per version. Never edit a shipped migration: add one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 links and playlists") { db in
            try db.create(table: "playlist") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
                t.column("description", .text)
                t.column("ownerName", .text)
                t.column("trackCount", .integer)
                t.column("durationMs", .integer)
                t.column("unavailableCount", .integer)
                t.column("snapshotID", .text)
                t.column("fetchedAt", .double)
                t.column("availability", .text).notNull().defaults(to: "unknown")
                t.column("coverURL", .text)
            }
            try db.create(table: "link") { t in
                t.column("namespace", .text).notNull()
                t.column("recordID", .text).notNull()
                t.column("playlistID", .text).notNull().references("playlist", onDelete: .restrict)
                t.column("linkedAt", .double).notNull()
                t.primaryKey(["namespace", "recordID"])
            }
            try db.create(index: "link_playlist", on: "link", columns: ["playlistID"])
        }
        migrator.registerMigration("v2 cover cache") { db in
            try db.create(table: "cover") { t in
                t.primaryKey("playlistID", .text).references("playlist", onDelete: .cascade)
                t.column("bytes", .blob).notNull()
                t.column("size", .integer).notNull()
                t.column("lastUsedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v3 library cache") { db in
            try db.create(table: "libraryPlaylist") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("foldedName", .text).notNull()
                t.column("ownerName", .text)
                t.column("trackCount", .integer)
                t.column("position", .integer).notNull()
            }
            try db.create(index: "library_folded", on: "libraryPlaylist", columns: ["foldedName"])
        }
        // Filtering folds names in Swift (prefix, word and substring matches a LIKE cannot rank),
        // so the stored folded name and its index were written and never read.
        migrator.registerMigration("v4 library without folded names") { db in
            try db.drop(index: "library_folded")
            try db.alter(table: "libraryPlaylist") { t in t.drop(column: "foldedName") }
        }
        // The picker's copy keeps what a card needs at once when a playlist is picked offline.
        migrator.registerMigration("v5 library covers and snapshots") { db in
            try db.alter(table: "libraryPlaylist") { t in
                t.add(column: "coverURL", .text)
                t.add(column: "snapshotID", .text)
            }
        }
        // Temporary by design: when the details came from Spotify, and when they were dropped for
        // their age. Rows saved before keep their last fetch as their age, or start now.
        migrator.registerMigration("v6 detail ages") { db in
            try db.alter(table: "playlist") { t in
                t.add(column: "savedAt", .double)
                t.add(column: "droppedAt", .double)
            }
            try db.execute(
                sql: """
                    UPDATE playlist SET savedAt = COALESCE(fetchedAt, CAST(strftime('%s', 'now') AS REAL))
                    WHERE name IS NOT NULL OR ownerName IS NOT NULL OR trackCount IS NOT NULL OR durationMs IS NOT NULL
                        OR coverURL IS NOT NULL OR snapshotID IS NOT NULL OR description IS NOT NULL
                    """)
            // Every card read asks what is past its limit: answered from these, never a scan.
            try db.execute(sql: "CREATE INDEX playlist_detail_age ON playlist (COALESCE(savedAt, fetchedAt))")
            try db.create(index: "cover_last_shown", on: "cover", columns: ["lastUsedAt"])
        }
        // What the app can read of each playlist of the picker's copy (Development Mode shows the
        // songs of the user's own and collaborative playlists only). Rows listed before stay
        // unknown until the next listing.
        migrator.registerMigration("v7 library access") { db in
            try db.alter(table: "libraryPlaylist") { t in t.add(column: "access", .text) }
        }
        // The forget epoch: every forget increases it in its own transaction, and a write that read
        // an earlier one (a refresh's answer arriving after a disconnect, in this process or a
        // widget's) is refused. One row.
        migrator.registerMigration("v8 forget epoch") { db in
            try db.create(table: "forgetEpoch") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("epoch", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO forgetEpoch (id, epoch) VALUES (1, 0)")
        }
        // The entries Spotify marks explicit, counted with the duration from the same read. Rows
        // saved before stay unknown until their next refresh reads the entries.
        migrator.registerMigration("v9 explicit counts") { db in
            try db.alter(table: "playlist") { t in t.add(column: "explicitCount", .integer) }
        }
        return migrator
    }
}

extension DatabaseMigrator {
    /// Migrates `writer` while other processes of the app (a widget, a second CLI) may be opening
    /// the same new file: GRDB reads which migrations are applied before each migration's own
    /// transaction, so two processes can start the same migration and the later one fails ("table
    /// … already exists", "duplicate column name"). Each migration commits whole or not at all, so
    /// a failure is judged again from the file: done when another process completed them, retried
    /// while some remain (every retry follows another process's progress), and thrown when the
    /// attempts run out, as a file that cannot be migrated is.
    ///
    /// The file records how many of `component`'s migrations it has (`spotifylink_schema`), and a
    /// file a newer version migrated further is refused before anything is written: an older app
    /// or `spotlink` would otherwise write tables it does not understand.
    /// - Throws: ``PlaylistLinksError`` with code `.database` for a newer file.
    package func migrateAlongsideOtherProcesses(
        _ writer: any DatabaseWriter, component: String, attempts: Int = 16
    ) throws {
        // Nothing to do writes nothing: a read-only file that is up to date opens.
        if try refuseNewer(writer, component: component) == migrations.count,
            try writer.read({ db in try hasCompletedMigrations(db) })
        {
            return
        }
        for attempt in 1... {
            do {
                try migrate(writer)
                break
            } catch {
                if try writer.read({ db in try hasCompletedMigrations(db) }) { break }
                if attempt >= attempts { throw error }
            }
        }
        try writer.write { db in
            try db.execute(sql: Self.schemaTable)
            try db.execute(
                sql: """
                    INSERT INTO spotifylink_schema (component, migrations) VALUES (?, ?)
                    ON CONFLICT (component) DO UPDATE SET migrations = max(migrations, excluded.migrations)
                    """, arguments: [component, migrations.count])
        }
    }

    private static let schemaTable =
        "CREATE TABLE IF NOT EXISTS spotifylink_schema (component TEXT PRIMARY KEY, migrations INTEGER NOT NULL)"

    /// The number of migrations the file records for `component`, refused when it is more than this
    /// migrator has.
    @discardableResult
    private func refuseNewer(_ writer: any DatabaseWriter, component: String) throws -> Int? {
        let recorded = try writer.read { db -> Int? in
            guard try db.tableExists("spotifylink_schema") else { return nil }
            return try Int.fetchOne(
                db, sql: "SELECT migrations FROM spotifylink_schema WHERE component = ?", arguments: [component])
        }
        guard let recorded, recorded > migrations.count else { return recorded }
        throw PlaylistLinksError(
            code: .database,
            message: "This database was written by a newer version of SpotifyLink (its \(component) has \(recorded) "
                + "migrations; this version knows \(migrations.count)). Nothing was changed: update the app or "
                + "spotlink to use it.")
    }
}

extension DatabasePool {
    /// Opens the pool at `path` while other processes of the app may be creating the same new
    /// file: the first connection's switch to WAL answers `SQLITE_BUSY` at once (SQLite does not
    /// wait when waiting could deadlock), so an opener that meets another retries, a little later
    /// each time (at most about 8 s in all: a loaded device can keep the other opener busy for
    /// seconds), and then reports the error. It runs at the first disk use, never on the main
    /// actor.
    package static func openedAlongsideOtherProcesses(
        path: String, configuration: Configuration, attempts: Int = 40
    ) throws -> DatabasePool {
        var attempt = 1
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError
                where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && attempt < attempts
            {
                Thread.sleep(forTimeInterval: 0.01 * Double(attempt))
                attempt += 1
            }
        }
    }
}
