public import Foundation
import GRDB
public import SpotifyWebAPI

extension PlaylistLinks {
    /// Stores a cover and evicts the least recently used ones beyond ``coverCacheLimit``.
    public func storeCover(_ bytes: Data, for id: SpotifyID) throws {
        let now = clock.now.timeIntervalSince1970
        try perform { db in
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

    /// Marks a cover as just used, so eviction keeps it longer.
    public func touchCover(_ id: SpotifyID) throws {
        let now = clock.now.timeIntervalSince1970
        try perform { db in
            try db.execute(sql: "UPDATE cover SET lastUsedAt = ? WHERE playlistID = ?", arguments: [now, id.rawValue])
        }
    }

    /// Bytes of all cached covers.
    public func coverCacheSize() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM cover") ?? 0 }
    }

    /// The cached cover of a playlist.
    public func cover(for id: SpotifyID) throws -> Data? {
        try read { db in try Data.fetchOne(db, sql: "SELECT bytes FROM cover WHERE playlistID = ?", arguments: [id.rawValue]) }
    }
}
