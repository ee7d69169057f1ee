import Foundation
import HTTPTypes
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Transport) @testable import SpotifyWebAPI

@Suite("Retries, token refresh and rate limits (checklist rows 28–30)")
struct RetryTests {
    @Test func unauthorizedThenSuccessRefreshesOnceAndRetries() async throws {
        let transport = ScriptedTransport([.apiError(401, "The access token expired"), .json(meJSON)])
        let tokens = CountingTokenProvider()
        let user = try await makeClient(transport, tokens: tokens).currentUser()
        #expect(user.id == "tester")
        #expect(tokens.refreshes == 1)
        #expect(
            transport.requests.map { $0.headerFields[.authorization] } == [
                "Bearer SENTINEL_AT_1", "Bearer SENTINEL_AT_2",
            ])
    }

    @Test func unauthorizedTwiceIsAnErrorNotALoop() async throws {
        let transport = ScriptedTransport([
            .apiError(401, "Invalid access token"), .apiError(401, "Invalid access token"),
        ])
        let tokens = CountingTokenProvider()
        await #expect {
            try await makeClient(transport, tokens: tokens).currentUser()
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .unauthorized
        }
        #expect(transport.requests.count == 2)
        #expect(tokens.refreshes == 1)
    }

    @Test(
        arguments: [
            ("5", 5.0), ("0", nil), ("1.5", 1.5), ("-1", nil), ("abc", nil), (nil, nil),
        ] as [(String?, Double?)])
    func retryAfterValuesWaitOnTheClock(header: String?, expectedWait: Double?) async throws {
        let headers = header.map { ["Retry-After": $0] } ?? [:]
        let transport = ScriptedTransport([.apiError(429, "API rate limit exceeded", headers: headers), .json(meJSON)])
        let clock = VirtualClock(mode: .automatic)
        let user = try await makeClient(transport, clock: clock).currentUser()
        #expect(user.id == "tester")
        #expect(transport.requests.count == 2)
        if let expectedWait {
            #expect(clock.totalSlept == .clampedSeconds(expectedWait))
        } else {
            // Garbage falls back to backoff with jitter: 1 s base, up to 1.5 s.
            #expect(clock.totalSlept >= .seconds(1) && clock.totalSlept <= .milliseconds(1500))
        }
    }

    @Test func retryAfterAsHTTPDate() async throws {
        let clock = VirtualClock(mode: .automatic)
        let date = HTTPDate.format(clock.now.addingTimeInterval(7))
        let transport = ScriptedTransport([
            .apiError(429, "API rate limit exceeded", headers: ["Retry-After": date]), .json(meJSON),
        ])
        _ = try await makeClient(transport, clock: clock).currentUser()
        #expect(clock.totalSlept == .seconds(7))
    }

    @Test func hugeRetryAfterFailsFastAndKeepsTheGateClosed() async throws {
        let transport = ScriptedTransport([.apiError(429, "API rate limit exceeded", headers: ["Retry-After": "86400"])]
        )
        let clock = VirtualClock(mode: .automatic)
        let client = makeClient(transport, clock: clock)
        await #expect {
            try await client.currentUser()
        } throws: { error in
            guard let error = error as? SpotifyAPIError else { return false }
            return error.code == .rateLimited && error.retryAfter == .seconds(86400)
                && error.message.contains("retry after 86400 s")
        }
        // The next call fails at once without touching the network.
        await #expect(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(transport.requests.count == 1)
        #expect(clock.totalSlept == .zero)
        #expect(await client.cooldown()?.kind == .rateLimit)
    }

    /// A cooldown is learned once and shared: after one request meets a 429, forty-nine others
    /// wait at the gate without sending anything, and all fifty go when it reopens (one 429, fifty
    /// answers: 51 requests).
    @Test func fiftyConcurrentRequestsShareOneCooldown() async throws {
        let clock = VirtualClock(mode: .manual)
        let reopens = clock.now.addingTimeInterval(5)
        let page = #"{"items":[],"limit":1,"offset":0,"total":0,"next":null}"#
        let transport = ScriptedTransport { _, _ in
            clock.now < reopens ? .apiError(429, "API rate limit exceeded", headers: ["Retry-After": "5"]) : .json(page)
        }
        let client = makeClient(transport, clock: clock)
        // Fifty different requests (identical ones would share one exchange).
        try await withThrowingTaskGroup(of: Page<SimplifiedPlaylist>.self) { group in
            group.addTask { try await client.myPlaylists(limit: 1, offset: 0) }
            try await clock.waitForSleepers(1)
            #expect(transport.requests.count == 1, "the first request met the 429 and waits")
            for offset in 1..<50 { group.addTask { try await client.myPlaylists(limit: 1, offset: offset) } }
            try await clock.waitForSleepers(50)
            #expect(transport.requests.count == 1, "the others wait at the closed gate, sending nothing")
            clock.advance(by: .seconds(5))
            var count = 0
            for try await page in group {
                #expect(page.total == 0)
                count += 1
            }
            #expect(count == 50)
        }
        #expect(transport.requests.count == 51)
        #expect(clock.now == reopens)
    }

    @Test func serverErrorStormOnGETRetriesWithCappedBackoffThenFails() async throws {
        let transport = ScriptedTransport { _, _ in .json("<html>502 Bad Gateway</html>", status: 502) }
        let clock = VirtualClock(mode: .automatic)
        await #expect {
            try await makeClient(transport, clock: clock).currentUser()
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .server
        }
        #expect(transport.requests.count == 3)
        #expect(clock.sleepCount == 2)
        #expect(clock.totalSlept <= .seconds(3))
    }

    @Test func serverErrorThenSuccess() async throws {
        let transport = ScriptedTransport([
            .json("oops", status: 503), .failure(.transport("the connection was lost (reset)")), .json(meJSON),
        ])
        #expect(try await makeClient(transport).currentUser().id == "tester")
        #expect(transport.requests.count == 3)
    }

    @Test func transportErrorsBecomeTypedAfterTheBudget() async throws {
        let transport = ScriptedTransport { _, _ in .failure(.transport("could not connect (refused)")) }
        await #expect {
            try await makeClient(transport).currentUser()
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .transport
        }
        #expect(transport.requests.count == 3)
    }

    @Test func oversizedBodyIsAnErrorNotUnboundedMemory() async throws {
        let transport = ScriptedTransport([.json(String(repeating: " ", count: 2048) + meJSON)])
        let client = makeClient(transport) { $0.maxResponseBytes = 1024 }
        await #expect {
            try await client.currentUser()
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .responseTooLarge
        }
    }

    @Test func malformedBodyIsADecodingErrorWithATruncatedExcerpt() async throws {
        let body = #"{"display_name":"no id here","padding":""# + String(repeating: "x", count: 5000) + "\"}"
        let transport = ScriptedTransport([.json(body)])
        await #expect {
            try await makeClient(transport).currentUser()
        } throws: { error in
            guard let error = error as? SpotifyAPIError else { return false }
            return error.code == .decoding && error.message.count < 400
        }
    }

    @Test func forbiddenPlaylistItemsExplainOwnership() async throws {
        let transport = ScriptedTransport([.apiError(403, "Forbidden")])
        await #expect {
            try await makeClient(transport).playlistEntries(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        } throws: { error in
            (error as? SpotifyAPIError)?.message.contains("playlists you own or collaborate on") == true
        }
    }

    @Test func notFoundIsNotRetried() async throws {
        let transport = ScriptedTransport([.apiError(404, "Resource not found")])
        await #expect {
            try await makeClient(transport).playlist(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .notFound
        }
        #expect(transport.requests.count == 1)
    }

    @Test func currentlyPlayingIsNilFor204() async throws {
        let transport = ScriptedTransport([.response(status: 204)])
        #expect(try await makeClient(transport).currentlyPlaying() == nil)
        #expect(transport.requests[0].path?.contains("additional_types=track,episode") == true)
    }
}

@Suite("Requests are checked before they are sent")
struct ValidationTests {
    @Test(arguments: [0, 51, -1])
    func playlistLimits(limit: Int) async throws {
        let transport = ScriptedTransport([])
        await #expect {
            try await makeClient(transport).myPlaylists(limit: limit)
        } throws: { error in
            let error = error as? SpotifyAPIError
            return error?.code == .invalidRequest && error?.parameter == "limit"
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [(0, 0), (11, 0), (10, 1001), (5, -1)])
    func searchLimits(limit: Int, offset: Int) async throws {
        let transport = ScriptedTransport([])
        await #expect(throws: SpotifyAPIError.self) {
            try await makeClient(transport).searchPlaylists("focus", limit: limit, offset: offset)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func emptySearchIsRejected() async throws {
        let transport = ScriptedTransport([])
        await #expect(throws: SpotifyAPIError.self) { try await makeClient(transport).searchPlaylists("  ") }
    }

    @Test func searchQueryIsEncoded() async throws {
        let transport = ScriptedTransport([.json(#"{"playlists":{"items":[],"limit":10,"offset":0,"total":0}}"#)])
        _ = try await makeClient(transport).searchPlaylists("rock & roll+1 ü")
        let path = try #require(transport.requests.first?.path)
        #expect(path.contains("q=rock%20%26%20roll%2B1%20%C3%BC"))
        #expect(path.contains("type=playlist"))
    }

    @Test(arguments: ["", "short", "37i9dQZF1DXcBWIGoYBM5M1", "37i9dQZF1DXcBWIGoYBM5-"])
    func catalogIDs(text: String) {
        #expect(throws: SpotifyAPIError.self) { try SpotifyID(text) }
    }
}

/// A transport of an app's own that fails with its own error when its task is cancelled, as one
/// wrapping another HTTP stack may: the caller was cancelled, and gets `CancellationError`, not
/// "Could not reach Spotify" (which a model would show as offline), and nothing is tried again.
/// Every endpoint of the client is a GET, shared through `InFlightRequests`, whose cancelled
/// caller leaves with `CancellationError` at once, whatever the exchange later meets.
@Suite("A cancelled request is the caller's cancellation, whatever the transport throws")
struct CancelledTransportTests {
    final class FailsWhenCancelled: Transport {
        let gate = TestGate()
        let sends = Lock(0)

        func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws -> (
            HTTPResponse, Data
        ) {
            sends.withLock { $0 += 1 }
            await gate.hold()
            throw SpotifyAPIError(code: .transport, message: "the connection was closed")
        }
    }

    @Test func theCallerGetsCancellationErrorAndNothingIsRetried() async throws {
        let transport = FailsWhenCancelled()
        // One attempt: the failure is final, with no wait before a retry to notice the cancellation.
        var configuration = SpotifyClient.Configuration.live
        configuration.maxAttempts = 1
        let client = SpotifyClient(
            configuration: configuration, tokens: CountingTokenProvider(), transport: transport,
            clock: VirtualClock(mode: .automatic))
        let call = Task { try await client.currentUser() }
        try await waitUntil("the request reaches the transport") { transport.gate.hasArrived }
        call.cancel()
        transport.gate.open()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.sends.withLock { $0 } == 1)
    }
}
