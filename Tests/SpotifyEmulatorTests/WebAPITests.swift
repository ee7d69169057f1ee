import Foundation
import HTTPTypes
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Testing

@testable import SpotifyEmulator

@Suite("Emulator Web API")
struct WebAPITests {
    func keys(_ object: Any?) -> Set<String> { Set((object as? [String: Any])?.keys.map { $0 } ?? []) }

    func fixture(_ name: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: RecordedFixtures.data(name)) as? [String: Any])
    }

    @Test func transitionShapeCarriesBothKeyGenerations() async throws {
        var configuration = EmulatorConfiguration()
        configuration.shape = .transition
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let deep = try await emulator.playlistID(named: "Deep Work")
            let items = try await http.json(emulator.url("v1/playlists/\(deep)/items"), token: token)
            let recorded = try fixture("playlist_items")
            #expect(keys((recorded["items"] as? [Any])?.first) == keys((items.object["items"] as? [Any])?.first))
            let full = try await http.json(emulator.url("v1/playlists/\(deep)"), token: token)
            #expect(keys(try fixture("playlist_1")) == keys(full.object))
        }
    }

    @Test func responsesDecodeWithTheProjectModels() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
                transport: PatientTransport())
            #expect(try await client.currentUser().id == "emu-user")
            let mine = try await client.allMyPlaylists()
            // A followed playlist its owner deleted comes as `null`: skipped, counted.
            #expect(mine.nullCount == 1)
            #expect(mine.items.count + mine.nullCount == mine.total)
            let calm = try SpotifyID(try await emulator.playlistID(named: "Calm Evening"))
            let playlist = try await client.playlist(calm)
            #expect(playlist.itemCount == 51)
            let entries = try await client.allPlaylistEntries(calm)
            #expect(entries.items.count == 51)
            #expect(entries.items.contains { $0.item == .unavailable })
            #expect(entries.items.contains { if case .localFile = $0.item { true } else { false } })
            #expect(entries.items.contains { if case .episode = $0.item { true } else { false } })
            let search = try await client.searchPlaylists("focus", limit: 10)
            #expect(search.nullCount > 0)
            #expect(
                search.items.allSatisfy {
                    $0.name.lowercased().contains("focus") || ($0.description ?? "").lowercased().contains("focus")
                })
        }
    }

    /// Complete tracks on every route: disc and track numbers and an ISRC, read by the client's
    /// model; the player's track alone comes without the ISRC, as live since September 2026.
    @Test func everyRouteServesCompleteTracksAndTheClientReadsThem() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(
                    AccessToken(
                        await emulator.issueAccessToken(
                            scopes: EmulatorServer.allScopes + EmulatorServer.learningScopes))),
                transport: PatientTransport())
            func complete(_ track: Track, isrc: Bool = true, _ route: String) {
                #expect(track.discNumber == 1, "\(route)")
                #expect((track.trackNumber ?? 0) >= 1, "\(route)")
                if isrc {
                    #expect(track.isrc?.count == 12, "\(route): \(track.isrc ?? "no ISRC")")
                } else {
                    #expect(track.isrc == nil, "\(route)")
                }
            }
            let deep = try SpotifyID(try await emulator.playlistID(named: "Deep Work"))
            let entries = try await client.playlistEntries(deep, limit: 50)
            for case .track(let track) in entries.items.map(\.item) { complete(track, "entries") }
            let found = try await client.searchTracks("river", limit: 10)
            for track in found.items { complete(track, "search") }
            let first = try #require(found.items.first?.id)
            complete(try await client.track(first), "GET /tracks/{id}")
            for saved in try await client.savedTracks(limit: 20).items { complete(saved.track, "saved") }
            for track in try await client.topTracks(range: .shortTerm).items { complete(track, "top") }
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
            guard case .track(let playing) = try await client.currentlyPlaying()?.item else {
                Issue.record("nothing plays")
                return
            }
            complete(playing, isrc: false, "player")
            // An album's numbering is its own: the same track, the same number on every route.
            let again = try await client.track(try #require(playing.id))
            #expect(again.trackNumber == playing.trackNumber)
            #expect(again.isrc != nil)
        }
    }

    @Test func pagingWalksEveryGeneratedPlaylistViaNext() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            for size in [0, 1, 49, 50, 51, 500, 10_000] {
                let playlist = try #require(
                    await emulator.playlists().first { $0.entries == size && $0.name != "Untitled Ideas" })
                var next: URL? = emulator.url("v1/playlists/\(playlist.id)/items", [("limit", "50")])
                var count = 0
                var total = -1
                var pages = 0
                while let url = next {
                    let page = try await http.json(url, token: token)
                    #expect(page.status == 200)
                    count += (page.object["items"] as? [Any])?.count ?? 0
                    total = page.object["total"] as? Int ?? -1
                    next = (page.object["next"] as? String).flatMap(URL.init(string:))
                    if let next { #expect(next.host == "127.0.0.1" && next.port == emulator.baseURL.port) }
                    pages += 1
                }
                #expect(count == total, "size \(size)")
                #expect(count == size)
                #expect(pages == max(1, (size + 49) / 50))
            }
        }
    }

    @Test func itemsOnlyForOwnersAndCollaborators() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let hits = try await emulator.playlistID(named: "Lo-Fi Focus Beats")
            let full = try await http.json(emulator.url("v1/playlists/\(hits)"), token: token)
            #expect(full.status == 200 && full.object["items"] == nil)
            #expect(try await http.json(emulator.url("v1/playlists/\(hits)/items"), token: token).status == 403)
            let friends = try await emulator.playlistID(named: "Friends Mixtape")
            #expect(try await http.json(emulator.url("v1/playlists/\(friends)/items"), token: token).status == 200)
            let deep = try await emulator.playlistID(named: "Deep Work")
            #expect(try await http.json(emulator.url("v1/playlists/\(deep)/tracks"), token: token).status == 403)
        }
    }

    @Test func errorsUseTheContractsMessages() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            func message(_ url: URL) async throws -> (Int, String?) {
                let result = try await http.json(url, token: token)
                return (result.status, (result.object["error"] as? [String: Any])?["message"] as? String)
            }
            #expect(try await message(emulator.url("v1/playlists/not-an-id")) == (400, "Invalid base62 id"))
            let deleted = try await emulator.playlistID(named: "Old Roadtrip")
            #expect(try await message(emulator.url("v1/playlists/\(deleted)")) == (404, "Resource not found"))
            #expect(try await message(emulator.url("v1/me/playlists", [("limit", "51")])) == (400, "Invalid limit"))
            #expect(
                try await message(emulator.url("v1/search", [("q", "focus"), ("type", "playlist"), ("limit", "11")]))
                    == (400, "Invalid limit"))
            #expect(try await message(emulator.url("v1/me")).0 == 200)
            let narrow = await emulator.issueAccessToken(scopes: ["playlist-read-private"])
            let playing = try await http.json(emulator.url("v1/me/player/currently-playing"), token: narrow)
            #expect(playing.status == 403)
        }
    }

    @Test func fieldsFilterSelectsNestedFields() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let deep = try await emulator.playlistID(named: "Deep Work")
            let filtered = try await http.json(
                emulator.url(
                    "v1/playlists/\(deep)/items", [("fields", "items(added_at,item(name,duration_ms)),next,total")]),
                token: token)
            #expect(keys(filtered.object) == ["items", "next", "total"])
            let entry = (filtered.object["items"] as? [Any])?.first
            #expect(keys(entry) == ["added_at", "item"])
            #expect(keys((entry as? [String: Any])?["item"]) == ["name", "duration_ms"])
            let playlist = try await http.json(
                emulator.url("v1/playlists/\(deep)", [("fields", "name,snapshot_id,items(total)")]), token: token)
            #expect(keys(playlist.object) == ["name", "snapshot_id", "items"])
            #expect(keys(playlist.object["items"]) == ["total"])
            #expect(
                try await http.json(emulator.url("v1/playlists/\(deep)", [("fields", "items(name")]), token: token)
                    .status == 400)
        }
    }

    @Test(arguments: [
        ("items(added_at,item(name,duration_ms)),next,total", 3),
        ("name", 1),
        ("a(b(c(d))),e", 2),
    ])
    func fieldSelectionParses(text: String, topLevel: Int) throws {
        #expect(try #require(FieldSelection.parse(text)).keys.count == topLevel)
    }

    @Test(arguments: ["", "a(", "a)", "(a)", "a,,b", "a()"])
    func malformedFieldSelectionsAreRejected(text: String) {
        #expect(FieldSelection.parse(text) == nil)
    }

    @Test func coversAreRealPNGsOfTheAdvertisedSize() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let deep = try await emulator.playlistID(named: "Deep Work")
            let full = try await http.json(emulator.url("v1/playlists/\(deep)"), token: token)
            let images = try #require(full.object["images"] as? [[String: Any]])
            #expect(images.compactMap { $0["width"] as? Int } == [640, 300, 60])
            let url = try #require((images[1]["url"] as? String).flatMap(URL.init(string:)))
            let (status, headers, body) = try await http.send(.get, url)
            #expect(status == 200 && headers[.contentType] == "image/png")
            #expect(body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let width = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 300)
            let again = try await http.send(.get, url).body
            #expect(again == body)
        }
    }

    @Test func aCatalogFileReplacesTheGeneratedCatalog() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            #"""
            {"user": {"id": "ana", "display_name": "Ana"},
             "playlists": [
               {"name": "Yoga", "entries": [{"name": "Om", "duration_ms": 300000, "artist": "Calm"}, null,
                                            {"type": "local", "name": "Tape", "duration_ms": 60000}]},
               {"name": "Shared", "owner": "bo", "owner_name": "Bo", "collaborative": true, "in_library": true,
                "entries": [{"type": "episode", "name": "Talk", "duration_ms": 1200000}]},
               {"name": "Gone", "deleted": true, "entries": []}]}
            """#.utf8
        ).write(to: file)
        var configuration = EmulatorConfiguration()
        configuration.catalogFile = file
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
                transport: PatientTransport())
            #expect(try await client.currentUser().name == "Ana")
            #expect(try await client.allMyPlaylists().items.map(\.name) == ["Yoga", "Shared"])
            let yoga = try SpotifyID(try await emulator.playlistID(named: "Yoga"))
            let entries = try await client.allPlaylistEntries(yoga).items
            #expect(entries.count == 3)
            #expect(entries[1].item == .unavailable)
            let shared = try SpotifyID(try await emulator.playlistID(named: "Shared"))
            guard case .episode = try await client.allPlaylistEntries(shared).items.first?.item else {
                Issue.record("expected an episode")
                return
            }
        }
        configuration.catalogFile = file.appendingPathExtension("missing")
        await #expect(throws: (any Error).self) { try await EmulatorServer.startForTest(configuration) }
    }

    @Test func catalogIsDeterministicPerSeed() async {
        // Three builds of ten thousand songs: off the concurrency pool, which the other tests share.
        let (a, b, c) = await onThreadOfItsOwn(named: #function) {
            (Catalog.generated(seed: 7), Catalog.generated(seed: 7), Catalog.generated(seed: 8))
        }
        #expect(a.allOrder == b.allOrder)
        #expect(a.allOrder != c.allOrder)
    }

    @Test func statsCountRequestsPerRouteAndStatus() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            _ = try await http.json(emulator.url("v1/me"), token: token)
            _ = try await http.json(emulator.url("v1/me"), token: "bogus")
            #expect(await emulator.requestCount("GET /v1/me") == 2)
            #expect(await emulator.requestCount("GET /v1/me", status: 401) == 1)
            let stats = try await http.json(emulator.url("emulator/stats"), token: emulator.controlToken)
            #expect(stats.object["total"] as? Int ?? 0 >= 2)
        }
    }
}
