public import Foundation
import GRDB
import PlaylistLinks
public import SpotifyWebAPI

extension SQLitePlaylistLinkStore {
    /// Stores a cover and evicts the covers stored longest ago beyond `coverCacheLimit`, never
    /// the one just stored.
    public func saveCover(_ bytes: Data, for id: SpotifyID) throws {
        let now = clock.now.timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO cover (playlistID, bytes, size, lastUsedAt) VALUES (?, ?, ?, ?)",
                arguments: [id.rawValue, bytes, bytes.count, now])
            var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM cover") ?? 0
            guard total > coverCacheLimit else { return }
            let rows = try Row.fetchAll(db, sql: "SELECT playlistID, size FROM cover ORDER BY lastUsedAt, playlistID")
            for row in rows where total > coverCacheLimit {
                let playlistID: String = row["playlistID"]
                if playlistID == id.rawValue { continue }
                try db.execute(sql: "DELETE FROM cover WHERE playlistID = ?", arguments: [playlistID])
                total -= row["size"] as Int
            }
        }
    }

    /// Bytes of all cached covers.
    package func coverCacheSize() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM cover") ?? 0 }
    }

    public func cover(for id: SpotifyID) throws -> Data? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM cover WHERE playlistID = ?", arguments: [id.rawValue])
        }
    }
}
