package import Foundation
import SpotifyLinkSupport

extension Catalog {
    /// The deterministic catalog of a seed: the user's playlists of 0, 1, 49, 50, 51, 500 and 10,000
    /// entries, odd entries (unavailable, local, episodes), playlists of other owners, a collaborative
    /// one, a deleted one, and public playlists for search.
    package static func generated(seed: UInt64, extraLibraryPlaylists: Int = 0) -> Catalog {
        var random = SeededGenerator(seed: seed)
        let words = [
            "Amber", "Blue", "Quiet", "Golden", "Silver", "Late", "Early", "Velvet", "Paper", "Neon", "Wild", "Soft",
            "Distant", "Little", "Bright", "Hollow", "Electric", "Northern", "Summer", "Winter",
        ]
        let nouns = [
            "River", "Lights", "Morning", "Echoes", "Harbor", "Garden", "Signal", "Avenue", "Dreams", "Tides", "Static",
            "Meadow", "Circuit", "Window", "Horizon", "Letters",
        ]
        let artists = [
            "The Lanterns", "Mira Vale", "Ocean Theory", "Kofi & The Keys", "Juniper", "Ana Sol", "Low Orbit",
        ]
        // Each artist's songs fill albums of twelve ("Mira Vale Sessions", "…, Vol. 2"); an album keeps
        // the ID drawn for its first song (Catalog.init), so the draws, and every other ID, stay as they were.
        var songsByArtist: [String: Int] = [:]
        func track() -> CatalogItem {
            let name =
                words[Int(random.next() % UInt64(words.count))] + " " + nouns[Int(random.next() % UInt64(nouns.count))]
            let artist = artists[Int(random.next() % UInt64(artists.count))]
            let volume = songsByArtist[artist, default: 0] / 12 + 1
            songsByArtist[artist, default: 0] += 1
            var item = CatalogItem(
                kind: .track, id: random.base62ID(), name: name, durationMs: 150_000 + Int(random.next() % 110_000),
                artist: artist, album: artist + " Sessions" + (volume > 1 ? ", Vol. \(volume)" : ""),
                albumID: random.base62ID())
            // About one song in ten is explicit, by its name (no draw, so every ID stays as it was).
            item.explicit = name.hasPrefix("Wild ") || name.hasPrefix("Electric ")
            return item
        }
        func playlist(
            _ name: String, size: Int, owner: (String, String) = ("emu-user", "Emulator User"), library: Bool = true,
            collaborative: Bool = false, description: String? = nil
        ) -> CatalogPlaylist {
            CatalogPlaylist(
                id: random.base62ID(), name: name, description: description, ownerID: owner.0, ownerName: owner.1,
                isPublic: owner.0 != "emu-user", collaborative: collaborative, entries: (0..<size).map { _ in track() },
                inLibrary: library)
        }
        var mixed = playlist("Calm Evening", size: 51, description: "Wind down after a long day")
        mixed.entries[10] = nil
        mixed.entries[20] = CatalogItem(
            kind: .local, id: nil, name: "Kitchen Demo", durationMs: 95_000, artist: "Me", album: "Voice Memos",
            albumID: nil)
        mixed.entries[30] = CatalogItem(
            kind: .episode, id: random.base62ID(), name: "Breathing for Beginners", durationMs: 1_260_000,
            artist: "The Calm Hour", album: "The Calm Hour", albumID: nil)
        // Followed, then deleted by its owner: `/me/playlists` lists it as `null`.
        var deleted = playlist("Old Roadtrip", size: 12, owner: ("road-crew", "Road Crew"))
        deleted.deleted = true
        var noCover = playlist("Untitled Ideas", size: 3)
        noCover.hasCover = false
        let spotify = ("spotify", "Spotify")
        let playlists =
            [
                playlist("Morning Focus", size: 49, description: "Gentle instrumentals to start the day"),
                playlist("Deep Work", size: 50, description: "No lyrics, no distractions"),
                mixed,
                playlist("Running Mix", size: 500),
                playlist("Everything Archive", size: 10_000, description: "Every song ever saved"),
                playlist("Single Spin", size: 1),
                playlist("Empty Shelf", size: 0),
                noCover,
                playlist("Today's Top Hits", size: 50, owner: spotify, description: "The hottest 50"),
                playlist(
                    "Lo-Fi Focus Beats", size: 80, owner: ("lofi-lab", "Lofi Lab"),
                    description: "Beats to study and focus to"),
                playlist("Friends Mixtape", size: 20, owner: ("friend-7", "Sam"), collaborative: true),
                deleted,
                playlist(
                    "Focus Piano", size: 40, owner: ("piano-guild", "Piano Guild"), library: false,
                    description: "Peaceful piano to focus"),
                playlist("Focus Flow", size: 60, owner: ("dj-flow", "DJ Flow"), library: false),
                playlist("Study Focus Café", size: 30, owner: ("cafe", "Café Sounds"), library: false),
                playlist("Morning Coffee Jazz", size: 45, owner: spotify, library: false),
                playlist("Evening Acoustic", size: 35, owner: spotify, library: false),
            ] + (0..<extraLibraryPlaylists).map { index in playlist("Collection \(index + 1)", size: 3 + index % 5) }
        // Spotify's own playlists carry editorial IDs (37i9dQZ…), as live; the other IDs stay as the seed made them.
        var editorial = playlists.map { playlist in
            var playlist = playlist
            if playlist.ownerID == spotify.0 { playlist.id = CatalogPlaylist.editorialID(for: playlist.name) }
            return playlist
        }
        // Songs for a learner of Japanese: kanji, kana, half-width and full-width forms, with readings.
        let japanese = japaneseSongs.map { song in
            var item = CatalogItem(
                kind: .track, id: random.base62ID(), name: song.title, durationMs: song.seconds * 1000,
                artist: song.artist,
                album: song.artist + " ベスト", albumID: random.base62ID())
            item.keywords = song.keywords
            return item
        }
        editorial.append(
            CatalogPlaylist(
                id: random.base62ID(), name: "日本語で歌おう", description: "日本語の勉強に ・ Songs for learners of Japanese",
                ownerID: "nihongo-club", ownerName: "Nihongo Club", isPublic: true, collaborative: false,
                entries: japanese,
                inLibrary: false))
        let morning = editorial.first { $0.name == "Morning Focus" }?.entries.compactMap { $0?.id } ?? []
        return Catalog(
            userID: "emu-user", userName: "Emulator User", playlists: editorial,
            savedTrackIDs: japanese.prefix(4).compactMap(\.id) + morning.prefix(21))
    }

    /// Japanese songs of the generated catalog: title, artist, length, and readings for search.
    static let japaneseSongs: [(title: String, artist: String, seconds: Int, keywords: String)] = [
        ("夜明けのうた", "青空ミナト", 214, "よあけのうた あおぞらみなと"),
        ("さくら色の朝", "ひかり", 198, "さくらいろのあさ"),
        ("ハルカゼ", "ひかり", 187, "はるかぜ"),
        ("東京の雨", "青空ミナト", 241, "とうきょうのあめ あおぞらみなと"),
        ("ありがとう", "Team Kokoro", 205, ""),
        ("ｶﾞﾗｽの靴", "Team Kokoro", 223, "がらすのくつ"),
        ("月と星のワルツ", "ひかり", 256, "つきとほしのわるつ"),
        ("ＳＵＮＮＹ ＤＡＹ", "青空ミナト", 176, "あおぞらみなと"),
        ("こころの音", "Team Kokoro", 232, "こころのおと"),
        ("ともだち", "ひかり", 169, ""),
    ]

    /// A catalog from a JSON file (`--catalog FILE`).
    ///
    /// ```json
    /// {"user": {"id": "me", "display_name": "Me"},
    ///  "playlists": [{"id": "22 base62 chars (optional)", "name": "Focus", "owner": "me",
    ///                 "in_library": true, "collaborative": false, "description": "...",
    ///                 "entries": [{"type": "track", "name": "Song", "duration_ms": 200000, "artist": "A"},
    ///                             null, {"type": "local", ...}, {"type": "episode", ...}]}]}
    /// ```
    package static func load(from url: URL, seed: UInt64) throws -> Catalog {
        struct File: Decodable {
            struct User: Decodable {
                var id: String
                var display_name: String?
            }
            struct Entry: Decodable {
                var type: String?
                var name: String
                var duration_ms: Int
                var artist: String?
                var album: String?
            }
            struct Playlist: Decodable {
                var id: String?
                var name: String
                var description: String?
                var owner: String?
                var owner_name: String?
                var in_library: Bool?
                var collaborative: Bool?
                var deleted: Bool?
                var entries: [Entry?]
            }
            var user: User
            var playlists: [Playlist]
        }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        var random = SeededGenerator(seed: seed)
        let playlists = file.playlists.map { entry in
            let owner = entry.owner ?? file.user.id
            var playlist = CatalogPlaylist(
                id: entry.id ?? random.base62ID(), name: entry.name, description: entry.description, ownerID: owner,
                ownerName: entry.owner_name ?? owner, isPublic: owner != file.user.id,
                collaborative: entry.collaborative ?? false,
                entries: entry.entries.map { item in
                    item.map {
                        CatalogItem(
                            kind: CatalogItem.Kind(rawValue: $0.type ?? "track") ?? .track,
                            id: $0.type == "local" ? nil : random.base62ID(), name: $0.name, durationMs: $0.duration_ms,
                            artist: $0.artist ?? "Unknown Artist", album: $0.album ?? "Unknown Album",
                            albumID: random.base62ID())
                    }
                },
                inLibrary: entry.in_library ?? (owner == file.user.id))
            playlist.deleted = entry.deleted ?? false
            return playlist
        }
        return Catalog(userID: file.user.id, userName: file.user.display_name ?? file.user.id, playlists: playlists)
    }
}

extension Catalog {
    /// The generated catalog for `seed` and `extraLibraryPlaylists`, built once per process and
    /// shared by value (its arrays copy on write): every emulator a test run starts would otherwise
    /// build its own, ten thousand songs each, on the Swift concurrency pool. Under
    /// ThreadSanitizer on two cores, the emulators a test run starts at once held both of the
    /// pool's threads in `generated(seed:extraLibraryPlaylists:)` for minutes (the event-loop lag
    /// probe's stacks showed it: 185 s), and every other task of the process waited: requests
    /// timed out, connections idled out. The first caller for a key builds it on a thread of its
    /// own, off the pool; every caller awaits that build, holding no thread.
    package static func shared(seed: UInt64, extraLibraryPlaylists: Int = 0) async -> Catalog {
        await GeneratedCatalogs.shared.catalog(seed: seed, extraLibraryPlaylists: extraLibraryPlaylists)
    }

    /// How many times ``shared(seed:extraLibraryPlaylists:)`` has built a catalog for `seed` (tests).
    package static func sharedBuilds(seed: UInt64) async -> Int {
        await GeneratedCatalogs.shared.builds(seed: seed)
    }
}

/// The process's generated catalogs, one build per key, awaited by every caller of that key.
private actor GeneratedCatalogs {
    static let shared = GeneratedCatalogs()

    private struct Key: Hashable {
        var seed: UInt64
        var extraLibraryPlaylists: Int
    }

    private var builds: [Key: Task<Catalog, Never>] = [:]
    private var buildsBySeed: [UInt64: Int] = [:]

    func builds(seed: UInt64) -> Int { buildsBySeed[seed, default: 0] }

    func catalog(seed: UInt64, extraLibraryPlaylists: Int) async -> Catalog {
        let key = Key(seed: seed, extraLibraryPlaylists: extraLibraryPlaylists)
        if let build = builds[key] { return await build.value }
        // A handful of keys in a run; a process that asks for many keeps the most recent few.
        if builds.count >= 8 { builds.removeAll() }
        let build = Task {
            await onThreadOfItsOwn(named: "spotify-emulator catalog") {
                Catalog.generated(seed: seed, extraLibraryPlaylists: extraLibraryPlaylists)
            }
        }
        builds[key] = build
        buildsBySeed[seed, default: 0] += 1
        return await build.value
    }
}
