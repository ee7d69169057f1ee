import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

/// The recorded live answers are the referee: on every route the product reads, the emulator's
/// answer has the same set of keys, at every depth, as the recording of that route. Only `null`
/// aside (a key whose value is `null` on one side has no inner keys there), and only the changes
/// Spotify made since the recordings, each named below.
@Suite("The emulator's keys against the recorded live answers, route by route")
struct FixtureKeyTests {
    /// Keys Spotify stopped sending after the recordings were made (SPOTIFY-CONTRACT.md): at any depth.
    static let removedEverywhere: Set<String> = ["popularity", "available_markets", "linked_from"]

    /// Every key path of a JSON value: `items[].item.album.name`; array elements share one `[]`.
    static func keyPaths(_ value: Any, prefix: String = "", into paths: inout Set<String>) {
        if let object = value as? [String: Any] {
            for (key, inner) in object {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                paths.insert(path)
                keyPaths(inner, prefix: path, into: &paths)
            }
        } else if let array = value as? [Any] {
            for element in array { keyPaths(element, prefix: prefix + "[]", into: &paths) }
        }
    }

    static func keyPaths(_ value: Any) -> Set<String> {
        var paths = Set<String>()
        keyPaths(value, into: &paths)
        return paths
    }

    /// The paths of a recording, without what Spotify removed since, under `removed` prefixes too.
    static func recorded(_ name: String, removed: [String] = []) throws -> Set<String> {
        let value = try JSONSerialization.jsonObject(with: RecordedFixtures.data(name))
        return keyPaths(value).filter { path in
            let components = path.replacingOccurrences(of: "[]", with: "").split(separator: ".").map(String.init)
            return components.allSatisfy { !removedEverywhere.contains($0) }
                && !removed.contains { path == $0 || path.hasPrefix($0 + ".") }
        }
    }

    /// Compares one route: the same key paths, with `added` allowed only in the emulator's answer.
    static func compare(
        _ name: String, _ served: Any, removed: [String] = [], added: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = try recorded(name, removed: removed)
        let actual = keyPaths(served).filter { path in !added.contains { path == $0 || path.hasPrefix($0 + ".") } }
        let missing = expected.subtracting(actual).sorted()
        let extra = actual.subtracting(expected).sorted()
        #expect(missing.isEmpty, "\(name): the emulator lacks \(missing)", sourceLocation: sourceLocation)
        #expect(extra.isEmpty, "\(name): the emulator adds \(extra)", sourceLocation: sourceLocation)
    }

    static func get(_ emulator: EmulatorServer, _ path: String, _ query: [(String, String)] = [], token: String)
        async throws -> Any
    {
        let (status, _, body) = try await http.send(
            .get, emulator.url(path, query), headers: ["Authorization": "Bearer \(token)"])
        #expect((200...499).contains(status), "\(path): \(status)")
        return try JSONSerialization.jsonObject(with: body)
    }

    /// The routes whose recordings carry one key generation: the 2026 shapes.
    @Test func currentShapes() async throws {
        var configuration = EmulatorConfiguration()
        configuration.rateLimit = 1
        // Frozen time: the two requests fall in one 30 s window however slowly the machine runs
        // (under ThreadSanitizer they were once more than 30 s apart, and the second went through).
        configuration.time = .virtual(start: Date(timeIntervalSince1970: 1_790_000_000))
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            // The profile lost these for Development Mode apps in 2026 and gained `account_id` in May.
            try Self.compare(
                "current_user", try await Self.get(emulator, "v1/me", token: token),
                removed: ["country", "email", "product", "explicit_content", "followers"], added: ["account_id"])
            // The rate limit of one request per 30 s answers the next request with the plain 429.
            try Self.compare("rate_limit", try await Self.get(emulator, "v1/me", token: token))
        }
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let deep = try await emulator.playlistID(named: "Deep Work")
            try Self.compare(
                "playlist_items_2",
                try await Self.get(emulator, "v1/playlists/\(deep)/items", [("limit", "48")], token: token))
            try Self.compare(
                "search",
                try await Self.get(emulator, "v1/search", [("q", "river"), ("type", "track")], token: token))
            try Self.compare(
                "playlist_not_found",
                try await Self.get(emulator, "v1/playlists/\(CatalogPlaylist.editorialID(for: "x"))", token: token))
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            // Observed since September 2026: the player's track comes without `external_ids`.
            try Self.compare(
                "current_playing_track", try await Self.get(emulator, "v1/me/player/currently-playing", token: token),
                removed: ["item.external_ids"])
            let calm = try await emulator.playlistID(named: "Calm Evening")
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(calm)", "offset": "30"])
            // The recording's token had `user-read-playback-position`, so its episode has `resume_point`.
            let positions = await emulator.issueAccessToken(
                scopes: EmulatorServer.allScopes + ["user-read-playback-position"])
            try Self.compare(
                "playback_episode_1",
                try await Self.get(emulator, "v1/me/player", [("additional_types", "episode")], token: positions))
        }
    }

    /// The routes recorded during the transition, with old and new keys side by side: the
    /// emulator's `transition` shape.
    @Test func transitionShapes() async throws {
        var configuration = EmulatorConfiguration()
        configuration.shape = .transition
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let deep = try await emulator.playlistID(named: "Deep Work")
            try Self.compare(
                "current_user_playlist_1", try await Self.get(emulator, "v1/me/playlists", token: token))
            let playlist = try await Self.get(emulator, "v1/playlists/\(deep)", token: token)
            try Self.compare("playlist_1", playlist)
            // This recording has the old entry key in one of its twin pages only; the emulator's
            // transition shape has both keys in both.
            try Self.compare("playlist_4", playlist, added: ["tracks.items[].track"])
            try Self.compare(
                "playlist_items",
                try await Self.get(emulator, "v1/playlists/\(deep)/items", [("limit", "48")], token: token))
        }
    }
}
