import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

@Suite("The emulator follows the late-2026 contract")
struct EmulatorDriftTests {
    func get(_ emulator: EmulatorServer, _ path: String, _ query: [(String, String)] = [], token: String)
        async throws -> (status: Int, headers: HTTPFields, body: String)
    {
        let (status, headers, body) = try await http.send(
            .get, emulator.url(path, query), headers: ["Authorization": "Bearer \(token)"])
        return (status, headers, String(decoding: body, as: UTF8.self))
    }

    @Test func the403And401VariantsAsFaultsOnAChosenPath() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            await emulator.control("faults", ["kind": "403-not-registered", "path": "/v1/me/player"])
            // Another path is not touched.
            #expect(try await get(emulator, "v1/me", token: token).status == 200)
            let plain = try await get(emulator, "v1/me/player/currently-playing", token: token)
            #expect(plain.status == 403 && plain.body == "User not registered in the Developer Dashboard")
            #expect(plain.headers[.contentType]?.hasPrefix("text/plain") == true)
            for (kind, status, message) in [
                ("403-premium", 403, "Active premium subscription required for the owner of the app"),
                ("403-scope", 403, "Insufficient client scope"), ("401-transient", 401, "Access token missing"),
            ] {
                await emulator.control("faults", ["kind": kind])
                let answer = try await get(emulator, "v1/me", token: token)
                #expect(answer.status == status && answer.body.contains(message), "\(kind): \(answer.body)")
            }
            #expect(try await get(emulator, "v1/me", token: token).status == 200)
        }
    }

    @Test func spotifysOwnPlaylistsAnswer404AndLeaveSearchButStayInTheLibrary() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let hits = try await emulator.playlistID(named: "Today's Top Hits")
            #expect(hits.hasPrefix("37i9dQZ"))
            #expect(try await get(emulator, "v1/playlists/\(hits)", token: token).body.contains("Resource not found"))
            #expect(try await get(emulator, "v1/playlists/\(hits)/items", token: token).status == 404)
            let search = try await get(emulator, "v1/search", [("q", "hits"), ("type", "playlist")], token: token)
            #expect(search.status == 200 && !search.body.contains(hits))
            let library = try await get(emulator, "v1/me/playlists", [("limit", "50")], token: token)
            #expect(library.body.contains(hits))
            // Third parties' playlists are found as before.
            #expect(
                try await get(emulator, "v1/search", [("q", "focus piano"), ("type", "playlist")], token: token).body
                    .contains("Focus Piano"))
        }
    }

    @Test func newKeysOnlyByDefaultAndOldNameFieldsYieldEmptyEntries() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let deep = try await emulator.playlistID(named: "Deep Work")
            let full = try await http.json(emulator.url("v1/playlists/\(deep)"), token: token).object
            #expect(full["items"] != nil && full["tracks"] == nil)
            let entries = try #require((full["items"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(entries.first?["item"] != nil && entries.first?["track"] == nil)

            let old = try await http.json(
                emulator.url("v1/playlists/\(deep)", [("fields", "tracks.items(track(name))")]), token: token)
            #expect(old.status == 200)
            let oldEntries = try #require((old.object["tracks"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(oldEntries.count == 50 && oldEntries.allSatisfy(\.isEmpty))
            let page = try await http.json(
                emulator.url("v1/playlists/\(deep)/items", [("fields", "items(track(name))")]), token: token)
            #expect((page.object["items"] as? [[String: Any]])?.allSatisfy(\.isEmpty) == true)
            let new = try await http.json(
                emulator.url("v1/playlists/\(deep)", [("fields", "items.items(item(name))")]), token: token)
            let named = try #require((new.object["items"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect((named.first?["item"] as? [String: Any])?["name"] != nil)
        }
    }
}
