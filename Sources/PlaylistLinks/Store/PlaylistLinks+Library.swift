import Foundation
import GRDB
public import SpotifyWebAPI

extension PlaylistLinks {
    /// Replaces the cached list of the user's own playlists (for the picker).
    public func cacheLibrary(_ playlists: [SimplifiedPlaylist]) throws {
        try perform { db in
            try db.execute(sql: "DELETE FROM libraryPlaylist")
            for (position, playlist) in playlists.enumerated() {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO libraryPlaylist (id, name, foldedName, ownerName, trackCount, position) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        playlist.id.rawValue, playlist.name, Self.fold(playlist.name),
                        playlist.owner?.displayName ?? playlist.owner?.id, playlist.itemCount, position,
                    ])
            }
        }
    }

    /// The cached playlists whose name matches `text`, case- and diacritic-insensitively: names that
    /// start with it first, then names with a word that starts with it, then any other match.
    public func filterLibrary(_ text: String) throws -> [LibraryPlaylist] {
        let needle = Self.fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, foldedName, ownerName, trackCount, position FROM libraryPlaylist ORDER BY position")
        }
        let ranked = rows.compactMap { row -> (Int, Int, LibraryPlaylist)? in
            let folded: String = row["foldedName"]
            let rank: Int
            if needle.isEmpty || folded.hasPrefix(needle) {
                rank = 0
            } else if folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains(where: { $0.hasPrefix(needle) }) {
                rank = 1
            } else if folded.contains(needle) {
                rank = 2
            } else {
                return nil
            }
            let playlist = LibraryPlaylist(
                id: SpotifyID(unchecked: row["id"]), name: row["name"], ownerName: row["ownerName"], trackCount: row["trackCount"])
            return (rank, row["position"], playlist)
        }
        return ranked.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// Merges local matches with Spotify search results: local first, then search results whose
    /// ID is not already listed.
    public static func merge(local: [LibraryPlaylist], search: [SimplifiedPlaylist]) -> [LibraryPlaylist] {
        var seen = Set(local.map(\.id))
        var merged = local
        for playlist in search where seen.insert(playlist.id).inserted {
            merged.append(
                LibraryPlaylist(id: playlist.id, name: playlist.name, ownerName: playlist.owner?.displayName, trackCount: playlist.itemCount))
        }
        return merged
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
