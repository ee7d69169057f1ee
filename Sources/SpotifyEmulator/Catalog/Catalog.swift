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
    /// Whether Spotify marks it explicit (`explicit` of a track or an episode).
    package var explicit = false

    /// The show of an episode: its own ID, or one its name always maps to.
    package var showID: String { albumID ?? CatalogRenderer.stableID(album) }

    /// A made-up ISRC for a catalog track, stable for its ID: the ISRC's shape (country, registrant,
    /// year, five digits), never a real recording's.
    package var isrc: String? {
        guard kind == .track, let id else { return nil }
        // "QZ", three letters, "25", five digits: built byte by byte (it is asked for once per track
        // of every page).
        let hash = id.utf8.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        var number = Int((hash >> 32) % 100_000)
        return String(unsafeUninitializedCapacity: 12) { buffer in
            buffer[0] = UInt8(ascii: "Q")
            buffer[1] = UInt8(ascii: "Z")
            for index in 0..<3 { buffer[2 + index] = UInt8(ascii: "A") + UInt8((hash >> (8 * UInt64(index))) % 26) }
            buffer[5] = UInt8(ascii: "2")
            buffer[6] = UInt8(ascii: "5")
            for index in (7..<12).reversed() {
                buffer[index] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            }
            return 12
        }
    }

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

/// An album of the catalog: the tracks that carry its ID, in the order first seen.
package struct CatalogAlbum: Sendable, Equatable {
    package var id: String
    package var name: String
    package var artist: String
    package var trackIDs: [String]
}

/// A podcast show of the catalog, made of the episodes that name it.
package struct CatalogShow: Sendable, Equatable {
    package var id: String
    package var name: String
    package var publisher: String
    package var episodeIDs: [String]
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
    /// Every album by ID (`/albums/{id}`), made of the tracks that name it.
    package var albums: [String: CatalogAlbum] = [:]
    /// Every episode by ID (`/episodes/{id}`).
    package var episodes: [String: CatalogItem] = [:]
    /// Every show by ID (`/shows/{id}`), made of its episodes.
    package var shows: [String: CatalogShow] = [:]
    /// What else the user saved or follows through `PUT /me/library`, by URI (albums, episodes,
    /// shows, audiobooks, artists, users; tracks not in the catalog): tracks of the catalog go to
    /// ``savedTrackIDs``, playlists to ``libraryOrder``.
    package var savedURIs: Set<String> = []

    package init(userID: String, userName: String, playlists: [CatalogPlaylist], savedTrackIDs: [String] = []) {
        self.userID = userID
        self.userName = userName
        // One album, one ID: a song names the ID its album's first song was given.
        var albumIDs: [String: String] = [:]
        let playlists = playlists.map { playlist in
            var playlist = playlist
            for index in playlist.entries.indices {
                guard var item = playlist.entries[index], item.kind == .track, let drawn = item.albumID else {
                    continue
                }
                item.albumID = albumIDs[item.album] ?? drawn
                albumIDs[item.album] = item.albumID
                playlist.entries[index] = item
            }
            return playlist
        }
        self.playlists = Dictionary(uniqueKeysWithValues: playlists.map { ($0.id, $0) })
        self.libraryOrder = playlists.filter(\.inLibrary).map(\.id)
        self.allOrder = playlists.map(\.id)
        self.tracks = [:]
        self.trackOrder = []
        self.savedTrackIDs = []
        for item in playlists.flatMap(\.entries) {
            if let item { register(item) }
        }
        self.savedTrackIDs = savedTrackIDs.filter { tracks[$0] != nil }
    }

    /// Adds a track or episode to the catalog's indexes (tracks, albums, episodes, shows) once.
    package mutating func register(_ item: CatalogItem) {
        guard let id = item.id else { return }
        switch item.kind {
        case .track:
            guard tracks[id] == nil else { return }
            tracks[id] = item
            trackOrder.append(id)
            let albumID = item.albumID ?? CatalogRenderer.stableID(item.album)
            albums[albumID, default: CatalogAlbum(id: albumID, name: item.album, artist: item.artist, trackIDs: [])]
                .trackIDs.append(id)
        case .episode:
            guard episodes[id] == nil else { return }
            episodes[id] = item
            let showID = item.showID
            shows[showID, default: CatalogShow(id: showID, name: item.album, publisher: item.artist, episodeIDs: [])]
                .episodeIDs.append(id)
        case .local:
            return
        }
    }

    /// The album of a catalog track, and the track's number on it (1-based).
    package func album(of item: CatalogItem) -> (album: CatalogAlbum, trackNumber: Int)? {
        guard let id = item.id, let album = albums[item.albumID ?? CatalogRenderer.stableID(item.album)],
            let index = album.trackIDs.firstIndex(of: id)
        else { return nil }
        return (album, index + 1)
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
