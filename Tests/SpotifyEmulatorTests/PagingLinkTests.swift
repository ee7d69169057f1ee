import Foundation
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

/// Every `next` and `previous` the emulator writes is a request it answers, for both kinds of
/// client ID: a client that follows Spotify's own links (rspotify, spotipy and SpotifyAPI do)
/// must never meet a 400 from them.
@Suite("Every link the emulator hands out answers")
struct PagingLinkTests {
    /// Scopes for every paged route: the product's, the learning app's, recently played.
    static let scopes = EmulatorServer.allScopes + EmulatorServer.learningScopes + ["user-read-recently-played"]

    /// A paged route: where its first page is, and the key of the paging object in the answer
    /// (`nil` for a page at the top).
    struct Start: CustomStringConvertible {
        let path: String
        let query: [(String, String)]
        let key: String?
        var description: String { path + "?" + query.map { "\($0)=\($1)" }.joined(separator: "&") + " " + (key ?? "") }
    }

    @Test(arguments: [false, true])
    func everyNextAndPreviousAnswers(older: Bool) async throws {
        try await withEmulator(try FidelityTests.configuration(older: older)) {
            (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken(scopes: Self.scopes)
            let running = try await emulator.playlistID(named: "Running Mix")
            let album = try #require(
                await emulator.state.catalog.albums.values.max { $0.trackIDs.count < $1.trackIDs.count })
            let albumsByArtist = Dictionary(grouping: await emulator.state.catalog.albums.values, by: \.artist)
            let artistName = try #require(albumsByArtist.max { $0.value.count < $1.value.count }?.key)
            let artist = CatalogRenderer.stableID(artistName)
            var starts: [Start] = [
                Start(path: "me/playlists", query: [("limit", "7")], key: nil),
                Start(path: "playlists/\(running)/items", query: [("limit", "50"), ("offset", "3")], key: nil),
                Start(path: "playlists/\(running)", query: [], key: "items"),
                Start(path: "albums/\(album.id)/tracks", query: [("limit", "1")], key: nil),
                Start(path: "artists/\(artist)/albums", query: [("limit", "1")], key: nil),
                Start(path: "me/tracks", query: [("limit", "7")], key: nil),
                Start(path: "me/top/tracks", query: [("limit", "9"), ("time_range", "short_term")], key: nil),
                Start(path: "me/top/artists", query: [("limit", "2")], key: nil),
                Start(path: "me/player/recently-played", query: [("limit", "20")], key: nil),
            ]
            // From the second result, so that a type with few results (or none) links back too.
            for type in EmulatorState.searchTypes.sorted() {
                starts.append(
                    Start(
                        path: "search", query: [("q", "a"), ("type", type), ("limit", "1"), ("offset", "1")],
                        key: type + "s"))
            }
            if older {
                starts += [
                    Start(path: "users/emu-user/playlists", query: [("limit", "1"), ("offset", "1")], key: nil),
                    Start(path: "browse/new-releases", query: [("limit", "9")], key: "albums"),
                    Start(path: "browse/categories", query: [("limit", "1")], key: "categories"),
                ]
            }
            for start in starts {
                let first = try await http.json(emulator.url("v1/" + start.path, start.query), token: token)
                #expect(first.status == 200, "\(start): \(first.object)")
                var page = try #require(Self.paging(first.object, start.key), "\(start): no paging object")
                // Forward along `next` (a few hops), then back along `previous` from there.
                var followed = 0
                for direction in ["next", "previous"] {
                    for _ in 0..<4 {
                        guard let link = page[direction] as? String else { break }
                        let url = try #require(URL(string: link))
                        let answer = try await http.json(url, token: token)
                        #expect(
                            answer.status == 200, "\(start) → \(direction) \(link): \(answer.status) \(answer.object)")
                        guard answer.status == 200 else { break }
                        page = try #require(Self.paging(answer.object, start.key), "\(link): no paging object")
                        if let offset = url.queryValue("offset") {
                            #expect(
                                page["offset"] as? Int == Int(offset), "\(link) answered offset \(page["offset"] ?? "")"
                            )
                        }
                        followed += 1
                    }
                }
                #expect(followed > 0, "\(start) wrote no link to follow: the route's test proves nothing")
            }
        }
    }

    /// The paging object of `object` under `key`, or `object` itself when it is one (a page at
    /// the top, as a full playlist's embedded page links to).
    static func paging(_ object: [String: Any], _ key: String?) -> [String: Any]? {
        if let key, let page = object[key] as? [String: Any] { return page }
        return object["items"] is [Any] && object["limit"] != nil ? object : nil
    }

    /// Search never links past result 1000: `next` is cut to end there, and is null at the end.
    @Test func searchLinksStopAtResult1000() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            func page(_ offset: Int, _ limit: Int) async throws -> [String: Any] {
                let answer = try await http.json(
                    emulator.url(
                        "v1/search", [("q", "a"), ("type", "track"), ("offset", "\(offset)"), ("limit", "\(limit)")]),
                    token: token)
                #expect(answer.status == 200, "offset \(offset), limit \(limit): \(answer.object)")
                return try #require(answer.object["tracks"] as? [String: Any])
            }
            let nearEnd = try await page(985, 10)
            #expect((nearEnd["total"] as? Int ?? 0) > 1000, "the catalog must match past 1000 for this test")
            let next = try #require((nearEnd["next"] as? String).flatMap(URL.init(string:)), "a next before 1000")
            #expect(next.queryValue("offset") == "995" && next.queryValue("limit") == "5")
            #expect(try await http.json(next, token: token).status == 200)
            #expect(try await page(990, 10)["next"] is NSNull, "offset + limit reaches 1000: no next")
        }
    }
}
