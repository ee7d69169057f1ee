import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

/// The project's copy of the Web API's OpenAPI document and its validator script.
enum OpenAPICheck {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let spec = root.appendingPathComponent("contract/openapi/spotify-web-api.yml")
    static let script = root.appendingPathComponent("scripts/validate-openapi.py")
    /// CI sets this so that a machine without the Python modules fails instead of skipping.
    static let required = ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_OPENAPI"] == "1"

    /// Asked once, while tests are being planned (no test runs yet, so blocking is harmless).
    static var pythonReady: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import openapi_schema_validator, yaml"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        var child = ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
        child.mergeErrors = true
        let result = try await child.run()
        return (result.status, result.output)
    }
}

@Suite("The emulator's answers against the Web API's OpenAPI document")
struct OpenAPIConformanceTests {
    /// One answer of every Web API route the product uses, in the shapes it takes.
    @Test(
        .enabled(
            if: OpenAPICheck.required || OpenAPICheck.pythonReady,
            "needs python3 with openapi-schema-validator and PyYAML"))
    func everyRouteTheProductUsesValidates() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = EmulatorConfiguration()
        configuration.time = .virtual(start: Date(timeIntervalSince1970: 1_790_000_000))
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken(
                scopes: EmulatorServer.allScopes + EmulatorServer.learningScopes
                    + ["user-read-recently-played", "user-read-playback-position"])
            let deep = try await emulator.playlistID(named: "Deep Work")
            let calm = try await emulator.playlistID(named: "Calm Evening")
            let lofi = try await emulator.playlistID(named: "Lo-Fi Focus Beats")
            var count = 0
            @discardableResult
            func record(_ path: String, _ query: [(String, String)], template: String, departures: [String] = [])
                async throws -> [String: Any]
            {
                let (status, _, body) = try await http.send(
                    .get, emulator.url(path, query), headers: ["Authorization": "Bearer \(token)"])
                #expect(status == 200, "\(path): \(status)")
                let object = try JSONSerialization.jsonObject(with: body)
                let sample: [String: Any] = [
                    "method": "GET", "path": "/" + path, "template": template, "status": status, "body": object,
                    "departures": departures,
                ]
                count += 1
                try JSONSerialization.data(withJSONObject: sample).write(
                    to: folder.appendingPathComponent("\(count).json"))
                return object as? [String: Any] ?? [:]
            }
            try await record("v1/me", [], template: "/me")
            // A followed playlist its owner deleted is a `null` entry, counted in `total`.
            try await record(
                "v1/me/playlists", [("limit", "50")], template: "/me/playlists",
                departures: ["null-images", "null-entries"])
            try await record(
                "v1/playlists/\(deep)", [("additional_types", "track,episode")], template: "/playlists/{playlist_id}")
            try await record("v1/playlists/\(lofi)", [], template: "/playlists/{playlist_id}")
            let items = try await record(
                "v1/playlists/\(deep)/items", [("limit", "50")], template: "/playlists/{playlist_id}/items")
            // Unavailable (null) entries, a local file and an episode: live departs from the document here.
            let mixed = try await record(
                "v1/playlists/\(calm)/items", [("limit", "50"), ("additional_types", "track,episode")],
                template: "/playlists/{playlist_id}/items", departures: ["null-items", "local-files"])
            try await record(
                "v1/search", [("q", "focus"), ("type", "playlist"), ("limit", "10")], template: "/search",
                departures: ["null-entries"])
            try await record(
                "v1/search", [("q", "river"), ("type", "track"), ("limit", "10")], template: "/search",
                departures: ["null-entries"])
            try await record("v1/me/tracks", [("limit", "20")], template: "/me/tracks")
            try await record(
                "v1/me/top/tracks", [("time_range", "short_term"), ("limit", "20")], template: "/me/top/tracks")
            try await record("v1/me/top/artists", [("limit", "20")], template: "/me/top/artists")
            // The single-ID reads, with IDs taken from the objects above.
            let track = try #require(Self.entry(items, 0)?["item"] as? [String: Any])
            let trackID = try #require(track["id"] as? String)
            let album = try #require(track["album"] as? [String: Any])
            let artist = try #require((track["artists"] as? [[String: Any]])?.first)
            let episode = try #require(Self.entry(mixed, 30)?["item"] as? [String: Any])
            let show = try #require(episode["show"] as? [String: Any])
            try await record("v1/tracks/\(trackID)", [], template: "/tracks/{id}")
            try await record("v1/albums/\(try #require(album["id"] as? String))", [], template: "/albums/{id}")
            try await record("v1/artists/\(try #require(artist["id"] as? String))", [], template: "/artists/{id}")
            try await record("v1/episodes/\(try #require(episode["id"] as? String))", [], template: "/episodes/{id}")
            try await record("v1/shows/\(try #require(show["id"] as? String))", [], template: "/shows/{id}")
            // The routes the contract describes beside the product's, and search's other types.
            let artistID = try #require(artist["id"] as? String)
            let albumID = try #require(album["id"] as? String)
            try await record("v1/artists/\(artistID)/albums", [("limit", "10")], template: "/artists/{id}/albums")
            try await record("v1/albums/\(albumID)/tracks", [("limit", "20")], template: "/albums/{id}/tracks")
            try await record("v1/me/player/recently-played", [("limit", "5")], template: "/me/player/recently-played")
            try await record("v1/playlists/\(deep)/images", [], template: "/playlists/{playlist_id}/images")
            try await record(
                "v1/search", [("q", "a"), ("type", "artist,album"), ("limit", "10")], template: "/search",
                departures: ["null-entries"])
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            try await record(
                "v1/me/player/currently-playing", [("additional_types", "track,episode")],
                template: "/me/player/currently-playing", departures: ["player-track"])
            try await record("v1/me/player", [], template: "/me/player", departures: ["player-track"])
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(calm)", "offset": "30"])
            try await record(
                "v1/me/player/currently-playing", [("additional_types", "track,episode")],
                template: "/me/player/currently-playing")
        }
        let result = try await OpenAPICheck.run([OpenAPICheck.script.path, OpenAPICheck.spec.path, folder.path])
        #expect(result.status == 0, "\(result.output)")
    }

    /// Entry `index` of a page of playlist entries.
    static func entry(_ page: [String: Any], _ index: Int) -> [String: Any]? {
        (page["items"] as? [Any])?[index] as? [String: Any]
    }
}
