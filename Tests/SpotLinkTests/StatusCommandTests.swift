import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

extension SpotLinkCommandTests {
    /// What the quota, the cooldowns and the refusals print, and what the app may do.
    @Suite("spotlink status and doctor")
    struct Status {
        @Test func aQuotaLearnedByOneProcessKeepsEveryLaterOneQuietUntilItEnds() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
                #expect(try await cli.run(["session", "new", "Focus"] + common).status == 0)
                #expect(try await cli.run(["session", "attach", "1", deep] + common).status == 0)
                await emulator.control("faults", ["kind": "429-quota", "retry_after": "43200"])
                let first = try await cli.run(["playlists"] + common)
                #expect(first.status == 4)
                #expect(
                    first.stderr.contains("daily request quota") && first.stderr.contains("about 12 h, around "),
                    "\(first.stderr)")
                #expect(first.stderr.contains("readable offline"))
                // As if the refusal had come after sixty requests in the day: enough to learn from.
                let ledger = try DatabaseQueue(
                    path: cli.home.appendingPathComponent("data/spotlink/spotify-requests.sqlite").path)
                try await ledger.write { db in try db.execute(sql: "UPDATE quotaRefusal SET windowCount = 60") }
                try ledger.close()
                await emulator.resetStatistics()
                for arguments in [
                    ["playlists"], ["search", "focus"], ["playlist", "show", deep], ["now-playing"], ["refresh"],
                ] {
                    let result = try await cli.run(arguments + common)
                    #expect(result.status == 4, "\(arguments): \(result.stderr)")
                }
                #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
                // Saved cards still read.
                let card = try await cli.run(["session", "show", "1"] + common)
                #expect(card.status == 0 && card.stdout.contains("Deep Work"))
                let status = try await cli.run(["status"] + common)
                #expect(status.status == 0, "\(status.stderr)")
                #expect(status.stdout.contains("Cooldown: Spotify's daily request quota"))
                #expect(status.stdout.contains("Requests to Spotify: ") && status.stdout.contains("GET /me/playlists"))
                let json = try await cli.run(["status", "--json"] + common)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
                #expect((object["cooldown"] as? [String: Any])?["kind"] as? String == "quota")
                #expect(((object["requests"] as? [String: Any])?["by_outcome"] as? [String: Int])?["429"] == 1)
                // The limit learned from the refusal is shown by both (issue 66 item 8).
                #expect(
                    status.stdout.contains(
                        "Learned limit: Spotify refused this app after 60 requests in a day (learned "),
                    "\(status.stdout)")
                #expect(status.stdout.contains("background work stops at 45 a day."), "\(status.stdout)")
                // The share's line says the same stop, not the share's own 80 (issue 69 §4).
                #expect(
                    status.stdout.contains(
                        "background work stops at 45, the learned limit's (80 by this share alone)."),
                    "\(status.stdout)")
                let learned = try #require(object["learned_limit"] as? [String: Any], "\(json.stdout)")
                #expect(learned["limit"] as? Int == 60 && learned["background_budget"] as? Int == 45)
                let doctor = try await cli.run(["doctor"] + common)
                #expect(doctor.stdout.contains("✗ request quota: Spotify's daily request quota"), "\(doctor.stdout)")
                #expect(doctor.stdout.contains("; Spotify refused this app after 60 requests"), "\(doctor.stdout)")
                #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
                // Half a day later the cooldown has ended by itself.
                var later = cli
                later.extraEnvironment["SPOTLINK_CLOCK_OFFSET_SECONDS"] = "43300"
                let after = try await later.run(["playlists"] + common)
                #expect(after.status == 0, "\(after.stderr)")
                #expect(await emulator.totalRequests(prefix: "GET /v1/") == 1)
            }
        }

        /// `doctor --online` asks Spotify what this app may do, in at most five requests, and says what
        /// to do about each finding; an unlisted account is found in one request.
        @Test func doctorOnlineReportsWhatTheAppMayDo() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                let before = await emulator.totalRequests(prefix: "GET /v1/")
                let doctor = try await cli.run(["doctor", "--online", "--json"] + common)
                #expect(doctor.status == 0, "\(doctor.stdout) \(doctor.stderr)")
                let sent = await emulator.totalRequests(prefix: "GET /v1/") - before
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
                let report = try #require(object["capabilities"] as? [String: Any], "\(object)")
                #expect(report["requests_spent"] as? Int == sent && sent <= 5, "sent \(sent): \(report)")
                #expect(report["client_generation"] as? String == "newer" && report["user_listed"] as? Bool == true)
                #expect(report["playlist_entries_readable"] as? Bool == true)

                // A server error is reported, not retried: the report keeps to what it says it sent
                // (issue 66 item 8; a retried 5xx made six requests of a report that said three).
                await emulator.control("faults", ["kind": "500", "count": "1"])
                let failingFrom = await emulator.totalRequests(prefix: "GET /v1/")
                let failed = try await cli.run(["doctor", "--online"] + common)
                #expect(failed.status == 1)
                #expect(failed.stdout.contains("✗ what this app may do: "), "\(failed.stdout)")
                #expect(await emulator.totalRequests(prefix: "GET /v1/") - failingFrom == 1)

                await emulator.control("faults", ["kind": "403-not-registered", "count": "10"])
                let refused = try await cli.run(["doctor", "--online"] + common)
                #expect(refused.status == 1)
                #expect(refused.stdout.contains("✗ user list: this Spotify account is not on the app's list of users"))
                #expect(refused.stdout.contains("User Management"), "\(refused.stdout)")
                #expect(refused.stdout.contains("this report sent 1"), "\(refused.stdout)")
            }
        }

        @Test func eachRefusalPrintsItsOwnActionableSentence() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                var seen: Set<String> = []
                for (kind, exit, says) in [
                    ("403-not-registered", Int32(1), "User Management"), ("403-premium", 1, "Premium"),
                    ("403-scope", 3, "spotlink login"),
                ] {
                    await emulator.control("faults", ["kind": kind])
                    let result = try await cli.run(["playlists"] + common)
                    #expect(result.status == exit, "\(kind): \(result.stderr)")
                    #expect(result.stderr.contains(says), "\(kind): \(result.stderr)")
                    seen.insert(result.stderr)
                }
                #expect(seen.count == 3)
                await emulator.control("faults", ["kind": "403-scope", "path": "/v1/me/player"])
                let playing = try await cli.run(["now-playing"] + common)
                #expect(playing.status == 3)
                #expect(
                    playing.stderr.contains("spotlink login --scope user-read-currently-playing"), "\(playing.stderr)")
                // A transient 401 is waited out; the sign-in stays.
                await emulator.control("faults", ["kind": "401-transient"])
                #expect(try await cli.run(["playlists"] + common).status == 0)
                // Adding a scope signs in again with the consent page and keeps the others.
                let added = try await cli.login(["--scope", "user-top-read", "--json"] + common)
                #expect(added.status == 0, "\(added.stderr)")
                #expect(added.stderr.contains("show_dialog=true"))
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
                let scopes = try #require(object["scopes"] as? [String])
                #expect(scopes.contains("user-top-read") && scopes.contains("user-read-currently-playing"))
                let status = try await cli.run(["status", "--json"] + common)
                let statusObject = try #require(
                    try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
                #expect(statusObject["account_id"] as? String == "acct-emu-user")
            }
        }
    }
}
