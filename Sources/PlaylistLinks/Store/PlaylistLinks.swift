public import Foundation
public import GRDB
public import SpotifyWebAPI

/// Links between the host app's records and Spotify playlists, with cached metadata and covers,
/// readable offline.
///
/// Linking works at once and offline: the link is saved with whatever is known and a
/// ``MetadataRefresher`` fills in the rest later. Reads come from SQLite alone. Nothing here
/// stores a token or any other secret.
public final class PlaylistLinks: Sendable {
    /// Where the database lives.
    public enum Location: Sendable {
        case file(URL)
        case inMemory
    }

    let writer: any DatabaseWriter
    let clock: any SpotifyClock
    /// The most bytes of cover art kept; least recently used covers go first.
    public let coverCacheLimit: Int

    /// Opens (and migrates) the database.
    /// - Throws: ``PlaylistLinksError`` with code `.database`.
    /// - Parameter hostMigrations: the host app's own tables in the same database, as named
    ///   migrations applied after this module's.
    public init(
        location: Location, clock: any SpotifyClock = SystemClock(), coverCacheLimit: Int = 20 * 1024 * 1024,
        hostMigrations: [(String, @Sendable (Database) throws -> Void)] = []
    ) throws {
        self.clock = clock
        self.coverCacheLimit = coverCacheLimit
        do {
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            switch location {
            case .inMemory:
                writer = try DatabaseQueue(configuration: configuration)
            case .file(let url):
                try PrivateFile.prepare(url)
                writer = try DatabasePool(path: url.path, configuration: configuration)
            }
            var migrator = Schema.migrator
            for (name, migration) in hostMigrations { migrator.registerMigration("host: " + name, migrate: migration) }
            try migrator.migrate(writer)
        } catch {
            throw PlaylistLinksError(code: .database, message: "The playlist database could not be opened: \(error)", underlying: error)
        }
    }

    /// The migrations applied, in order (for diagnostics).
    public func appliedMigrations() throws -> [String] {
        try perform { db in try Schema.migrator.appliedMigrations(db) }
    }

    // MARK: - Linking

    /// Links `record` to a playlist chosen in the picker, keeping what the picker knew.
    public func link(_ record: RecordID, to playlist: SimplifiedPlaylist) throws {
        var metadata = (try? metadata(for: playlist.id)) ?? PlaylistMetadata(id: playlist.id)
        metadata.update(from: playlist)
        metadata.trackCount = playlist.itemCount ?? metadata.trackCount
        try link(record, metadata: metadata, replacingKnown: true)
    }

    /// Links `record` to a playlist known only by its ID (a pasted link or URI).
    public func link(_ record: RecordID, to id: SpotifyID) throws {
        try link(record, metadata: PlaylistMetadata(id: id), replacingKnown: false)
    }

    private func link(_ record: RecordID, metadata: PlaylistMetadata, replacingKnown: Bool) throws {
        guard !record.namespace.isEmpty, !record.id.isEmpty else {
            throw PlaylistLinksError(code: .invalidArgument, message: "A record needs a namespace and an ID, as session/42.")
        }
        let now = clock.now.timeIntervalSince1970
        try perform { db in
            if replacingKnown {
                try Self.upsert(metadata, db)
            } else {
                try db.execute(sql: "INSERT OR IGNORE INTO playlist (id, availability) VALUES (?, 'unknown')", arguments: [metadata.id.rawValue])
            }
            try db.execute(
                sql: """
                    INSERT INTO link (namespace, recordID, playlistID, linkedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT(namespace, recordID) DO UPDATE SET playlistID = excluded.playlistID, linkedAt = excluded.linkedAt
                    """,
                arguments: [record.namespace, record.id, metadata.id.rawValue, now])
        }
    }

    /// Removes the link of `record`; the cached playlist stays for other records and the picker.
    /// - Returns: whether there was a link.
    @discardableResult
    public func unlink(_ record: RecordID) throws -> Bool {
        try perform { db in
            try db.execute(sql: "DELETE FROM link WHERE namespace = ? AND recordID = ?", arguments: [record.namespace, record.id])
            return db.changesCount > 0
        }
    }

    /// The playlist linked to `record`, if any.
    public func linkedPlaylist(_ record: RecordID) throws -> SpotifyID? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT playlistID FROM link WHERE namespace = ? AND recordID = ?", arguments: [record.namespace, record.id])
                .map(SpotifyID.init(unchecked:))
        }
    }

    /// Every link, by record.
    public func allLinks() throws -> [(record: RecordID, playlist: SpotifyID, linkedAt: Date)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT namespace, recordID, playlistID, linkedAt FROM link ORDER BY linkedAt").map { row in
                (RecordID(namespace: row["namespace"], id: row["recordID"]), SpotifyID(unchecked: row["playlistID"]),
                 Date(timeIntervalSince1970: row["linkedAt"]))
            }
        }
    }

    // MARK: - Offline reads

    /// The card of `record`: everything a screen shows, from SQLite alone, never the network.
    public func card(for record: RecordID) throws -> PlaylistCard? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT link.linkedAt, playlist.*, cover.bytes AS coverBytes FROM link
                        JOIN playlist ON playlist.id = link.playlistID
                        LEFT JOIN cover ON cover.playlistID = link.playlistID
                        WHERE link.namespace = ? AND link.recordID = ?
                        """,
                    arguments: [record.namespace, record.id])
            else { return nil }
            return PlaylistCard(
                record: record, metadata: Self.metadata(row), linkedAt: Date(timeIntervalSince1970: row["linkedAt"]),
                cover: row["coverBytes"])
        }
    }

    /// The cached metadata of one playlist.
    public func metadata(for id: SpotifyID) throws -> PlaylistMetadata? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM playlist WHERE id = ?", arguments: [id.rawValue]).map(Self.metadata)
        }
    }

    /// Stores fetched metadata (used by the refresher).
    public func store(_ metadata: PlaylistMetadata) throws {
        try perform { db in try Self.upsert(metadata, db) }
    }

    static func upsert(_ metadata: PlaylistMetadata, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO playlist (id, name, description, ownerName, trackCount, durationMs, unavailableCount,
                                      snapshotID, fetchedAt, availability, coverURL)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
                    ownerName = excluded.ownerName, trackCount = excluded.trackCount, durationMs = excluded.durationMs,
                    unavailableCount = excluded.unavailableCount, snapshotID = excluded.snapshotID,
                    fetchedAt = excluded.fetchedAt, availability = excluded.availability, coverURL = excluded.coverURL
                """,
            arguments: [
                metadata.id.rawValue, metadata.name, metadata.description, metadata.ownerName, metadata.trackCount,
                metadata.totalDuration.map { Int64(($0.seconds * 1000).rounded()) }, metadata.unavailableCount,
                metadata.snapshotID, metadata.fetchedAt?.timeIntervalSince1970, metadata.availability.rawValue,
                metadata.coverURL?.absoluteString,
            ])
    }

    static func metadata(_ row: Row) -> PlaylistMetadata {
        var metadata = PlaylistMetadata(
            id: SpotifyID(unchecked: row["id"]), availability: Availability(rawValue: row["availability"]) ?? .unknown)
        metadata.name = row["name"]
        metadata.description = row["description"]
        metadata.ownerName = row["ownerName"]
        metadata.trackCount = row["trackCount"]
        metadata.totalDuration = (row["durationMs"] as Int64?).map { .milliseconds($0) }
        metadata.unavailableCount = row["unavailableCount"]
        metadata.snapshotID = row["snapshotID"]
        metadata.fetchedAt = (row["fetchedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        metadata.coverURL = (row["coverURL"] as String?).flatMap(URL.init(string:))
        return metadata
    }

    // MARK: - Plumbing

    /// Runs `body` in a write transaction, for the host app's own tables.
    public func write<T>(_ body: (Database) throws -> T) throws -> T { try perform(body) }

    /// Runs `body` with read access, for the host app's own tables.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.read(body) } catch let error as PlaylistLinksError { throw error } catch {
            throw PlaylistLinksError(code: .database, message: "The playlist database could not be read: \(error)", underlying: error)
        }
    }

    func perform<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.write(body) } catch let error as PlaylistLinksError { throw error } catch {
            throw PlaylistLinksError(code: .database, message: "The playlist database could not be written: \(error)", underlying: error)
        }
    }
}
