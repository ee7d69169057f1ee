import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyTesting
import Testing

@testable import SpotifyWebAPI

@Suite("Rate limits and retries, counted exactly (rows 29, 30)")
struct RetryProofTests {
    static let emptyPage = #"{"items":[],"limit":1,"offset":0,"total":0,"next":null}"#

    /// Once one 429 has been seen, nothing else is sent until its `Retry-After` has passed: one
    /// request learns the cooldown, forty-nine later ones wait without a request, then all fifty
    /// go once. A client whose requests each had to meet their own 429 sends 99.
    @Test func aCooldownLearnedOnceHoldsEveryLaterRequestWithoutSendingIt() async throws {
        let clock = VirtualClock(mode: .manual)
        let reopens = clock.now.addingTimeInterval(5)
        let transport = ScriptedTransport { _, _ in
            clock.now < reopens
                ? .apiError(429, "API rate limit exceeded", headers: ["Retry-After": "5"]) : .json(Self.emptyPage)
        }
        let client = makeClient(transport, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await client.myPlaylists(limit: 1, offset: 0) }
            try await clock.waitForSleepers(1)
            #expect(transport.requests.count == 1)
            for offset in 1..<50 { group.addTask { _ = try await client.myPlaylists(limit: 1, offset: offset) } }
            try await clock.waitForSleepers(50)
            #expect(transport.requests.count == 1, "requests went out during the cooldown")
            clock.advance(by: .seconds(5))
            try await group.waitForAll()
        }
        #expect(transport.requests.count == 51)
    }

    @Test func afterMaxRateLimitRetriesWaitsTheCallFailsTyped() async throws {
        let transport = ScriptedTransport { _, _ in
            .apiError(429, "API rate limit exceeded", headers: ["Retry-After": "2"])
        }
        let clock = VirtualClock(mode: .automatic)
        let client = makeClient(transport, clock: clock) { $0.maxRateLimitRetries = 2 }
        await #expect {
            try await client.currentUser()
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .rateLimited
        }
        #expect(transport.requests.count == 3)
        #expect(clock.totalSlept == .seconds(4))
    }

    /// Row 30's other half: a request that is not idempotent is sent once, whatever the 5xx.
    @Test(arguments: [HTTPRequest.Method.post, .put, .delete])
    func aNonIdempotentRequestIsNotRetriedOnA5xx(method: HTTPRequest.Method) async throws {
        let transport = ScriptedTransport { _, _ in .json("<html>502 Bad Gateway</html>", status: 502) }
        let clock = VirtualClock(mode: .automatic)
        let client = makeClient(transport, clock: clock)
        await #expect {
            try await client.send(Endpoint(method: method, path: "/me/tracks"), as: EmptyAnswer.self)
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .server
        }
        #expect(transport.requests.count == 1)
        #expect(clock.sleepCount == 0)
    }
}

private struct EmptyAnswer: Decodable, Sendable {}

/// A burst of 502 and 503 (the emulator's `5xx-burst`, Spotify unavailable): the client tries a
/// bounded number of times, reports it as the server's failure, never as a rate limit or a quota,
/// starts no cooldown, and the next call after the outage goes through.
@Suite("An outage is not a limit")
struct OutageTests {
    @Test func aBurstOf5xxIsUnavailableWithoutACooldownAndBounded() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let clock = VirtualClock(mode: .automatic)
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: StaticAccessTokenProvider(AccessToken(token)),
                transport: PatientTransport(),
                clock: clock)
            await emulator.control("faults", ["kind": "5xx-burst", "count": "50"])
            await #expect {
                try await client.currentUser()
            } throws: { error in
                let code = (error as? SpotifyAPIError)?.code
                return code == .server && code != .rateLimited && code != .quotaExceeded
            }
            let spent = await emulator.requestCount("GET /v1/me")
            #expect(spent == client.configuration.maxAttempts, "a bounded number of tries: \(spent)")
            #expect(await client.cooldown() == nil, "an outage starts no cooldown")
            await emulator.control("faults/clear")
            #expect(try await client.currentUser().id == "emu-user", "the next call tries again")
        }
    }
}

/// A client ID shared with other apps and devices meets 429s it did not earn, with a short
/// `Retry-After` (the emulator's `429-noisy`: 1–4 s at random, whatever the pace): the client
/// waits that long on its clock and retries once, inside its wait limit, and the user sees no error.
@Suite("A noisy neighbour's 429")
struct NoisyNeighbourTests {
    @Test(arguments: 0..<4)
    func aShortRateLimitIsWaitedOutAndRetriedOnce(round: Int) async throws {
        var configuration = EmulatorConfiguration()
        configuration.seed = UInt64(round)
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let clock = VirtualClock(mode: .automatic)
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: StaticAccessTokenProvider(AccessToken(token)),
                transport: PatientTransport(), clock: clock)
            await emulator.control("faults", ["kind": "429-noisy", "count": "1"])
            #expect(try await client.currentUser().id == "emu-user")
            #expect(await emulator.requestCount("GET /v1/me", status: 429) == 1)
            #expect(await emulator.requestCount("GET /v1/me", status: 200) == 1, "one retry, no more")
            #expect(
                clock.totalSlept >= .seconds(1) && clock.totalSlept <= .seconds(4),
                "the Retry-After waited, on the clock: \(clock.totalSlept)")
            #expect(client.configuration.maxRateLimitWait >= .seconds(4), "within the client's wait limit")
        }
    }
}
