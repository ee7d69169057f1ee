import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

extension SpotLinkCommandTests {
    /// Issue 66 item 3 from the command line: a song of `Int.max` milliseconds from Spotify used to
    /// crash every command that printed it as `--json` (a trapping `Int(…)`), and the refresh that
    /// summed it. Each path prints it as a bounded number instead.
    @Suite("spotlink and a song of Int.max milliseconds")
    struct AbsurdDuration {
        @Test func everyJSONPathPrintsABoundedNumber() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
                let added = await emulator.control(
                    "playlists/\(deep)/add-track", ["name": "Endless", "duration_ms": "\(Int.max)"])
                #expect(added == 200)
                let week = 7 * 86_400_000

                let show = try await cli.run(["playlist", "show", deep, "--json"] + common)
                #expect(show.status == 0, "\(show.stderr)")
                let playlist = try #require(
                    try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
                let entries = try #require(playlist["entries"] as? [[String: Any]])
                #expect(entries.last?["duration_ms"] as? Int == week, "\(entries.last ?? [:])")
                #expect((playlist["duration_ms"] as? Int ?? 0) > week)
                #expect(try await cli.run(["playlist", "show", deep] + common).status == 0)

                #expect(try await cli.run(["session", "new", "Long", "--minutes", "30"] + common).status == 0)
                #expect(try await cli.run(["session", "attach", "1", deep] + common).status == 0)
                let refresh = try await cli.run(["refresh", "--json"] + common)
                #expect(refresh.status == 0, "\(refresh.stdout) \(refresh.stderr)")
                let session = try await cli.run(["session", "show", "1", "--json"] + common)
                #expect(session.status == 0, "\(session.stderr)")
                let card = try #require(
                    try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
                let total = try #require((card["playlist"] as? [String: Any])?["duration_ms"] as? Int)
                #expect(total > week)
                #expect(try await cli.run(["session", "show", "1"] + common).status == 0)

                let last = entries.count - 1
                #expect(
                    await emulator.control(
                        "player/play", ["context_uri": "spotify:playlist:\(deep)", "offset": "\(last)"]) == 200)
                let playing = try await cli.run(["now-playing", "--json"] + common)
                #expect(playing.status == 0, "\(playing.stderr)")
                let now = try #require(
                    try JSONSerialization.jsonObject(with: Data(playing.stdout.utf8)) as? [String: Any])
                #expect(now["duration_ms"] as? Int == week, "\(now)")
                let uri = try #require(now["uri"] as? String)

                let track = try await cli.run(["track", "show", uri, "--json"] + common)
                #expect(track.status == 0, "\(track.stderr)")
                #expect(track.stdout.contains("\"duration_ms\":\(week)"), "\(track.stdout)")
            }
        }
    }
}
