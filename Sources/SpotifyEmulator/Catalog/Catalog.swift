import Foundation

/// One playable thing in the emulator's catalog.
package struct CatalogItem: Sendable, Equatable {
    package enum Kind: String, Sendable { case track, episode, local }
    package var kind: Kind
    package var id: String?
    package var name: String
    package var durationMs: Int
    package var artist: String
    package var album: String
    package var albumID: String?

    package var uri: String {
        switch kind {
        case .track: "spotify:track:\(id ?? "")"
        case .episode: "spotify:episode:\(id ?? "")"
        case .local:
            "spotify:local:\(Self.plus(artist)):\(Self.plus(album)):\(Self.plus(name)):\(durationMs / 1000)"
        }
    }

    private static func plus(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)?.replacingOccurrences(of: "%20", with: "+")
            ?? text
    }
}

/// A playlist in the emulator: its metadata, its entries (`nil` = an entry whose item is gone) and
/// the states tests drive it into.
package struct CatalogPlaylist: Sendable {
    package var id: String
    package var name: String
    package var description: String?
    package var ownerID: String
    package var ownerName: String
    package var isPublic: Bool
    package var collaborative: Bool
    package var entries: [CatalogItem?]
    package var inLibrary: Bool
    package var revision = 1
    /// 404 for everyone, as after the owner deleted it.
    package var deleted = false
    /// 403 for everyone, as after it was made private by someone else.
    package var forbidden = false
    package var hasCover = true

    package var snapshotID: String { "\(id.prefix(6))AAAAA\(String(revision, radix: 16))" }
}

/// What the emulator serves: one signed-in user and a world of playlists.
package struct Catalog: Sendable {
    package var userID: String
    package var userName: String
    package var playlists: [String: CatalogPlaylist]
    /// The user's library, in `/me/playlists` order.
    package var libraryOrder: [String]
    /// Every playlist ID, in search order.
    package var allOrder: [String]

    package init(userID: String, userName: String, playlists: [CatalogPlaylist]) {
        self.userID = userID
        self.userName = userName
        self.playlists = Dictionary(uniqueKeysWithValues: playlists.map { ($0.id, $0) })
        self.libraryOrder = playlists.filter(\.inLibrary).map(\.id)
        self.allOrder = playlists.map(\.id)
    }

    /// Whether the signed-in user may read the playlist's entries (owner or collaborator).
    package func canReadItems(_ playlist: CatalogPlaylist) -> Bool {
        playlist.ownerID == userID || playlist.collaborative
    }
}
