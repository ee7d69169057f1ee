import Foundation
import GRDB
@_spi(Storage) public import PlaylistLinks
import SpotifyWebAPI

extension SQLitePlaylistLinkStore {
    @discardableResult
    public func replaceLibrary(_ playlists: [LibraryPlaylist], ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        try await write { db in
            if let epoch, try Self.epoch(db) != epoch { return false }
            try db.execute(sql: "DELETE FROM libraryPlaylist")
            for (position, playlist) in playlists.enumerated() {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO libraryPlaylist
                            (id, name, ownerName, trackCount, coverURL, snapshotID, access, position)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        playlist.id.rawValue, playlist.name, playlist.ownerName, playlist.trackCount,
                        playlist.coverURL?.absoluteString, playlist.snapshotID, playlist.access?.rawValue, position,
                    ])
            }
            return true
        }
    }

    public func library() async throws -> [LibraryPlaylist] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql:
                    """
                    SELECT id, name, ownerName, trackCount, coverURL, snapshotID, access FROM libraryPlaylist
                    ORDER BY position
                    """
            )
            .map { row in
                LibraryPlaylist(
                    id: SpotifyID(unchecked: row["id"]), name: row["name"], ownerName: row["ownerName"],
                    trackCount: row["trackCount"], coverURL: (row["coverURL"] as String?).flatMap(URL.init(string:)),
                    snapshotID: row["snapshotID"], access: (row["access"] as String?).flatMap(PlaylistAccess.init))
            }
        }
    }
}
