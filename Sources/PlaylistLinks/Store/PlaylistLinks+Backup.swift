public import Foundation
import GRDB
import SpotifyWebAPI

extension PlaylistLinks {
    private struct Backup: Codable {
        struct Link: Codable {
            var record: RecordID
            var playlist: String
            var linkedAt: Date
        }
        var format = "spotifylink-links"
        var version = 1
        var links: [Link]
        var playlists: [PlaylistMetadata]
    }

    /// All links and cached metadata as JSON, for a backup. Covers are left out (they can be
    /// fetched again); no token or secret is in the database, so none is in the export.
    public func exportJSON() throws -> Data {
        let links = try allLinks().map { Backup.Link(record: $0.record, playlist: $0.playlist.rawValue, linkedAt: $0.linkedAt) }
        let playlists = try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM playlist ORDER BY id").map(Self.metadata)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(Backup(links: links, playlists: playlists))
    }

    /// Restores an export. Existing links of the same records are replaced; others are kept.
    /// - Returns: the number of links imported.
    @discardableResult
    public func importJSON(_ data: Data) throws -> Int {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let backup: Backup
        do {
            backup = try decoder.decode(Backup.self, from: data)
        } catch {
            throw PlaylistLinksError(code: .invalidImport, message: "The file is not a SpotifyLink export: \(error)", underlying: error)
        }
        guard backup.format == "spotifylink-links", backup.version == 1 else {
            throw PlaylistLinksError(code: .invalidImport, message: "The export has format \(backup.format) version \(backup.version), which this version cannot read.")
        }
        guard backup.links.allSatisfy({ SpotifyID.isValid($0.playlist) }) else {
            throw PlaylistLinksError(code: .invalidImport, message: "The export names a playlist ID that is not 22 letters and digits.")
        }
        return try perform { db in
            for playlist in backup.playlists { try Self.upsert(playlist, db) }
            for link in backup.links {
                try db.execute(sql: "INSERT OR IGNORE INTO playlist (id, availability) VALUES (?, 'unknown')", arguments: [link.playlist])
                try db.execute(
                    sql: "INSERT OR REPLACE INTO link (namespace, recordID, playlistID, linkedAt) VALUES (?, ?, ?, ?)",
                    arguments: [link.record.namespace, link.record.id, link.playlist, link.linkedAt.timeIntervalSince1970])
            }
            return backup.links.count
        }
    }

    /// Runs SQLite's integrity check; `["ok"]` when the database is sound.
    public func integrityCheck() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }
}
