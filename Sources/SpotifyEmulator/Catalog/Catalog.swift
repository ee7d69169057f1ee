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
    /// More text search matches (a Japanese title's reading in kana, say).
    package var keywords = ""

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

    /// Spotify's editorial and algorithmic playlists: IDs beginning `37i9dQZ`. Since late 2024 they
    /// answer 404 to new and Development Mode apps and are left out of their search results.
    package var isEditorial: Bool { id.hasPrefix("37i9dQZ") }

    /// A stable editorial ID for a playlist name: `37i9dQZF1DX` and 11 base62 characters.
    package static func editorialID(for name: String) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var hash = name.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        var suffix = ""
        for _ in 0..<11 {
            suffix.append(alphabet[Int(hash % 62)])
            hash /= 62
            if hash == 0 { hash = 0x9E37_79B9_7F4A_7C15 }
        }
        return "37i9dQZF1DX" + suffix
    }
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

    /// Every catalog track by ID, in first-seen order.
    package var tracks: [String: CatalogItem]
    package var trackOrder: [String]
    /// The user's saved tracks (`/me/tracks`), newest first.
    package var savedTrackIDs: [String]

    package init(userID: String, userName: String, playlists: [CatalogPlaylist], savedTrackIDs: [String] = []) {
        self.userID = userID
        self.userName = userName
        self.playlists = Dictionary(uniqueKeysWithValues: playlists.map { ($0.id, $0) })
        self.libraryOrder = playlists.filter(\.inLibrary).map(\.id)
        self.allOrder = playlists.map(\.id)
        var tracks: [String: CatalogItem] = [:]
        var order: [String] = []
        for item in playlists.flatMap(\.entries) {
            guard let item, item.kind == .track, let id = item.id, tracks[id] == nil else { continue }
            tracks[id] = item
            order.append(id)
        }
        self.tracks = tracks
        self.trackOrder = order
        self.savedTrackIDs = savedTrackIDs.filter { tracks[$0] != nil }
    }

    /// Artist names in first-seen order.
    package var artistNames: [String] {
        var seen = Set<String>()
        return trackOrder.compactMap { tracks[$0]?.artist }.filter { seen.insert($0).inserted }
    }

    /// Whether the signed-in user may read the playlist's entries (owner or collaborator).
    package func canReadItems(_ playlist: CatalogPlaylist) -> Bool {
        playlist.ownerID == userID || playlist.collaborative
    }
}
