import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

/// A data folder (0700) in `cli`'s home holding a copy of the database the version before
/// `PlaylistLinkStore` wrote (Tests/Fixtures/README.md).
private func earlierDataFolder(in cli: SpotLinkBinary, named name: String) throws -> URL {
    let data = cli.home.appendingPathComponent(name)
    try FileManager.default.createDirectory(
        at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/spotlink-fe0207e.sqlite")
    try FileManager.default.copyItem(at: fixture, to: data.appendingPathComponent("spotlink.sqlite"))
    return data
}

@Suite("spotlink commands, the rest", .serialized)
struct MoreCommandTests {
    /// The journal and the links of a data folder written by the version before the storage moved
    /// behind `PlaylistLinkStore` (Tests/Fixtures/README.md): every session and card is still there.
    @Test func aDataFolderOfTheEarlierVersionOpensWithEverySessionAndCard() async throws {
        let cli = try SpotLinkBinary()
        let data = try earlierDataFolder(in: cli, named: "earlier")
        let common = ["--data-dir", data.path]

        let list = try await cli.run(["session", "list"] + common)
        #expect(list.status == 0, "\(list.stderr)")
        for line in [
            "1  Morning routine  20 min  ♫ Morning Focus", "2  Evening wind-down  15 min  ♫ 37i9dQZF1DXcBWIGoYBM5M",
            "3  Unlinked",
        ] {
            #expect(list.stdout.contains(line), "missing: \(line)\n\(list.stdout)")
        }
        let show = try await cli.run(["session", "show", "1"] + common)
        #expect(
            show.stdout.contains("49 tracks · 2 h 50 min") && show.stdout.contains("cover: 11786 bytes cached"),
            "\(show.stdout)")
        #expect(try await cli.run(["session", "new", "After the move"] + common).stdout.contains("Created session 4"))
        // The doctor finds the file sound (it also reports no client ID and no network here).
        #expect(try await cli.run(["doctor"] + common).stdout.contains("✓ database: integrity ok"))
    }

    /// The journal and the links share the file's one writer, so deleting a session and its link is
    /// one transaction: when the session's row cannot go, the link stays too.
    @Test func aSessionDeleteThatFailsLeavesItsLink() async throws {
        let cli = try SpotLinkBinary()
        let data = try earlierDataFolder(in: cli, named: "refusing")
        let common = ["--data-dir", data.path]
        #expect(try await cli.run(["session", "list"] + common).status == 0)
        // The first command moved the earlier version's spotlink.sqlite to the app's name.
        let file = data.appendingPathComponent("links.sqlite")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("spotlink.sqlite").path))
        try await DatabaseQueue(path: file.path).write { db in
            try db.execute(
                sql: "CREATE TRIGGER refuse BEFORE DELETE ON session BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        let delete = try await cli.run(["session", "delete", "1"] + common)
        #expect(delete.status != 0)
        #expect(delete.stderr.contains("refused"), "\(delete.stderr)")
        let show = try await cli.run(["session", "show", "1"] + common)
        #expect(show.stdout.contains("Morning Focus"), "\(show.stdout)")
    }

    @Test func openRefreshDetachDeleteDoctorAndNowPlaying() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            _ = try await cli.login(common)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            #expect(try await cli.run(["session", "new", "A"] + common).status == 0)
            #expect(try await cli.run(["session", "attach", "1", deep] + common).status == 0)

            let open = try await cli.run(["open", "1", "--uri", "--json"] + common)
            #expect(open.status == 0)
            let opened = try #require(try JSONSerialization.jsonObject(with: Data(open.stdout.utf8)) as? [String: Any])
            #expect(opened["url"] as? String == "spotify:playlist:\(deep)")
            #expect(
                opened["urls"] as? [String] == [
                    "spotify:playlist:\(deep)", "https://open.spotify.com/playlist/\(deep)",
                ])
            #expect(opened["label"] as? String == "openSpotify")

            await emulator.control("playlists/\(deep)/rename", ["name": "Deep Work II"])
            let refresh = try await cli.run(["refresh", "--json"] + common)
            #expect(refresh.status == 0 && refresh.stdout.contains("\"refreshed\":1"))
            #expect(try await cli.run(["session", "list"] + common).stdout.contains("Deep Work II"))

            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            let playing = try await cli.run(["now-playing", "--json"] + common)
            #expect(playing.status == 0 && playing.stdout.contains("\"state\":\"playing\""))
            await emulator.control("player/stop")
            #expect(try await cli.run(["now-playing"] + common).stdout.contains("Nothing is playing"))

            let doctor = try await cli.run(["doctor", "--json"] + common)
            #expect(doctor.status == 0, "\(doctor.stdout)")
            let badRedirect = try await cli.run(
                ["doctor", "--redirect-uri", "http://localhost:8888/callback"] + common)
            #expect(badRedirect.status == 1)
            #expect(badRedirect.stdout.contains("http://127.0.0.1:8888/callback"))

            #expect(try await cli.run(["session", "detach", "1"] + common).stdout.contains("Detached"))
            #expect(try await cli.run(["session", "show", "1"] + common).stdout.contains("No playlist attached"))
            #expect(try await cli.run(["session", "delete", "1"] + common).status == 0)
            #expect(try await cli.run(["session", "show", "1"] + common).status == 1)
        }
    }
}
