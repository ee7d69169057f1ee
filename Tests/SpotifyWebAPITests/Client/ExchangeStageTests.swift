import Foundation
import HTTPTypes
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Transport) @testable import SpotifyWebAPI

/// A `next` that answers from a script and keeps what it was sent.
private final class Terminal: Sendable {
    private let state: Lock<(sent: [HTTPRequest], replies: [Result<(HTTPResponse, Data), SpotifyAPIError>])>

    init(_ replies: [Result<(HTTPResponse, Data), SpotifyAPIError>]) {
        state = Lock((sent: [], replies: replies))
    }

    var sent: [HTTPRequest] { state.withLock { $0.sent } }

    func callAsFunction(_ request: HTTPRequest) throws -> (HTTPResponse, Data) {
        let reply = state.withLock { state -> Result<(HTTPResponse, Data), SpotifyAPIError> in
            state.sent.append(request)
            return state.replies.removeFirst()
        }
        return try reply.get()
    }
}

private func answer(_ status: Int, _ body: String = "", etag: String? = nil) -> Result<
    (HTTPResponse, Data), SpotifyAPIError
> {
    var fields = HTTPFields()
    if let etag { fields[.eTag] = etag }
    return .success((HTTPResponse(status: .init(code: status), headerFields: fields), Data(body.utf8)))
}

private let playlistURL = URL(string: "https://api.spotify.com/v1/playlists/37i9dQZF1DXcBWIGoYBM5M")!
private let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "app")
private let playlistRoute = ExchangeContext(route: "GET /playlists/{id}", background: true)
private let meInBackground = ExchangeContext(route: "GET /me", background: true)
private let meForAPerson = ExchangeContext(route: "GET /me", background: false)

@Suite("The request stages, each alone")
struct ExchangeStageTests {
    @Test func theConditionalStageAsksWithTheETagAndTurnsA304IntoTheBodyItStandsFor() async throws {
        let stage = ConditionalRequestStage(cache: ValidatorCache())
        let terminal = Terminal([answer(200, #"{"name":"Focus"}"#, etag: "\"v1\""), answer(304)])
        let first = try await stage.send(HTTPRequest(method: .get, url: playlistURL), playlistRoute) {
            try terminal($0)
        }
        #expect(first.0.status.code == 200)
        #expect(terminal.sent[0].headerFields[.ifNoneMatch] == nil)

        let second = try await stage.send(HTTPRequest(method: .get, url: playlistURL), playlistRoute) {
            try terminal($0)
        }
        #expect(terminal.sent[1].headerFields[.ifNoneMatch] == "\"v1\"")
        // The rest of the client never sees the 304: the answer is the body it stands for.
        #expect(second.0.status.code == 200)
        #expect(String(decoding: second.1, as: UTF8.self) == #"{"name":"Focus"}"#)
    }

    @Test func theConditionalStageLeavesWritesAndUntaggedAnswersAlone() async throws {
        let cache = ValidatorCache()
        await cache.remember(etag: "\"v1\"", body: Data("old".utf8), for: playlistURL)
        let stage = ConditionalRequestStage(cache: cache)
        let terminal = Terminal([answer(201, "{}"), answer(200, "fresh")])
        _ = try await stage.send(HTTPRequest(method: .post, url: playlistURL), playlistRoute) { try terminal($0) }
        #expect(terminal.sent[0].headerFields[.ifNoneMatch] == nil)
        // A 200 without an ETag keeps the validator it had; a failure is passed on as it is.
        _ = try await stage.send(HTTPRequest(method: .get, url: playlistURL), playlistRoute) { try terminal($0) }
        #expect(await cache.validator(for: playlistURL)?.etag == "\"v1\"")
    }

    @Test func theLedgerStageCountsEveryRequestWithItsStatusOrNone() async throws {
        let clock = VirtualClock()
        let ledger = RequestLedger(key: key)
        let stage = LedgerStage(ledger: ledger, clock: clock)
        let terminal = Terminal([answer(200), .failure(.timedOut)])
        _ = try await stage.send(HTTPRequest(method: .get, url: playlistURL), playlistRoute) { try terminal($0) }
        await #expect(throws: SpotifyAPIError.self) {
            try await stage.send(HTTPRequest(method: .get, url: playlistURL), playlistRoute) { try terminal($0) }
        }
        let usage = try await ledger.usage(at: clock.now)
        #expect(usage.last24Hours == 2)
        #expect(usage.background24Hours == 2)
        #expect(usage.byStatus == [200: 1] && usage.unanswered == 1)
        #expect(usage.byRoute.map(\.route) == ["GET /playlists/{id}"])
    }

    /// The budget is judged in the same step as the count: a background request past it is never
    /// sent (and not counted), a person's request is, and the refusal says when the budget reopens.
    @Test func backgroundWorkStopsAtTheDailyBudgetAndTheUserDoesNot() async throws {
        let clock = VirtualClock()
        let ledger = RequestLedger(key: key, dailyBudget: 2)
        let stage = LedgerStage(ledger: ledger, clock: clock)
        let terminal = Terminal([answer(200), answer(200), answer(200)])
        let first = clock.now
        _ = try await stage.send(HTTPRequest(method: .get, url: playlistURL), meInBackground) { try terminal($0) }
        clock.advance(by: .seconds(60))
        _ = try await stage.send(HTTPRequest(method: .get, url: playlistURL), meInBackground) { try terminal($0) }
        clock.advance(by: .seconds(60))
        let error = try await #require(throws: SpotifyAPIError.self) {
            try await stage.send(HTTPRequest(method: .get, url: playlistURL), meInBackground) { try terminal($0) }
        }
        #expect(error.code == .budgetExhausted)
        #expect(error.retryAt == first.addingTimeInterval(86_400))
        #expect(terminal.sent.count == 2)
        _ = try await stage.send(HTTPRequest(method: .get, url: playlistURL), meForAPerson) { try terminal($0) }
        #expect(terminal.sent.count == 3)
        #expect(try await ledger.usage(at: clock.now).last24Hours == 3)
    }

    @Test func stagesRunInOrderAroundTheTerminal() async throws {
        struct Mark: ExchangeStage {
            let name: String
            func send(
                _ request: HTTPRequest, _ context: ExchangeContext,
                next: (HTTPRequest) async throws -> (HTTPResponse, Data)
            ) async throws -> (HTTPResponse, Data) {
                var request = request
                request.headerFields[.init("X-Path")!] = (request.headerFields[.init("X-Path")!] ?? "") + name
                let (response, data) = try await next(request)
                return (response, data + Data(name.utf8))
            }
        }
        let terminal = Terminal([answer(200, "|")])
        let stages: [any ExchangeStage] = [Mark(name: "a"), Mark(name: "b")]
        let (_, data) = try await stages.send(HTTPRequest(method: .get, url: playlistURL), playlistRoute) {
            try terminal($0)
        }
        #expect(terminal.sent[0].headerFields[.init("X-Path")!] == "ab")
        #expect(String(decoding: data, as: UTF8.self) == "|ba")
    }
}

@Suite("One admission authority")
struct AdmissionTests {
    private func admission(_ clock: VirtualClock, _ ledger: RequestLedger, maxWait: Duration = .seconds(60))
        -> Admission
    {
        Admission(policy: .init(maxWait: maxWait), ledger: ledger, clock: clock, jitter: { 0 })
    }

    @Test func aRateLimitClosesTheWayForEveryRequestAndIsKeptForOtherProcesses() async throws {
        let clock = VirtualClock(mode: .automatic)
        let store = MemoryRequestLedgerStore()
        let here = admission(clock, RequestLedger(key: key, store: store))
        let decision = await here.rateLimited(retryAfter: .seconds(5))
        #expect(decision == .wait(.seconds(5)))
        #expect(await here.rateLimitCount == 1)
        // The ledger holds it: another process's admission waits it out too, without a 429 of its own.
        let elsewhere = admission(clock, RequestLedger(key: key, store: store))
        #expect(await elsewhere.cooldown()?.kind == .rateLimit)
        #expect(try await elsewhere.admit().get() == .wait(.seconds(5)))
        clock.advance(by: .seconds(2))
        #expect(try await here.admit().get() == .wait(.seconds(3)))
        #expect(try await elsewhere.admit().get() == .wait(.seconds(3)))
        clock.advance(by: .seconds(3))
        #expect(try await elsewhere.admit().get() == .proceed)
        #expect(await elsewhere.cooldown() == nil)
        #expect(clock.totalSlept == .zero, "the admission says how long to wait; it never sleeps")
    }

    /// One cooldown value: a shorter 429 after a longer one does not reopen the way early, here
    /// or in another process, and a rate limit learned during a quota cooldown does not replace it.
    @Test func aShorterCooldownNeverShortensTheOneInForce() async throws {
        let clock = VirtualClock(mode: .automatic)
        let store = MemoryRequestLedgerStore()
        let here = admission(clock, RequestLedger(key: key, store: store))
        #expect(await here.rateLimited(retryAfter: .seconds(10)) == .wait(.seconds(10)))
        #expect(await here.rateLimited(retryAfter: .seconds(1)) == .wait(.seconds(1)))
        clock.advance(by: .seconds(5))
        #expect(try await here.admit().get() == .wait(.seconds(5)))
        let elsewhere = admission(clock, RequestLedger(key: key, store: store))
        #expect(try await elsewhere.admit().get() == .wait(.seconds(5)))
        _ = await elsewhere.quotaExceeded(retryAfter: .seconds(600))
        #expect(await here.cooldown()?.kind == .quota)
        _ = await here.rateLimited(retryAfter: .seconds(900))
        #expect(await here.cooldown()?.kind == .quota)
        let refused = try await #require(throws: SpotifyAPIError.self) { try await here.admit().get() }
        #expect(refused.code == .quotaExceeded)
    }

    @Test func aQuotaCooldownRefusesAtOnceAndComesBeforeARateLimit() async throws {
        let clock = VirtualClock(mode: .automatic)
        let ledger = RequestLedger(key: key)
        let admission = admission(clock, ledger)
        _ = await admission.rateLimited(retryAfter: .seconds(30))
        let error = await admission.quotaExceeded(retryAfter: .seconds(600))
        #expect(error.code == .quotaExceeded)
        #expect(await admission.cooldown()?.kind == .quota)
        let refused = try await #require(throws: SpotifyAPIError.self) { try await admission.admit().get() }
        #expect(refused.code == .quotaExceeded)
        #expect(clock.totalSlept == .zero)
    }

    @Test func aWaitLongerThanARequestWaitsFailsInsteadOfSleeping() async throws {
        let clock = VirtualClock(mode: .automatic)
        let admission = admission(clock, RequestLedger(key: key), maxWait: .seconds(10))
        #expect(await admission.rateLimited(retryAfter: .seconds(120)) == .fail(retryAfter: .seconds(120)))
        clock.advance(by: .seconds(20))
        #expect(try await admission.admit().get() == .fail(retryAfter: .seconds(100)))
        #expect(clock.totalSlept == .zero)
    }

}
