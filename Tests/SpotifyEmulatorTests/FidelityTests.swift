import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

/// Where the emulator answered otherwise than live on routes it models, found by running other
/// clients' live test suites against it (issue 52), and the routes the contract describes that it
/// lacked; each in both kinds of client ID where they differ.
@Suite("The emulator answers as Spotify does")
struct FidelityTests {
    /// A client created before 2026-02-11 (`created`), or after.
    static func configuration(older: Bool) throws -> EmulatorConfiguration {
        try ClientAgeTests.configuration(created: older ? "2025-06-01" : nil)
    }

    @Test(arguments: ["artist", "album", "artist,track", "show", "episode", "audiobook"])
    func searchTakesEveryTypeOfTheDocument(type: String) async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let result = try await http.json(emulator.url("v1/search", [("q", "a"), ("type", type)]), token: token)
            #expect(result.status == 200, "\(type): \(result.object)")
            for kind in type.split(separator: ",") {
                let page = try #require(
                    result.object[kind + "s"] as? [String: Any], "\(kind)s in \(result.object.keys)")
                #expect(page["items"] is [Any] && page["total"] != nil)
            }
            let artists = result.object["artists"] as? [String: Any]
            if type.hasPrefix("artist") { #expect((artists?["total"] as? Int ?? 0) > 0) }
        }
    }

    @Test func anUnknownSearchTypeIsStill400() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let result = try await http.json(emulator.url("v1/search", [("q", "a"), ("type", "song")]), token: token)
            #expect(result.status == 400)
        }
    }

    /// Search never passes result 1000: offset 999 with limit 1 is the last page, 1000 is refused.
    @Test func searchStopsAtResult1000() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            func status(_ offset: Int, _ limit: Int) async throws -> Int {
                try await http.json(
                    emulator.url(
                        "v1/search", [("q", "a"), ("type", "track"), ("offset", "\(offset)"), ("limit", "\(limit)")]),
                    token: token
                ).status
            }
            #expect(try await status(999, 1) == 200)
            #expect(try await status(1000, 1) == 400)
            #expect(try await status(995, 10) == 400)
        }
    }

    /// The token first, then the route, then the method, as live.
    @Test func authenticationComesBeforeTheMethod() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let bearer = ["Authorization": "Bearer \(token)"]
            #expect(try await http.send(.post, emulator.url("v1/me/playlists")).status == 401)
            #expect(
                try await http.send(.post, emulator.url("v1/me/playlists"), headers: ["Authorization": "Bearer nope"])
                    .status == 401)
            #expect(try await http.send(.post, emulator.url("v1/me/playlists"), headers: bearer).status == 405)
            #expect(
                try await http.send(.post, emulator.url("v1/users/emu-user/playlists"), headers: bearer).status == 403)
            #expect(try await http.send(.delete, emulator.url("v1/nowhere"), headers: bearer).status == 404)
        }
    }

    /// `/me/playlists` keeps the deprecated `tracks` twin beside `items`, as the recorded fixture.
    @Test func simplifiedPlaylistsCarryBothTwins() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let page = try await http.json(emulator.url("v1/me/playlists"), token: token)
            let playlists = try #require(page.object["items"] as? [Any]).compactMap { $0 as? [String: Any] }
            let first = try #require(playlists.first)
            let items = try #require(first["items"] as? [String: Any])
            let tracks = try #require(first["tracks"] as? [String: Any], "the tracks twin")
            #expect(
                items["total"] as? Int == tracks["total"] as? Int
                    && (items["href"] as? String)?.hasSuffix("/items") == true
                    && (tracks["href"] as? String)?.hasSuffix("/tracks") == true,
                "each twin links to its own route, as recorded")
            // The recorded fixture has the same two keys.
            let fixture =
                try JSONSerialization.jsonObject(
                    with: RecordedFixtures.data("current_user_playlist_1")) as? [String: Any]
            let recorded = try #require((fixture?["items"] as? [[String: Any]])?.first)
            #expect(recorded["tracks"] != nil && recorded["items"] != nil)
        }
    }

    /// `resume_point` only for a user token with `user-read-playback-position` (the reference).
    @Test func resumePointNeedsThePlaybackPositionScope() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let episode = try #require(await emulator.episodeIDs().first)
            let plain = await emulator.issueAccessToken()
            let positions = await emulator.issueAccessToken(
                scopes: EmulatorServer.allScopes + ["user-read-playback-position"])
            let without = try await http.json(emulator.url("v1/episodes/\(episode)"), token: plain)
            let with = try await http.json(emulator.url("v1/episodes/\(episode)"), token: positions)
            #expect(without.status == 200 && without.object["resume_point"] == nil)
            #expect(with.object["resume_point"] is [String: Any])
        }
    }

    /// Removed routes answer 403 to a new client, as the 2026 reports show; an older one keeps them.
    @Test(arguments: [false, true])
    func removedRoutesAre403AndAnOlderClientKeepsThem(older: Bool) async throws {
        try await withEmulator(try Self.configuration(older: older)) { (emulator: EmulatorServer) async throws in
            let (access, _) = try await emulator.signIn()
            let artist = try #require(await emulator.artistIDs().first)
            let topTracks = try await http.json(emulator.url("v1/artists/\(artist)/top-tracks"), token: access)
            #expect(topTracks.status == (older ? 200 : 403))
            if older { #expect((topTracks.object["tracks"] as? [Any])?.isEmpty == false) }
            for path in ["v1/artists/\(artist)/related-artists", "v1/recommendations"] {
                #expect(try await http.json(emulator.url(path), token: access).status == 403, "\(path)")
            }
            let album = try #require(await emulator.albumIDs().first)
            let albums = try await http.json(emulator.url("v1/albums", [("ids", album)]), token: access)
            #expect(albums.status == (older ? 200 : 403))
            let artists = try await http.json(emulator.url("v1/artists", [("ids", artist)]), token: access)
            #expect(artists.status == (older ? 200 : 403))
            let users = try await http.json(emulator.url("v1/users/emu-user/playlists"), token: access)
            #expect(users.status == (older ? 200 : 403))
            // Removed in February 2026 for a new client; an older one keeps them.
            for (path, key) in [("v1/browse/new-releases", "albums"), ("v1/browse/categories", "categories")] {
                let answer = try await http.json(emulator.url(path), token: access)
                #expect(answer.status == (older ? 200 : 403), "\(path)")
                if older { #expect((answer.object[key] as? [String: Any])?["items"] is [Any], "\(path)") }
            }
            // Removed on 2024-11-27 for every app created since: 403 for both.
            let track = try #require(await emulator.state.catalog.trackOrder.first)
            for path in [
                "v1/audio-features/\(track)", "v1/audio-features", "v1/audio-analysis/\(track)",
                "v1/browse/featured-playlists", "v1/browse/categories/0JQ5DAqbMKFEC4WFtoNRpw/playlists",
                "v1/recommendations/available-genre-seeds",
            ] {
                #expect(try await http.json(emulator.url(path), token: access).status == 403, "\(path)")
            }
            // An unknown route stays 404.
            #expect(try await http.json(emulator.url("v1/browse/nowhere"), token: access).status == 404)
        }
    }

    /// The user's library since 2026: `PUT`/`DELETE /me/library` and `GET /me/library/contains`,
    /// by URI, each kind under its scope; a method the route does not take is 405.
    @Test func theLibraryIsSavedAndCheckedByURI() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let modify = await emulator.issueAccessToken(
                scopes: ["user-library-modify", "user-library-read", "playlist-modify-public", "playlist-read-private"])
            let readOnly = await emulator.issueAccessToken(scopes: ["user-library-read"])
            let track = try #require(await emulator.state.catalog.trackOrder.last)
            let album = try #require(await emulator.albumIDs().first)
            let playlist = try await emulator.playlistID(named: "Focus Piano")
            let uris = "spotify:track:\(track),spotify:album:\(album),spotify:playlist:\(playlist)"
            func contains(_ token: String) async throws -> (status: Int, flags: [Bool]) {
                let (status, _, body) = try await http.send(
                    .get, emulator.url("v1/me/library/contains", [("uris", uris)]),
                    headers: ["Authorization": "Bearer \(token)"])
                return (status, (try? JSONSerialization.jsonObject(with: body)) as? [Bool] ?? [])
            }
            func change(_ method: HTTPRequest.Method, _ token: String, _ uris: String) async throws -> Int {
                try await http.send(
                    method, emulator.url("v1/me/library", [("uris", uris)]),
                    headers: ["Authorization": "Bearer \(token)"]
                ).status
            }
            #expect(try await contains(modify) == (200, [false, false, false]))
            #expect(try await change(.put, readOnly, uris) == 403, "user-library-modify is needed")
            #expect(try await change(.put, modify, uris) == 200)
            #expect(try await contains(modify) == (200, [true, true, true]))
            let saved = try await http.json(emulator.url("v1/me/tracks", [("limit", "1")]), token: modify)
            let first = (saved.object["items"] as? [[String: Any]])?.first?["track"] as? [String: Any]
            #expect(first?["id"] as? String == track, "a saved track comes first in /me/tracks")
            #expect(try await change(.delete, modify, uris) == 200)
            #expect(try await contains(modify) == (200, [false, false, false]))
            #expect(try await change(.put, modify, "spotify:track:nope") == 400)
            #expect(try await change(.put, modify, "spotify:artist:\(album)") == 400, "artists are followed elsewhere")
            let many = Array(repeating: "spotify:track:\(track)", count: 41).joined(separator: ",")
            #expect(try await change(.put, modify, many) == 400, "40 URIs at most")
            #expect(try await change(.post, modify, uris) == 405)
        }
    }

    /// The routes the contract describes, with their 2026 limits, in both client kinds.
    @Test(arguments: [false, true])
    func artistAlbumsAlbumTracksRecentlyPlayedAndPlaylistImages(older: Bool) async throws {
        try await withEmulator(try Self.configuration(older: older)) { (emulator: EmulatorServer) async throws in
            let access = await emulator.issueAccessToken(
                scopes: EmulatorServer.allScopes + ["user-read-recently-played"])
            let artist = try #require(await emulator.artistIDs().first)
            let five = try await http.json(emulator.url("v1/artists/\(artist)/albums"), token: access)
            #expect(five.status == 200 && five.object["limit"] as? Int == 5, "\(five.object)")
            let eleven = try await http.json(
                emulator.url("v1/artists/\(artist)/albums", [("limit", "11")]), token: access)
            #expect(eleven.status == (older ? 200 : 400))

            let album = try #require(await emulator.albumIDs().first)
            let tracks = try await http.json(emulator.url("v1/albums/\(album)/tracks"), token: access)
            #expect(tracks.status == 200 && (tracks.object["items"] as? [Any])?.isEmpty == false)

            let recent = try await http.json(
                emulator.url("v1/me/player/recently-played", [("limit", "3")]), token: access)
            #expect(recent.status == 200)
            let played = try #require(recent.object["items"] as? [[String: Any]])
            #expect(played.count == 3 && played.allSatisfy { $0["track"] != nil && $0["played_at"] is String })
            #expect(recent.object["cursors"] is [String: Any] && recent.object["next"] is String)
            let scopeless = await emulator.issueAccessToken()
            #expect(try await http.json(emulator.url("v1/me/player/recently-played"), token: scopeless).status == 403)

            let deep = try await emulator.playlistID(named: "Deep Work")
            let (status, _, body) = try await http.send(
                .get, emulator.url("v1/playlists/\(deep)/images"), headers: ["Authorization": "Bearer \(access)"])
            let images = try JSONSerialization.jsonObject(with: body) as? [[String: Any]]
            #expect(status == 200 && images?.first?["url"] is String)
        }
    }

    /// An older client may ask search for up to 50; a newer one for 10.
    @Test(arguments: [false, true])
    func searchLimitsFollowTheClientsAge(older: Bool) async throws {
        try await withEmulator(try Self.configuration(older: older)) { (emulator: EmulatorServer) async throws in
            let (access, _) = try await emulator.signIn()
            let fifty = try await http.json(
                emulator.url("v1/search", [("q", "a"), ("type", "track"), ("limit", "50")]), token: access)
            #expect(fifty.status == (older ? 200 : 400))
        }
    }

    /// A burst of 502 and 503 answers: Spotify unavailable, without `Retry-After` or a quota reason.
    @Test func anOutageIsABurstOf502And503() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            await emulator.control("faults", ["kind": "5xx-burst", "count": "4"])
            var statuses: [Int] = []
            for _ in 0..<5 {
                let (status, headers, _) = try await http.send(
                    .get, emulator.url("v1/me"), headers: ["Authorization": "Bearer \(token)"])
                statuses.append(status)
                #expect(headers[.retryAfter] == nil)
            }
            #expect(statuses == [502, 503, 502, 503, 200])
        }
    }
}
