import Foundation
import HTTPTypes
import Testing

@_spi(Transport) @testable import SpotifyWebAPI

/// The retry rules alone, without a network, a clock or a gate: each test feeds the machine what
/// happened and checks what it says to do, and what the state holds. Together they take every
/// event each state can receive; an event a state cannot receive traps.
@Suite("The request state machine")
struct ExchangeStateMachineTests {
    typealias Action = ExchangeStateMachine.Action
    typealias Tries = ExchangeStateMachine.Tries

    static let transient401 = Data(#"{"error":{"status":401,"message":"Access token missing"}}"#.utf8)
    static let expired401 = Data(#"{"error":{"status":401,"message":"The access token expired"}}"#.utf8)
    static let quota429 = Data(#"{"error":{"status":429,"message":"Quota","reason":"QUOTA_EXCEEDED"}}"#.utf8)
    static let api = URL(string: "https://api.spotify.com/v1/me")!
    static let token = AccessToken("first-token")
    static let refreshedToken = AccessToken("refreshed-token")

    static func get() -> ExchangeStateMachine {
        ExchangeStateMachine(idempotent: true, maxAttempts: 3, maxRateLimitRetries: 2)
    }

    static func response(_ status: Int) -> HTTPResponse { HTTPResponse(status: .init(code: status)) }

    /// A machine that has been admitted, given its token, and has a request out.
    static func sending(idempotent: Bool = true) -> ExchangeStateMachine {
        var machine = ExchangeStateMachine(idempotent: idempotent, maxAttempts: 3, maxRateLimitRetries: 2)
        _ = machine.start(destination: api)
        _ = machine.admission(.success(.proceed))
        _ = machine.tokenFetched(token)
        return machine
    }

    /// The answer `status` with `body` to the request out.
    static func answer(_ machine: inout ExchangeStateMachine, _ status: Int, _ body: Data = Data()) -> Action {
        machine.answered(response(status), body: body, retryAfter: nil, jitter: 0.5)
    }

    /// One whole exchange through the machine alone, as the shell would drive it: the token has
    /// expired (401), a refreshed one meets the rate limit (429), the admission says wait 3 s,
    /// and after the wait the request succeeds. The state holds the token sent at each step.
    @Test func oneWholeExchange401Refresh429WaitThen200() {
        var machine = Self.get()
        #expect(machine.state == .initialized)
        #expect(machine.start(destination: Self.api) == .admit)
        #expect(machine.state == .admitting(token: nil, Tries()))
        #expect(machine.admission(.success(.proceed)) == .fetchToken)
        #expect(machine.state == .authorizing(Tries()))
        #expect(machine.tokenFetched(Self.token) == .send(Self.token))
        #expect(machine.state == .sending(token: Self.token, Tries()))
        #expect(Self.answer(&machine, 401, Self.expired401) == .refreshToken(replacing: Self.token))
        var refreshed = Tries()
        refreshed.refreshedAfter401 = true
        #expect(machine.state == .refreshing(refused: Self.token, refreshed))
        #expect(machine.refreshed(Self.refreshedToken) == .admit)
        #expect(machine.state == .admitting(token: Self.refreshedToken, refreshed))
        #expect(machine.admission(.success(.proceed)) == .send(Self.refreshedToken))
        #expect(
            machine.answered(Self.response(429), body: Data(), retryAfter: .seconds(3), jitter: 0.5)
                == .reportRateLimit(retryAfter: .seconds(3)))
        #expect(machine.state == .reportingRateLimit(token: Self.refreshedToken, refreshed))
        #expect(machine.rateLimitReported(.wait(.seconds(3))) == .sleep(.seconds(3)))
        refreshed.rateLimitWaits = 1
        #expect(machine.state == .waiting(token: Self.refreshedToken, refreshed))
        #expect(machine.woke() == .admit)
        #expect(machine.admission(.success(.proceed)) == .send(Self.refreshedToken))
        let body = Data("{}".utf8)
        #expect(Self.answer(&machine, 200, body) == .succeed(Self.response(200), body))
        #expect(machine.state == .finished)
    }

    /// A bearer token goes only over https, or plain http to this machine: any other destination
    /// is refused before the admission is even asked.
    @Test func anInsecureDestinationIsRefusedBeforeAnythingElse() {
        for secure in ["https://api.spotify.com/v1/me", "http://127.0.0.1:8080/v1/me", "http://localhost/v1/me"] {
            var machine = Self.get()
            #expect(machine.start(destination: URL(string: secure)!) == .admit, "\(secure)")
        }
        var machine = Self.get()
        let action = machine.start(destination: URL(string: "http://api.spotify.com/v1/me")!)
        guard case .refuse(let error) = action else {
            Issue.record("plain http to another host was not refused: \(action)")
            return
        }
        #expect(error.code == .invalidRequest && error.parameter == "apiBaseURL")
        #expect(error.message.contains("http://api.spotify.com"))
        #expect(machine.state == .finished)
    }

    /// The admission's waits are the machine's own sleeps; its refusal, and a quota cooldown, are
    /// final, and nothing is sent before them. A wait before the first try keeps the machine without a token: it is
    /// asked for only once the request may leave.
    @Test func theAdmissionsWaitIsASleepAndItsRefusalFails() {
        var machine = Self.get()
        _ = machine.start(destination: Self.api)
        #expect(machine.admission(.success(.wait(.seconds(4)))) == .sleep(.seconds(4)))
        #expect(machine.state == .waiting(token: nil, Tries()))
        #expect(machine.woke() == .admit)
        #expect(machine.admission(.success(.proceed)) == .fetchToken)
        var refused = Self.get()
        _ = refused.start(destination: Self.api)
        #expect(refused.admission(.success(.fail(retryAfter: .seconds(600)))) == .failRateLimited(wait: .seconds(600)))
        #expect(refused.state == .finished)
        var cooling = Self.get()
        _ = cooling.start(destination: Self.api)
        let cooldown = SpotifyAPIError(code: .quotaExceeded, message: "the quota is cooling down")
        #expect(cooling.admission(.failure(cooldown)) == .refuse(cooldown))
        #expect(cooling.state == .finished)
    }

    /// After a wait the request goes out again with the token it holds: the provider is asked once.
    @Test func aRetrySendsTheTokenItHoldsWithoutAskingAgain() {
        var machine = Self.sending()
        #expect(Self.answer(&machine, 503) == .sleep(.milliseconds(500)))
        #expect(machine.woke() == .admit)
        #expect(machine.admission(.success(.proceed)) == .send(Self.token))
        var failed = Tries()
        failed.failures = 1
        #expect(machine.state == .sending(token: Self.token, failed))
    }

    @Test func aTransient401PausesTwiceThenRefreshesOnceThenFails() {
        var machine = Self.sending()
        let answer = { (machine: inout ExchangeStateMachine) -> Action in
            let action = Self.answer(&machine, 401, Self.transient401)
            switch action {
            case .sleep: _ = machine.woke(); _ = machine.admission(.success(.proceed))
            case .refreshToken: _ = machine.refreshed(Self.refreshedToken); _ = machine.admission(.success(.proceed))
            default: break
            }
            return action
        }
        #expect(answer(&machine) == .sleep(.seconds(1)))
        #expect(answer(&machine) == .sleep(.seconds(2)))
        #expect(answer(&machine) == .refreshToken(replacing: Self.token))
        #expect(answer(&machine) == .failAnswer(Self.response(401), Self.transient401))
        #expect(machine.state == .finished)
    }

    @Test func anExpiredTokenIsRefreshedOnceAndASecond401Fails() {
        var machine = Self.sending()
        #expect(Self.answer(&machine, 401, Self.expired401) == .refreshToken(replacing: Self.token))
        _ = machine.refreshed(Self.refreshedToken)
        _ = machine.admission(.success(.proceed))
        #expect(Self.answer(&machine, 401, Self.expired401) == .failAnswer(Self.response(401), Self.expired401))
    }

    @Test func serverErrorsAreRetriedForGETsOnlyUpToTheAttempts() {
        var get = Self.sending()
        #expect(Self.answer(&get, 503) == .sleep(.milliseconds(500)))
        _ = get.woke()
        _ = get.admission(.success(.proceed))
        #expect(Self.answer(&get, 502) == .sleep(.seconds(1)))
        _ = get.woke()
        _ = get.admission(.success(.proceed))
        #expect(Self.answer(&get, 500) == .failAnswer(Self.response(500), Data()))
        var post = Self.sending(idempotent: false)
        #expect(Self.answer(&post, 503) == .failAnswer(Self.response(503), Data()))
    }

    @Test func transportFailuresShareTheAttemptsWithServerErrors() {
        var machine = Self.sending()
        #expect(machine.transportFailed(.timedOut, jitter: 0.5) == .sleep(.milliseconds(500)))
        _ = machine.woke()
        _ = machine.admission(.success(.proceed))
        #expect(Self.answer(&machine, 500) == .sleep(.seconds(1)))
        _ = machine.woke()
        _ = machine.admission(.success(.proceed))
        let reset = SpotifyAPIError.transport("the connection was lost (reset)")
        #expect(machine.transportFailed(reset, jitter: 0.5) == .failTransport(reset))
        var post = Self.sending(idempotent: false)
        #expect(post.transportFailed(.timedOut, jitter: 0.5) == .failTransport(.timedOut))
    }

    /// Another try cannot help a body over the limit, nor an address where nothing answers.
    @Test func anOversizedBodyAndNothingAnsweringAreNeverRetried() {
        for error in [SpotifyAPIError.responseTooLarge(limit: 1024), .refused("could not connect (refused)")] {
            var machine = Self.sending()
            #expect(machine.transportFailed(error, jitter: 0) == .failTransport(error))
            #expect(machine.state == .finished)
        }
    }

    /// The ledger's refusal past the daily budget ends the exchange as a refusal: nothing was sent,
    /// and nothing is tried again.
    @Test func theLedgersBudgetRefusalIsFinal() {
        var machine = Self.sending()
        let spent = SpotifyAPIError(code: .budgetExhausted, message: "the day's budget is spent")
        #expect(machine.transportFailed(spent, jitter: 0.5) == .refuse(spent))
        #expect(machine.state == .finished)
    }

    @Test func backoffDoublesToEightSecondsAndJitterSpreadsItByAQuarter() {
        #expect(ExchangeStateMachine.backoff(after: 1, jitter: 0.5) == .milliseconds(500))
        #expect(ExchangeStateMachine.backoff(after: 2, jitter: 0.5) == .seconds(1))
        #expect(ExchangeStateMachine.backoff(after: 5, jitter: 0.5) == .seconds(8))
        #expect(ExchangeStateMachine.backoff(after: 30, jitter: 0.5) == .seconds(8))
        #expect(ExchangeStateMachine.backoff(after: 1, jitter: 0) == .milliseconds(375))
        #expect(ExchangeStateMachine.backoff(after: 1, jitter: 1) == .milliseconds(625))
    }

    @Test func theQuotaFailsAtOnceAndARateLimitIsReported() {
        var machine = Self.sending()
        #expect(
            machine.answered(Self.response(429), body: Self.quota429, retryAfter: .seconds(43_200), jitter: 0)
                == .failQuota(retryAfter: .seconds(43_200)))
        #expect(machine.state == .finished)
        var other = Self.sending()
        #expect(
            other.answered(Self.response(429), body: Data(), retryAfter: .seconds(3), jitter: 0)
                == .reportRateLimit(retryAfter: .seconds(3)))
    }

    @Test func rateLimitWaitsAreCountedAndARefusalIsFinal() {
        var machine = Self.sending()
        let limited = { (machine: inout ExchangeStateMachine, decision: RateLimitGate.Decision) -> Action in
            _ = machine.answered(Self.response(429), body: Data(), retryAfter: .seconds(3), jitter: 0)
            let action = machine.rateLimitReported(decision)
            switch action {
            case .sleep: _ = machine.woke(); _ = machine.admission(.success(.proceed))
            case .admit: _ = machine.admission(.success(.proceed))
            default: break
            }
            return action
        }
        #expect(limited(&machine, .proceed) == .admit)
        #expect(limited(&machine, .wait(.seconds(3))) == .sleep(.seconds(3)))
        #expect(limited(&machine, .wait(.seconds(3))) == .sleep(.seconds(3)))
        #expect(limited(&machine, .wait(.seconds(3))) == .failRateLimited(wait: .seconds(3)))
        #expect(machine.state == .finished)
        var other = Self.sending()
        #expect(limited(&other, .fail(retryAfter: .seconds(90))) == .failRateLimited(wait: .seconds(90)))
    }

    @Test func anyOtherStatusFailsWithWhatItMeans() {
        for status in [204, 200] {
            var machine = Self.sending()
            #expect(Self.answer(&machine, status) == .succeed(Self.response(status), Data()))
        }
        // A 304 reaches the machine only when no ETag was sent (the conditional stage answers the rest).
        for status in [304, 400, 403, 404] {
            var machine = Self.sending()
            #expect(Self.answer(&machine, status) == .failAnswer(Self.response(status), Data()))
        }
    }

    /// An event the state cannot receive is the shell's bug: the machine traps rather than guess.
    @Test func anEventTheStateCannotReceiveTraps() async {
        await #expect(processExitsWith: .failure) {
            var machine = ExchangeStateMachine(idempotent: true, maxAttempts: 3, maxRateLimitRetries: 2)
            _ = machine.start(destination: URL(string: "https://api.spotify.com/v1/me")!)
            _ = machine.woke()  // admitting, not waiting
        }
    }
}
