import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

extension SpotLinkCommandTests {
    /// The journal's commands: what a mistake prints, and an import beside newer links.
    @Suite("spotlink session, export and import")
    struct Session {
        @Test(arguments: [
            (["session", "show", "99"], Int32(1), "no session"),
            (["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"], 1, "no session"),
            (["session", "attach", "1", "not-a-link"], 2, "not a spotify link"),
            (["frobnicate"], 2, "Unexpected argument"),
            (["emulator", "--shape", "sometimes"], 2, "one of '2026' and 'transition'"),
            (["emulator", "--refresh-rotation", "sometimes"], 2, "one of 'none' and 'rotate'"),
            (["session", "new", "X", "--minutes=-3"], 2, "from 1 to 1440"),
            (["playlists"], 2, "client ID"),
            (
                ["login", "--redirect-uri", "http://localhost:8888/callback", "--emulator", "http://127.0.0.1:9"], 2,
                "127.0.0.1"
            ),
            (["status", "--emulator", "http://127.0.0.1:9"], 3, "spotlink login"),
            (["login", "--timeout", "0", "--emulator", "http://127.0.0.1:9"], 2, "from 1 to 3600"),
        ])
        func failureModes(arguments: [String], status: Int32, message: String) async throws {
            let result = try await SpotLinkBinary().run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.lowercased().contains(message.lowercased()), "\(result.stderr)")
        }

        /// A pick keeps what the list showed (issue 69 §4): a followed playlist's count, which no
        /// refresh can read again from its songs, and a Spotify-owned one's name, with no promise
        /// that a refresh fills in what Spotify never shares.
        @Test(arguments: [("lo-fi", "Lo-Fi Focus Beats", "80 tracks"), ("today", "Today's Top Hits", "50 tracks")])
        func aPickShowsTheNameAndCountTheListShowed(filter: String, name: String, count: String) async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { emulator in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                _ = try await cli.login(common)
                let listed = try await cli.run(["playlists"] + common)
                #expect(listed.stdout.contains(name), "\(listed.stdout)")
                #expect(try await cli.run(["session", "new", "Study", "--minutes", "20"] + common).status == 0)
                let pick = try await cli.run(["session", "attach", "1", "--pick"] + common, input: "\(filter)\n1\n")
                #expect(pick.status == 0, "\(pick.stderr)")
                #expect(pick.stdout.contains("Attached \(name)") && pick.stdout.contains(count), "\(pick.stdout)")
                #expect(!pick.stdout.contains("filled in by 'spotlink refresh'"), "\(pick.stdout)")
                let shown = try await cli.run(["session", "show", "1"] + common)
                #expect(shown.stdout.contains(name) && shown.stdout.contains(count), "\(shown.stdout)")
                #expect(
                    !shown.stdout.contains("count unknown") && !shown.stdout.contains("count and duration unknown"),
                    "\(shown.stdout)")
            }
        }

        /// A sign-in nobody finishes (the page never loaded: a captive portal, a stalled proxy)
        /// says what it waits for when it starts, and at its deadline what did not happen and what
        /// to do (issue 66 item 2: it waited its whole timeout in silence, then "not finished in time").
        @Test func aLoginNobodyFinishesSaysWhatItWaitedFor() async throws {
            try await withEmulator { emulator in
                let result = try await SpotLinkBinary().run([
                    "login", "--no-browser", "--store", "file", "--timeout", "1", "--emulator",
                    emulator.baseURL.absoluteString,
                ])
                #expect(result.status == 1, "\(result.stderr)")
                #expect(
                    result.stderr.contains("Waiting up to 1 second for the browser to come back"), "\(result.stderr)")
                #expect(result.stderr.contains("No sign-in came back within 1 second"), "\(result.stderr)")
                #expect(result.stderr.contains("check the network connection"), "\(result.stderr)")
                #expect(await emulator.requestCount("POST /api/token") == 0)
            }
        }

        @Test func badLinkIsAUsageError() async throws {
            let cli = try SpotLinkBinary()
            #expect(try await cli.run(["session", "new", "X"]).status == 0)
            let result = try await cli.run(["session", "attach", "1", "https://example.com/playlist/x"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("not a Spotify link"))
        }

        /// A usage mistake is found by the parser's validation, before any work: exit 2, the reason and
        /// the usage, and no data folder made.
        @Test(arguments: [
            (["session", "attach", "1", "https://example.com/playlist/x"], "not a Spotify link"),
            (["session", "attach", "1"], "or use --pick"),
            (["session", "new", "  "], "needs a title"),
            (["session", "new", "Focus", "--minutes", "0"], "from 1 to 1440"),
            (["open", "track"], "Give the track to open"),
            (["open", "1", "spotify:track:4uLU6hMCjMI75M1A2tKUQC"], "followed by a link"),
            (["routine", "1", "--minutes=-5"], "more than 0 and at most 1440"),
            (["--emulator", "ftp://127.0.0.1", "status"], "needs a URL"),
        ])
        func usageErrorsStopBeforeAnyWork(_ arguments: [String], _ reason: String) async throws {
            let cli = try SpotLinkBinary()
            let folder = cli.home.appendingPathComponent("untouched")
            let result = try await cli.run(arguments + ["--data-dir", folder.path])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(reason) && result.stderr.contains("Usage:"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }

        /// Export, attach another playlist, import the export: the newer link stays and the summary says
        /// so; `--replace` takes the file's and says that.
        @Test func anImportNeverSilentlyReplacesANewerLink() async throws {
            let cli = try SpotLinkBinary()
            let data = ["--data-dir", cli.home.appendingPathComponent("data").path]
            let export = cli.home.appendingPathComponent("links.json").path
            #expect(try await cli.run(["session", "new", "Focus"] + data).status == 0)
            #expect(
                try await cli.run(["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"] + data).status
                    == 0)
            #expect(try await cli.run(["export", export] + data).status == 0)
            #expect(
                try await cli.run(["session", "attach", "1", "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M"] + data).status
                    == 0)

            let kept = try await cli.run(["import", export] + data)
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stdout.contains("0 replaced") && kept.stdout.contains("1 kept"), "\(kept.stdout)")
            #expect(kept.stdout.contains("session/1: kept this device's newer link"), "\(kept.stdout)")
            #expect(kept.stdout.contains("--replace"))
            #expect(try await linkedPlaylist() == "37i9dQZF1DXcBWIGoYBM5M")

            let replaced = try await cli.run(["import", export, "--replace", "--json"] + data)
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(
                replaced.stdout.contains("\"replaced\":1") && replaced.stdout.contains("\"kept\":[]"),
                "\(replaced.stdout)")
            #expect(try await linkedPlaylist() == "3cEYpjA9oz9GiPac4AsH4n")

            /// Session 1's playlist, as a fresh export says.
            func linkedPlaylist() async throws -> String? {
                let file = cli.home.appendingPathComponent("now-\(UUID().uuidString).json")
                #expect(try await cli.run(["export", file.path] + data).status == 0)
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
                let links = (object?["links"] as? [String: Any])?["links"] as? [[String: Any]]
                return links?.first?["playlist"] as? String
            }
        }
    }
}
