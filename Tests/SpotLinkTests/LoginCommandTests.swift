import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

extension SpotLinkCommandTests {
    /// Signing in, then every command on that sign-in; the user list; logging out wherever the tokens are.
    @Suite("spotlink login and logout")
    struct Login {
        @Test func loginThenEveryCommandAgainstAnEmulatorAndOffline() async throws {
            let cli = try SpotLinkBinary()
            var emulator = try await EmulatorServer.startForTest()
            // Stopped and restarted on purpose below; stopped on any failure too.
            do {
                let url = emulator.baseURL.absoluteString
                let common = ["--emulator", url]

                let login = try await cli.login(common)
                #expect(login.status == 0, "\(login.stderr)")
                #expect(login.stdout.contains("Signed in"))

                let status = try await cli.run(["status", "--json"] + common)
                #expect(status.status == 0)
                let statusObject = try #require(
                    try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
                #expect(statusObject["user"] as? String == "emu-user")
                let share = try #require(statusObject["quota_share"] as? [String: Any])
                #expect(share["per_device"] as? Int == 160 && share["background_budget"] as? Int == 80)
                let shared = try await cli.run(["status", "--apps", "2", "--users", "4"] + common)
                #expect(
                    shared.stdout.contains(
                        "share of the developer's quota: 100 requests a day (800 ÷ 2 apps ÷ 4 users ÷ 1 device)"))
                #expect(shared.stdout.contains("background work stops at 50"))
                #expect(try await cli.run(["status", "--users", "0"] + common).status == 2)

                let playlists = try await cli.run(["playlists", "--filter", "FOCUS", "--json"] + common)
                #expect(playlists.status == 0)
                #expect(playlists.stdout.contains("Morning Focus"))
                #expect(playlists.stdout.contains(#""unavailable":1"#))
                let listed = try await cli.run(["playlists"] + common)
                #expect(listed.stdout.contains("1 playlist in your library is no longer available on Spotify"))
                #expect(!listed.stdout.contains("Old Roadtrip"))
                let search = try await cli.run(["search", "focus", "--limit", "3", "--json"] + common)
                #expect(search.status == 0 && search.stdout.contains("next_offset"))
                // Found playlists carry the marks the library's list carries (issue 69 §4).
                let found = try await cli.run(["search", "focus", "--limit", "10"] + common)
                let lines = found.stdout.split(separator: "\n")
                #expect(
                    lines.contains { $0.contains("Morning Focus") && $0.contains("songs and length") },
                    "\(found.stdout)")
                #expect(
                    lines.contains { $0.contains("Focus Piano") && $0.contains("followed: name and cover only") },
                    "\(found.stdout)")
                let foundJSON = try await cli.run(["search", "focus", "--limit", "10", "--json"] + common)
                #expect(foundJSON.stdout.contains(#""access":"complete""#), "\(foundJSON.stdout)")
                #expect(try await cli.run(["search", "focus", "--limit", "11"] + common).status == 2)

                let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
                let show = try await cli.run(
                    ["playlist", "show", "https://open.spotify.com/intl-de/playlist/\(deep)?si=x", "--json"] + common)
                #expect(show.status == 0)
                #expect(show.stdout.contains("\"tracks\":50"))

                #expect(try await cli.run(["session", "new", "Focus block", "--minutes", "20"] + common).status == 0)
                let attach = try await cli.run(["session", "attach", "1", "spotify:playlist:\(deep)"] + common)
                #expect(attach.status == 0, "\(attach.stderr)")
                let card = try await cli.run(["session", "show", "1", "--json"] + common)
                let cardObject = try #require(
                    try JSONSerialization.jsonObject(with: Data(card.stdout.utf8)) as? [String: Any])
                let playlist = try #require(cardObject["playlist"] as? [String: Any])
                #expect(playlist["tracks"] as? Int == 50)
                #expect((playlist["cover_bytes"] as? Int ?? 0) > 0)

                await emulator.control("faults", ["kind": "429", "retry_after": "3600"])
                let limited = try await cli.run(["playlists"] + common)
                #expect(limited.status == 4, "\(limited.stderr)")
                #expect(limited.stderr.contains("retry after"))
                // The next process honours the cooldown the first one learned: it sends nothing.
                await emulator.resetStatistics()
                let stillLimited = try await cli.run(["search", "focus"] + common)
                #expect(
                    stillLimited.status == 4 && stillLimited.stderr.contains("rate limit"), "\(stillLimited.stderr)")
                #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)

                await emulator.stop()
                let offlineCard = try await cli.run(["session", "show", "1"] + common)
                #expect(offlineCard.status == 0)
                #expect(offlineCard.stdout.contains("Deep Work") && offlineCard.stdout.contains("50 tracks"))
                var later = cli
                later.extraEnvironment["SPOTLINK_CLOCK_OFFSET_SECONDS"] = "3700"
                // Offline, `playlists` and `status` say what they know, and that it is what was saved
                // (issue 69 §4; `playlists` exited 5 with nothing).
                let offline = try await later.run(["playlists"] + common)
                #expect(offline.status == 0, "\(offline.stderr)")
                #expect(
                    offline.stdout.contains("Spotify can't be reached; showing the playlists saved"),
                    "\(offline.stdout)")
                #expect(offline.stdout.contains("Deep Work"), "\(offline.stdout)")
                let offlineJSON = try await later.run(["playlists", "--json"] + common)
                #expect(offlineJSON.stdout.contains(#""offline":true"#), "\(offlineJSON.stdout)")
                let offlineStatus = try await later.run(["status"] + common)
                #expect(offlineStatus.status == 0, "\(offlineStatus.stderr)")
                #expect(
                    offlineStatus.stdout.contains("Signed in as Emulator User at")
                        && offlineStatus.stdout.contains("as saved: Spotify can't be reached"),
                    "\(offlineStatus.stdout)")
                #expect(offlineStatus.stdout.contains("Requests to Spotify: "), "\(offlineStatus.stdout)")

                emulator = try await emulator.restarted()
                let export = cli.home.appendingPathComponent("links.json").path
                #expect(try await later.run(["playlists"] + common).status == 0)
                #expect(try await cli.run(["export", export] + common).status == 0)
                #expect(try await cli.run(["logout"] + common).status == 0)
                let signedOut = try await cli.run(["playlists"] + common)
                #expect(signedOut.status == 3)
                #expect(signedOut.stderr.contains("spotlink login"))
                // The logout forgot what Spotify said: the session keeps its link, the file holds no name.
                let forgotten = try await cli.run(["session", "show", "1"] + common)
                #expect(
                    !forgotten.stdout.contains("Deep Work") && forgotten.stdout.contains("open.spotify.com/playlist/"))
                let database = try Data(contentsOf: cli.home.appendingPathComponent("data/spotlink/links.sqlite"))
                #expect(database.range(of: Data("Deep Work".utf8)) == nil)
                #expect(try await cli.run(["import", export] + common).status == 0)
                #expect(try await cli.run(["session", "show", "1"] + common).stdout.contains("Deep Work"))
                await emulator.stop()
            } catch {
                await emulator.stop()
                throw error
            }
        }

        /// A user not on the app's user list finishes the sign-in and is then refused every call:
        /// `spotlink login` says so and exits 1, with the one `/me` it asks anyway. Once the account is
        /// added, the kept sign-in works.
        @Test func loginSaysWhenTheAccountIsNotOnTheUserList() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                await emulator.control("faults", ["kind": "403-not-registered", "path": "/v1/me"])
                let refused = try await cli.login(common)
                #expect(refused.status == 1, "\(refused.stderr)")
                #expect(
                    refused.stderr.contains("Signed in, but Spotify refuses")
                        && refused.stderr.contains("User Management"))
                #expect(!refused.stdout.contains("Signed in"))
                #expect(await emulator.requestCount("GET /v1/me") == 1)
                let playlists = try await cli.run(["playlists"] + common)
                #expect(playlists.status == 0, "\(playlists.stderr)")
                let login = try await cli.login(["--json"] + common)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(login.stdout.utf8)) as? [String: Any])
                #expect(object["account_id"] as? String == "acct-emu-user")
            }
        }

        @Test func logoutFindsTheTokensWhereverTheyAreAndSaysWhere() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                // The settings that named the store are gone: the old logout looked in the default store only.
                try FileManager.default.removeItem(at: cli.home.appendingPathComponent("config/spotlink/settings.json"))
                let logout = try await cli.run(["logout"] + common)
                #expect(logout.status == 0)
                #expect(logout.stdout.contains("removed from the file"), "\(logout.stdout)")
                #expect(logout.stdout.contains("up to an hour"))
                let tokens = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path).filter {
                    $0.contains("tokens-") && $0.hasSuffix(".json")
                }
                #expect(tokens.isEmpty, "\(tokens)")
                #expect(try await cli.run(["status"] + common).status == 3)
                let again = try await cli.run(["logout", "--json"] + common)
                #expect(
                    again.stdout.contains("\"removed_from\":[]") && again.stdout.contains("\"forgot_details\":true"))
                let keeping = try await cli.run(["logout", "--keep-details"] + common)
                #expect(keeping.stdout.contains("The saved playlist details stay on this device."), "\(keeping.stdout)")
            }
        }

        /// The case the old logout got wrong: tokens in the keyring, settings gone, and a logout that
        /// looked in the file store only. Needs the keyring daemon CI runs (`.ci/with-keyring`).
        @Test(
            .enabled(
                if: ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil,
                "needs a D-Bus session with a keyring"))
        func logoutEmptiesTheKeyringEvenWhenTheSettingsAreGone() async throws {
            var cli = try SpotLinkBinary()
            cli.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] =
                ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                let login = try await cli.login(["--store", "secret-service"] + common)
                guard login.status == 0 else {
                    // Without a usable keyring daemon there is nothing to test; CI has one and requires it.
                    #expect(
                        ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_SECRET_SERVICE"] != "1", "\(login.stderr)"
                    )
                    return
                }
                try FileManager.default.removeItem(at: cli.home.appendingPathComponent("config/spotlink/settings.json"))
                let logout = try await cli.run(["logout"] + common)
                #expect(logout.stdout.contains("removed from the Secret Service"), "\(logout.stdout)")
                // Nothing is left in the keyring: signing in is needed again.
                let again = try await cli.run(["logout", "--json"] + common)
                #expect(again.stdout.contains("\"removed_from\":[]"), "\(again.stdout)")
            }
        }
    }
}
