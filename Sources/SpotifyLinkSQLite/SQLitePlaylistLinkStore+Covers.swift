public import Foundation
import GRDB
@_spi(Storage) public import PlaylistLinks
public import SpotifyWebAPI

extension SQLitePlaylistLinkStore {
    /// Stores a cover, unless a forget came after `epoch`, and evicts the covers shown longest ago
    /// beyond `coverCacheLimit` (`CoverBudget`), never the one just stored.
    @discardableResult
    public func saveCover(_ bytes: Data, for id: SpotifyID, ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        let now = clock.now.timeIntervalSince1970
        return try await write { db in
            if let epoch, try Self.epoch(db) != epoch { return false }
            try Self.insertCover(bytes, for: id, at: now, db)
            let covers = try Row.fetchAll(db, sql: "SELECT playlistID, size FROM cover ORDER BY lastUsedAt, playlistID")
                .map { row in (id: SpotifyID(unchecked: row["playlistID"]), size: row["size"] as Int) }
            for evicted in CoverBudget.evictions(covers, limit: coverCacheLimit, keeping: id) {
                try db.execute(sql: "DELETE FROM cover WHERE playlistID = ?", arguments: [evicted.rawValue])
            }
            return true
        }
    }

    /// Links `record` to `metadata`'s playlist with `cover`, in one transaction on the calling
    /// thread: a preview seeds its in-memory store this way while it is made, synchronously.
    package func seedNow(_ record: RecordID, to metadata: PlaylistMetadata, cover: Data) throws {
        try record.check()
        let now = clock.now
        let writer = try database.writer()
        do {
            try writer.write { db in
                try PlaylistRow(metadata.stamped(now)).save(db)
                try Self.saveLink(record, to: metadata.id, at: now.timeIntervalSince1970, db)
                try Self.insertCover(cover, for: metadata.id, at: now.timeIntervalSince1970, db)
            }
        } catch {
            throw failure(error, writing: true)
        }
    }

    /// Stores `bytes` as the cover of `id`, last shown at `now` (seconds since 1970).
    private static func insertCover(_ bytes: Data, for id: SpotifyID, at now: Double, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO cover (playlistID, bytes, size, lastUsedAt) VALUES (?, ?, ?, ?)",
            arguments: [id.rawValue, bytes, bytes.count, now])
    }

    /// Bytes of all cached covers.
    package func coverCacheSize() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM cover") ?? 0 }
    }

    public func cover(for id: SpotifyID) async throws -> Data? {
        try await read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM cover WHERE playlistID = ?", arguments: [id.rawValue])
        }
    }
}
