import Foundation
import HTTPTypes
import SpotifyTesting
import SpotifyWebAPI
import Testing

@testable import SpotifyEmulator

@Suite("Virtual player and fault injection")
struct PlayerAndFaultTests {
    func virtual() -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.time = .virtual(start: Date(timeIntervalSince1970: 1_790_000_000))
        return configuration
    }

    func playing(_ emulator: EmulatorServer, _ token: String) async throws -> (status: Int, object: [String: Any]) {
        try await http.json(
            emulator.url("v1/me/player/currently-playing", [("additional_types", "track,episode")]), token: token)
    }

    @Test func trackChangesLandExactlyAtBoundaries() async throws {
        try await withEmulator(virtual()) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let id = try await emulator.playlistID(named: "Deep Work")
            #expect(try await playing(emulator, token).status == 204)
            #expect(await emulator.control("player/play", ["context_uri": "spotify:playlist:\(id)"]) == 200)
            let first = try await playing(emulator, token).object
            let item = try #require(first["item"] as? [String: Any])
            let duration = try #require(item["duration_ms"] as? Int)
            #expect(first["progress_ms"] as? Int == 0)
            #expect((first["context"] as? [String: Any])?["uri"] as? String == "spotify:playlist:\(id)")
            await emulator.advanceClock(by: .milliseconds(duration - 1))
            let before = try await playing(emulator, token).object
            #expect((before["item"] as? [String: Any])?["id"] as? String == item["id"] as? String)
            #expect(before["progress_ms"] as? Int == duration - 1)
            await emulator.advanceClock(by: .milliseconds(1))
            let after = try await playing(emulator, token).object
            #expect((after["item"] as? [String: Any])?["id"] as? String != item["id"] as? String)
            #expect(after["progress_ms"] as? Int == 0)
        }
    }

    @Test func pauseResumeSkipSeekAdAndEpisode() async throws {
        try await withEmulator(virtual()) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let calm = try await emulator.playlistID(named: "Calm Evening")
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(calm)", "position_ms": "5000"])
            await emulator.advanceClock(by: .seconds(10))
            await emulator.control("player/pause")
            await emulator.advanceClock(by: .seconds(100))
            var state = try await playing(emulator, token).object
            #expect(state["is_playing"] as? Bool == false)
            #expect(state["progress_ms"] as? Int == 15000)
            await emulator.control("player/resume")
            await emulator.advanceClock(by: .seconds(1))
            state = try await playing(emulator, token).object
            #expect(state["progress_ms"] as? Int == 16000)
            await emulator.control("player/ad", ["seconds": "30"])
            state = try await playing(emulator, token).object
            #expect(state["currently_playing_type"] as? String == "ad")
            #expect(state["item"] is NSNull)
            await emulator.advanceClock(by: .seconds(30))
            state = try await playing(emulator, token).object
            #expect(state["currently_playing_type"] as? String == "track")
            #expect(state["progress_ms"] as? Int == 16000)
            await emulator.control("player/next")
            state = try await playing(emulator, token).object
            #expect(state["progress_ms"] as? Int == 0)
            // Entry 30 of "Calm Evening" is an episode; entries 10 (gone) and 20 (local) are skipped.
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(calm)", "offset": "30"])
            state = try await playing(emulator, token).object
            #expect(state["currently_playing_type"] as? String == "episode")
            #expect((state["item"] as? [String: Any])?["type"] as? String == "episode")
            let noEpisodes = try await http.json(emulator.url("v1/me/player/currently-playing"), token: token).object
            #expect(noEpisodes["item"] is NSNull)
            let full = try await http.json(emulator.url("v1/me/player"), token: token).object
            #expect(full["device"] != nil)
            await emulator.control("player/stop")
            #expect(try await playing(emulator, token).status == 204)
        }
    }

    @Test func playbackEndsAfterTheLastTrack() async throws {
        try await withEmulator(virtual()) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let single = try await emulator.playlistID(named: "Single Spin")
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(single)"])
            await emulator.advanceClock(by: .seconds(1800))
            #expect(try await playing(emulator, token).status == 204)
        }
    }

    func makeClient(_ emulator: EmulatorServer, clock: VirtualClock = VirtualClock(mode: .automatic)) async
        -> SpotifyClient
    {
        SpotifyClient(
            configuration: .emulator(url: emulator.baseURL),
            tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
            transport: PatientTransport(), clock: clock)
    }

    @Test(arguments: [
        ("truncate", SpotifyAPIError.Code.transport), ("reset", .transport), ("502-html", .server), ("500", .server),
    ])
    func deliveryFaultsReachTheClientAsTypedErrors(kind: String, code: SpotifyAPIError.Code) async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = await makeClient(emulator)
            // Three attempts; a GET whose connection is reset before any answer is sent twice by
            // the transport in each (RFC 9112 §9.3.1), so a reset takes six faults to get through.
            await emulator.control("faults", ["kind": kind, "count": kind == "reset" ? "6" : "3"])
            await #expect {
                try await client.currentUser()
            } throws: { error in
                (error as? SpotifyAPIError)?.code == code
            }
            #expect(try await client.currentUser().id == "emu-user")
        }
    }

    @Test func forcedRateLimitCarriesTheGivenRetryAfter() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let clock = VirtualClock(mode: .automatic)
            let client = await makeClient(emulator, clock: clock)
            await emulator.control("faults", ["kind": "429", "retry_after": "7"])
            #expect(try await client.currentUser().id == "emu-user")
            #expect(clock.totalSlept == .seconds(7))
        }
    }

    @Test func rollingWindowRateLimitSaysHowLongToWait() async throws {
        var configuration = virtual()
        configuration.rateLimit = 3
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            for _ in 0..<3 { #expect(try await http.json(emulator.url("v1/me"), token: token).status == 200) }
            await emulator.advanceClock(by: .seconds(10))
            let (status, headers, body) = try await http.send(
                .get, emulator.url("v1/me"), headers: ["Authorization": "Bearer \(token)"])
            #expect(status == 429)
            #expect(headers[.retryAfter] == "20")
            // Word for word as live, and not the quota's body: no `reason`.
            #expect(
                String(decoding: body, as: UTF8.self)
                    == #"{"error":{"status":429,"message":"API rate limit exceeded"}}"#)
            await emulator.advanceClock(by: .seconds(20))
            #expect(try await http.json(emulator.url("v1/me"), token: token).status == 200)
        }
    }

    /// A player command's `PREMIUM_REQUIRED` is the user's own plan: its own refusal, never the
    /// owner's lapsed Premium, which stops the whole app.
    @Test func aUsersPremiumRefusalIsNotTheOwnersLapsedPremium() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = await makeClient(emulator)
            await emulator.control("faults", ["kind": "403-user-premium", "count": "1"])
            let user = try await #require(throws: SpotifyAPIError.self) { try await client.currentlyPlaying() }
            #expect(user.code == .userPremiumRequired)
            #expect(user.isRefusal && !user.refusesAccount)
            #expect(user.message.contains("Premium on your own account"))
            await emulator.control("faults", ["kind": "403-premium", "count": "1"])
            let owner = try await #require(throws: SpotifyAPIError.self) { try await client.currentlyPlaying() }
            #expect(owner.code == .ownerPremiumRequired)
            #expect(owner.refusesAccount)
        }
    }

    @Test func forcedTokenExpiry() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let status = await emulator.control("tokens/expire")
            #expect(status == 200)
            #expect(try await http.json(emulator.url("v1/me"), token: token).status == 401)
        }
    }

    @Test func playlistStateChangesForRefreshTests() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let id = try await emulator.playlistID(named: "Deep Work")
            let before =
                try await http.json(emulator.url("v1/playlists/\(id)"), token: token).object["snapshot_id"] as? String
            await emulator.control("playlists/\(id)/rename", ["name": "Deeper Work"])
            let renamed = try await http.json(emulator.url("v1/playlists/\(id)"), token: token).object
            #expect(renamed["name"] as? String == "Deeper Work")
            #expect(renamed["snapshot_id"] as? String != before)
            await emulator.control("playlists/\(id)/forbid")
            #expect(try await http.json(emulator.url("v1/playlists/\(id)"), token: token).status == 403)
            await emulator.control("playlists/\(id)/delete")
            await emulator.control("playlists/\(id)/restore")
            #expect(try await http.json(emulator.url("v1/playlists/\(id)"), token: token).status == 200)
        }
    }
}
