import Foundation
import HTTPTypes
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyWebAPI

private let quotaBody = #"{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}"#
private let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "app")

private func quota(retryAfter: String?) -> ScriptedTransport.Reply {
    .json(quotaBody, status: 429, headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
}

@Suite("The request quota: typed errors and a cooldown every client honours")
struct QuotaCooldownTests {
    @Test func quotaExceededIsItsOwnCodeWithTheWaitTheMomentAndWhatStillWorks() async throws {
        let clock = VirtualClock(mode: .automatic)
        let transport = ScriptedTransport([quota(retryAfter: "43200")])
        let client = makeClient(transport, clock: clock)
        let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(error.code == .quotaExceeded)
        #expect(error.status == 429)
        #expect(error.retryAfter == .seconds(43200))
        #expect(error.retryAt == clock.now.addingTimeInterval(43200))
        #expect(error.message.contains("daily request quota"))
        #expect(error.message.contains("about 12 h, around "))
        #expect(error.message.contains("readable offline"))
        // It is not waited out: nothing slept, one request only.
        #expect(clock.totalSlept == .zero)
        #expect(transport.requests.count == 1)
    }

    @Test func noRequestLeavesWhileTheCooldownLastsAndTheFirstAfterItGoes() async throws {
        let clock = VirtualClock(mode: .manual)
        let transport = ScriptedTransport([quota(retryAfter: "600"), .json(meJSON)])
        let store = MemoryRequestLedgerStore()
        let first = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, store: store))
        await #expect(throws: SpotifyAPIError.self) { try await first.currentUser() }
        // Another client of the same app (a second view, a second process sharing the store).
        let second = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, store: store))
        for client in [first, second] {
            let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
            #expect(error.code == .quotaExceeded)
            #expect(error.retryAfter == .seconds(600))
        }
        #expect(await second.cooldown()?.kind == .quota)
        #expect(transport.requests.count == 1)
        clock.advance(by: .seconds(599))
        await #expect(throws: SpotifyAPIError.self) { try await second.currentUser() }
        #expect(transport.requests.count == 1)
        // It ends by itself at the stated time.
        clock.advance(by: .seconds(1))
        #expect(await second.cooldown() == nil)
        #expect(try await second.currentUser().id == "tester")
        #expect(transport.requests.count == 2)
    }

    @Test func anotherAppOnTheSameDeviceIsNotStopped() async throws {
        let clock = VirtualClock(mode: .automatic)
        let transport = ScriptedTransport([quota(retryAfter: "600"), .json(meJSON)])
        let store = MemoryRequestLedgerStore()
        let limited = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, store: store))
        await #expect(throws: SpotifyAPIError.self) { try await limited.currentUser() }
        let other = RequestLedger(key: SpotifyAppKey(issuer: key.issuer, clientID: "other-app"), store: store)
        #expect(try await makeClient(transport, clock: clock, ledger: other).currentUser().id == "tester")
    }

    @Test(
        arguments: [
            ("1000000000", 86_400.0),  // hostile: capped at the quota window
            ("abc", 3_600.0),  // garbage: an hour, never a quick retry that lengthens the penalty
            (nil, 3_600.0),
            ("0", 3_600.0),
            ("-5", 3_600.0),
            ("49000", 49_000.0),
        ] as [(String?, Double)])
    func quotaRetryAfterValuesAreBounded(header: String?, expected: Double) async throws {
        let clock = VirtualClock(mode: .automatic)
        let transport = ScriptedTransport([quota(retryAfter: header)])
        let client = makeClient(transport, clock: clock)
        let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(error.code == .quotaExceeded)
        #expect(error.retryAfter == .seconds(expected))
    }

    @Test func quotaRetryAfterAsAnHTTPDate() async throws {
        let clock = VirtualClock(mode: .automatic)
        let date = HTTPDate.format(clock.now.addingTimeInterval(7200))
        let client = makeClient(ScriptedTransport([quota(retryAfter: date)]), clock: clock)
        let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(error.retryAfter == .seconds(7200))
    }

    @Test func aRateLimitLearnedByOneClientIsWaitedOutByAnother() async throws {
        let clock = VirtualClock(mode: .manual)
        let reopens = clock.now.addingTimeInterval(5)
        let transport = ScriptedTransport { _, _ in
            clock.now < reopens
                ? .apiError(429, "API rate limit exceeded", headers: ["Retry-After": "5"]) : .json(meJSON)
        }
        let store = MemoryRequestLedgerStore()
        let first = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, store: store))
        let second = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, store: store))
        let waiting = Task { try await first.currentUser() }
        try await clock.waitForSleepers(1)
        #expect(await second.cooldown()?.kind == .rateLimit)
        let other = Task { try await second.currentUser() }
        try await clock.waitForSleepers(2)
        // The second client sleeps instead of sending: one request so far.
        #expect(transport.requests.count == 1)
        clock.advance(by: .seconds(5))
        #expect(try await waiting.value.id == "tester")
        #expect(try await other.value.id == "tester")
        #expect(transport.requests.count == 3)
    }

    @Test func aLongRateLimitFailsFastWithItsOwnWording() async throws {
        let clock = VirtualClock(mode: .automatic)
        let transport = ScriptedTransport([.apiError(429, "API rate limit exceeded", headers: ["Retry-After": "7200"])])
        let error = try await #require(throws: SpotifyAPIError.self) {
            try await makeClient(transport, clock: clock).currentUser()
        }
        #expect(error.code == .rateLimited)
        #expect(error.message.contains("rate limit"))
        #expect(!error.message.contains("quota"))
        #expect(error.message.contains("about 2 h, around"))
    }
}

@Suite("The request ledger and the daily budget")
struct RequestLedgerTests {
    @Test func everyRequestIsCountedByEndpointAndOutcomeOverARolling24Hours() async throws {
        let clock = VirtualClock(mode: .automatic)
        let transport = ScriptedTransport { request, _ in
            request.path?.hasPrefix("/v1/me/player") == true ? .response(status: 204) : .json(meJSON)
        }
        let client = makeClient(transport, clock: clock)
        _ = try await client.currentUser()
        clock.advance(by: .seconds(7200))
        _ = try await client.currentUser()
        _ = try await client.currentlyPlaying()
        var usage = try await client.requestUsage()
        #expect(usage.last24Hours == 3)
        #expect(usage.lastHour == 2)
        #expect(
            usage.byRoute == [
                .init(route: "GET /me", count: 2), .init(route: "GET /me/player/currently-playing", count: 1),
            ])
        #expect(usage.byStatus == [200: 2, 204: 1] && usage.unanswered == 0)
        clock.advance(by: .seconds(86_400 - 7200 + 1))
        usage = try await client.requestUsage()
        #expect(usage.last24Hours == 2)
    }

    @Test func idsAreFoldedSoNoPlaylistIsNamedInTheLedger() async throws {
        let transport = ScriptedTransport([.apiError(404, "Resource not found")])
        let client = makeClient(transport)
        _ = try? await client.playlist(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        #expect(try await client.requestUsage().byRoute.map(\.route) == ["GET /playlists/{id}"])
        #expect(try await client.requestUsage().byStatus == [404: 1])
    }

    @Test func pastTheBudgetBackgroundWorkStopsAndWhatAPersonAsksForGoes() async throws {
        let clock = VirtualClock(mode: .automatic)
        let transport = ScriptedTransport { _, _ in .json(meJSON) }
        let client = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, dailyBudget: 3))
        for _ in 0..<3 { _ = try await SpotifyClient.withOrigin(.backgroundWork) { try await client.currentUser() } }
        let error = try await #require(throws: SpotifyAPIError.self) {
            try await SpotifyClient.withOrigin(.backgroundWork) { try await client.currentUser() }
        }
        #expect(error.code == .budgetExhausted)
        #expect(error.message.contains("budget of 3"))
        #expect(error.message.contains("What you ask for still works"))
        // The budget frees when the oldest request leaves the 24-hour window.
        #expect(error.retryAt == clock.now.addingTimeInterval(86_400))
        #expect(transport.requests.count == 3)
        _ = try await client.currentUser()
        #expect(transport.requests.count == 4)
        #expect(try await client.requestUsage().background24Hours == 3)
    }
}

@Suite("Identical requests in flight share one exchange; ETags revalidate")
struct SharedRequestTests {
    @Test func twoViewsAskingForTheSamePlaylistAtOnceCostOneRequest() async throws {
        let clock = VirtualClock(mode: .manual)
        let gate = TestGate()
        let transport = ScriptedTransport { _, _ in
            await gate.hold()
            return .json(#"{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"Shared","snapshot_id":"s1"}"#)
        }
        let client = makeClient(transport, clock: clock)
        let id = try SpotifyID("37i9dQZF1DXcBWIGoYBM5M")
        let first = Task { try await client.playlist(id) }
        let second = Task { try await client.playlist(id) }
        try await waitUntil { await client.inFlight.waiting == 2 }
        let other = Task { try await client.currentUser() }  // a different URL is not shared
        try await waitUntil { transport.requests.count == 2 }
        gate.open()
        #expect(try await first.value.name == "Shared")
        #expect(try await second.value.name == "Shared")
        _ = try? await other.value
        #expect(transport.requests.count == 2)
    }

    @Test func aCancelledCallerLeavesAtOnceAndTheOtherStillGetsTheAnswer() async throws {
        let gate = TestGate()
        let transport = ScriptedTransport { _, _ in
            await gate.hold()
            return .json(meJSON)
        }
        let client = makeClient(transport)
        let leaving = Task { try await client.currentUser() }
        let staying = Task { try await client.currentUser() }
        try await waitUntil { await client.inFlight.waiting == 2 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        gate.open()
        #expect(try await staying.value.id == "tester")
        #expect(transport.requests.count == 1)
    }

    /// The picker closed and opened again at once: the first view's only caller leaves, so its
    /// flight is dropped and its exchange cancelled, and the second view's caller starts a flight
    /// of its own. When the abandoned exchange ends first, it must not end the new flight: the
    /// second caller was never cancelled and gets the answer to its own request (F3: it got
    /// `CancellationError`, and its answer, sent and counted, was dropped).
    @Test func aCallerAfterOneThatLeftGetsItsOwnAnswerWhenTheAbandonedExchangeLandsFirst() async throws {
        let gates = [TestGate(), TestGate()]
        let calls = Lock(0)
        let transport = ScriptedTransport { _, _ in
            let call = calls.withLock { calls in
                defer { calls += 1 }
                return calls
            }
            await gates[call].hold()  // the transport ignores cancellation, as one mid-exchange may
            return .json(meJSON.replacingOccurrences(of: "tester", with: "answer-\(call)"))
        }
        let client = makeClient(transport)
        let leaving = Task { try await client.currentUser() }
        try await waitUntil("the first caller's request is sent") { gates[0].hasArrived }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        try await waitUntil("the abandoned flight is dropped") { await client.inFlight.flying == 0 }
        let staying = Task { try await client.currentUser() }
        try await waitUntil("the second caller's request is sent") { gates[1].hasArrived }
        gates[0].open()
        try await waitUntil("the abandoned exchange lands") { await client.inFlight.landed == 1 }
        #expect(await client.inFlight.waiting == 1, "the abandoned exchange ended the second caller's flight")
        gates[1].open()
        #expect(try await staying.value.id == "answer-1")
        #expect(transport.requests.count == 2)
        #expect(await client.inFlight.flying == 0)
    }

    @Test func anETagIsSentBackAndA304ReturnsTheKeptAnswer() async throws {
        let page = #"{"items":[],"limit":50,"offset":0,"total":0,"next":null}"#
        let transport = ScriptedTransport([
            .json(page, headers: ["ETag": "\"v1\""]), .response(status: 304, headers: ["ETag": "\"v1\""]),
        ])
        let client = makeClient(transport)
        let first = try await client.myPlaylists()
        let second = try await client.myPlaylists()
        #expect(first.total == 0 && second.total == 0)
        #expect(transport.requests[0].headerFields[.ifNoneMatch] == nil)
        #expect(transport.requests[1].headerFields[.ifNoneMatch] == "\"v1\"")
    }

    @Test func a304WithoutAKeptAnswerIsAnErrorNotAnEmptyAnswer() async throws {
        let transport = ScriptedTransport([.response(status: 304)])
        await #expect(throws: SpotifyAPIError.self) { try await makeClient(transport).myPlaylists() }
    }
}

@Suite("Limits in words")
struct LimitWordingTests {
    @Test(arguments: [(42.0, "42 s"), (59.2, "1 min"), (2400, "40 min"), (42_000, "11 h 40 min"), (43_200, "12 h")])
    func waits(seconds: Double, text: String) {
        #expect(LimitWording.approximate(.clampedSeconds(seconds)) == text)
    }

    @Test func clockTimeIsLocalAndSaysWhenItIsNotToday() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-22T16:40:00Z"))
        #expect(
            LimitWording.lift(after: .seconds(42_000), at: now.addingTimeInterval(42_000), now: now, timeZone: utc)
                == "about 11 h 40 min, around 04:20 tomorrow")
        #expect(LimitWording.clockTime(now.addingTimeInterval(600), now: now, timeZone: utc) == "16:50")
        #expect(
            LimitWording.clockTime(now.addingTimeInterval(3 * 86_400), now: now, timeZone: utc) == "16:40 on 2026-11-25"
        )
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(LimitWording.clockTime(now, now: now, timeZone: tokyo) == "01:40")
    }
}

@Suite("No token is fetched for a request that will not leave")
struct TokenOnlyWhenSentTests {
    /// Counts every token asked for: an expiring session would refresh on each.
    final class AskCounter: AccessTokenProvider {
        let asks = Lock(0)
        let scopes: Set<String>?
        init(scopes: Set<String>? = nil) { self.scopes = scopes }
        func accessToken() async throws -> AccessToken {
            asks.withLock { $0 += 1 }
            return AccessToken("t")
        }
        func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken { failed }
        func accessToken(for apiBaseURL: URL, scopes needed: [String]) async throws -> AccessToken {
            if let scopes { try SpotifyAPIError.requireScope(of: needed, granted: scopes) }
            return try await accessToken()
        }
    }

    /// The client asks its token provider one question per request, once it may leave: the token
    /// for this API and these scopes. A retry with a refreshed token asks for the refresh alone.
    @Test func oneQuestionPerRequest() async throws {
        final class Questions: AccessTokenProvider {
            let asked = Lock<[String]>([])
            func accessToken() async throws -> AccessToken {
                asked.withLock { $0.append("accessToken()") }
                return AccessToken("t1")
            }
            func accessToken(for apiBaseURL: URL, scopes: [String]) async throws -> AccessToken {
                asked.withLock { $0.append("for \(apiBaseURL.host ?? "") \(scopes.joined(separator: ","))") }
                return AccessToken("t1")
            }
            func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken {
                asked.withLock { $0.append("refreshed") }
                return AccessToken("t2")
            }
        }
        let tokens = Questions()
        let transport = ScriptedTransport([
            .json(#"{"id":"me"}"#),
            .apiError(401, "The access token expired"),
            .json(#"{"is_playing":false,"progress_ms":0,"timestamp":0,"currently_playing_type":"track"}"#),
        ])
        let client = makeClient(transport, tokens: tokens)
        _ = try await client.currentUser()
        #expect(tokens.asked.withLock { $0 } == ["for api.spotify.com "])
        _ = try await client.currentlyPlaying()
        #expect(
            tokens.asked.withLock { $0 }
                == [
                    "for api.spotify.com ", "for api.spotify.com user-read-currently-playing,user-read-playback-state",
                    "refreshed",
                ])
    }

    @Test func neitherDuringACooldownNorForAMissingScope() async throws {
        let clock = VirtualClock(mode: .automatic)
        let tokens = AskCounter(scopes: ["playlist-read-private"])
        let store = MemoryRequestLedgerStore()
        try await store.extendCooldown(
            Cooldown(kind: .quota, until: clock.now.addingTimeInterval(600), learnedAt: clock.now), for: key)
        let transport = ScriptedTransport([])
        let client = makeClient(transport, clock: clock, tokens: tokens, ledger: RequestLedger(key: key, store: store))
        await #expect(throws: SpotifyAPIError.self) { try await client.currentUser() }
        await #expect(throws: SpotifyAPIError.self) { try await client.currentlyPlaying() }
        #expect(tokens.asks.withLock { $0 } == 0)
        #expect(transport.requests.isEmpty)
    }
}

@Suite("A quota learned from Spotify's refusals")
struct LearnedQuotaTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static func refusal(_ hours: Double, _ count: Int) -> QuotaRefusal {
        QuotaRefusal(at: start.addingTimeInterval(hours * 3600), windowCount: count, retryAfter: nil)
    }
    static func learned(_ refusals: [QuotaRefusal], answered: Int = 0, atHour hours: Double) -> Int? {
        LearnedQuota.learning(from: refusals, answeredInWindow: answered, now: start.addingTimeInterval(hours * 3600))?
            .limit
    }

    /// The fewest seen, until a later window shows more: fewer in the same window lowers it, more
    /// a day or more later raises it, and so does the current window once it let more through.
    @Test func theFewestSeenUntilALaterWindowShowsMore() {
        #expect(Self.learned([], atHour: 1) == nil)
        #expect(Self.learned([Self.refusal(0, 1200)], atHour: 1) == 1200)
        // The same window, fewer: lowered. More within the day: not raised.
        #expect(Self.learned([Self.refusal(0, 1200), Self.refusal(3, 1100), Self.refusal(5, 1300)], atHour: 6) == 1100)
        // A later window refused at more: the developer's quota is higher now.
        #expect(Self.learned([Self.refusal(0, 1100), Self.refusal(30, 2600)], atHour: 31) == 2600)
        // And at fewer again: lowered again.
        #expect(Self.learned([Self.refusal(0, 2600), Self.refusal(30, 1500)], atHour: 31) == 1500)
        // The current window, wholly after the refusal, let 1,400 through: the limit is at least that.
        #expect(Self.learned([Self.refusal(0, 1100)], answered: 1400, atHour: 30) == 1400)
        // Not while the window still holds the refusal's day, nor for fewer.
        #expect(Self.learned([Self.refusal(0, 1100)], answered: 1400, atHour: 20) == 1100)
        #expect(Self.learned([Self.refusal(0, 1100)], answered: 900, atHour: 30) == 1100)
        // A refusal after fewer than 50 requests says the quota was spent elsewhere: no limit.
        #expect(Self.learned([Self.refusal(0, 0)], atHour: 1) == nil)
        #expect(Self.learned([Self.refusal(0, 1100), Self.refusal(2, 49)], atHour: 3) == 1100)
        // Thirty days on, nothing is left to learn from.
        #expect(Self.learned([Self.refusal(0, 1100)], atHour: 30 * 24 + 1) == nil)
    }

    /// Background work may spend three quarters of the limit: the rest is the margin, and what a
    /// person asks for.
    @Test func backgroundWorkGetsThreeQuarters() throws {
        let learned = try #require(
            LearnedQuota.learning(from: [Self.refusal(0, 1101)], answeredInWindow: 0, now: Self.start))
        #expect(learned.backgroundBudget == 825)
        #expect(learned.learnedAt == Self.start)
    }

    /// The app's own budget stays when it is lower than the learned one.
    @Test func theLowerOfTheAppsBudgetAndTheLearnedOne() async throws {
        let store = MemoryRequestLedgerStore()
        try await store.recordQuotaRefusal(Self.refusal(0, 1000), for: key)
        let now = Self.start.addingTimeInterval(3600)
        #expect(await RequestLedger(key: key, store: store, dailyBudget: 300).backgroundBudget(at: now) == 300)
        #expect(await RequestLedger(key: key, store: store, dailyBudget: 900).backgroundBudget(at: now) == 750)
        #expect(await RequestLedger(key: key, store: store).backgroundBudget(at: now) == 750)
    }

    /// What an action costs is told before it is taken, beside the day's count and the learned
    /// limit, and asking sends nothing.
    @Test func whatAnActionCostsIsToldBeforeItIsTaken() async throws {
        let store = MemoryRequestLedgerStore()
        let clock = VirtualClock(mode: .manual)
        let transport = ScriptedTransport { _, _ in .json(meJSON) }
        let client = makeClient(transport, clock: clock, ledger: RequestLedger(key: key, store: store))
        for _ in 0..<3 { _ = try await client.currentUser() }
        let big = try await client.estimatedCost(of: .readPlaylist(entries: 10_000))
        #expect(big.requests == 200...200 && big.spentToday == 3)
        #expect(big.learned == nil && big.fitsLearnedLimit == nil)
        #expect(SpotifyClient.CostlyAction.readPlaylist(entries: 0).requests == 1...1)
        #expect(SpotifyClient.CostlyAction.readPlaylist(entries: 51).requests == 2...2)
        #expect(SpotifyClient.CostlyAction.listMyPlaylists(about: 100).requests == 2...3)
        #expect(SpotifyClient.CostlyAction.requests(0...5).requests == 0...5)
        try await store.recordQuotaRefusal(QuotaRefusal(at: clock.now, windowCount: 150, retryAfter: nil), for: key)
        let after = try await client.estimatedCost(of: .readPlaylist(entries: 10_000))
        #expect(after.learned?.limit == 150 && after.fitsLearnedLimit == false)
        #expect(try await client.estimatedCost(of: .requests(0...5)).fitsLearnedLimit == true)
        #expect(transport.requests.count == 3, "an estimate sends nothing")
    }
}
