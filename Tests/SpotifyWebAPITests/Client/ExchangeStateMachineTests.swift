import Foundation
import Testing

@_spi(Transport) @testable import SpotifyWebAPI

/// The retry rules alone, without a network, a clock or a gate: each test feeds the machine what
/// happened and checks what it says to do and where it is.
@Suite("The request state machine")
struct ExchangeStateMachineTests {
    typealias Action = ExchangeStateMachine.Action

    static let transient401 = Data(#"{"error":{"status":401,"message":"Access token missing"}}"#.utf8)
    static let expired401 = Data(#"{"error":{"status":401,"message":"The access token expired"}}"#.utf8)
    static let quota429 = Data(#"{"error":{"status":429,"message":"Quota","reason":"QUOTA_EXCEEDED"}}"#.utf8)

    static func get() -> ExchangeStateMachine {
        ExchangeStateMachine(idempotent: true, maxAttempts: 3, maxRateLimitRetries: 2)
    }

    /// A machine that has been admitted and has a request out.
    static func sending(idempotent: Bool = true) -> ExchangeStateMachine {
        var machine = ExchangeStateMachine(idempotent: idempotent, maxAttempts: 3, maxRateLimitRetries: 2)
        _ = machine.start()
        _ = machine.admission(.proceed)
        return machine
    }

    /// One whole exchange through the machine alone, as the shell would drive it: the token has
    /// expired (401), a refreshed one meets the rate limit (429), the admission says wait 3 s,
    /// and after the wait the request succeeds.
    @Test func oneWholeExchange401Refresh429WaitThen200() {
        var machine = Self.get()
        #expect(machine.state == .admitting)
        #expect(machine.start() == .admit)
        #expect(machine.admission(.proceed) == .send)
        #expect(machine.state == .sending)
        #expect(machine.answered(status: 401, body: Self.expired401, retryAfter: nil, jitter: 0.5) == .refreshToken)
        #expect(machine.state == .refreshing)
        #expect(machine.refreshed() == .admit)
        #expect(machine.state == .admitting)
        #expect(machine.admission(.proceed) == .send)
        #expect(
            machine.answered(status: 429, body: Data(), retryAfter: .seconds(3), jitter: 0.5)
                == .reportRateLimit(retryAfter: .seconds(3)))
        #expect(machine.state == .reportingRateLimit)
        #expect(machine.rateLimitReported(.wait(.seconds(3))) == .sleep(.seconds(3)))
        #expect(machine.state == .waiting)
        #expect(machine.woke() == .admit)
        #expect(machine.admission(.proceed) == .send)
        #expect(machine.answered(status: 200, body: Data("{}".utf8), retryAfter: nil, jitter: 0.5) == .succeed)
        #expect(machine.state == .done)
    }

    /// The admission's waits are the machine's own sleeps; its refusal is final, and nothing is
    /// sent before it.
    @Test func theAdmissionsWaitIsASleepAndItsRefusalFails() {
        var machine = Self.get()
        _ = machine.start()
        #expect(machine.admission(.wait(.seconds(4))) == .sleep(.seconds(4)))
        #expect(machine.state == .waiting)
        #expect(machine.woke() == .admit)
        #expect(machine.admission(.proceed) == .send)
        #expect(machine.state == .sending)
        var refused = Self.get()
        _ = refused.start()
        #expect(refused.admission(.fail(retryAfter: .seconds(600))) == .failRateLimited(wait: .seconds(600)))
        #expect(refused.state == .done)
    }

    @Test func aTransient401PausesTwiceThenRefreshesOnceThenFails() {
        var machine = Self.sending()
        let answer = { (machine: inout ExchangeStateMachine) -> Action in
            let action = machine.answered(status: 401, body: Self.transient401, retryAfter: nil, jitter: 0)
            switch action {
            case .sleep: _ = machine.woke(); _ = machine.admission(.proceed)
            case .refreshToken: _ = machine.refreshed(); _ = machine.admission(.proceed)
            default: break
            }
            return action
        }
        #expect(answer(&machine) == .sleep(.seconds(1)))
        #expect(answer(&machine) == .sleep(.seconds(2)))
        #expect(answer(&machine) == .refreshToken)
        #expect(answer(&machine) == .failStatus)
        #expect(machine.state == .done)
    }

    @Test func anExpiredTokenIsRefreshedOnceAndASecond401Fails() {
        var machine = Self.sending()
        #expect(machine.answered(status: 401, body: Self.expired401, retryAfter: nil, jitter: 0) == .refreshToken)
        _ = machine.refreshed()
        _ = machine.admission(.proceed)
        #expect(machine.answered(status: 401, body: Self.expired401, retryAfter: nil, jitter: 0) == .failStatus)
    }

    @Test func serverErrorsAreRetriedForGETsOnlyUpToTheAttempts() {
        var get = Self.sending()
        #expect(get.answered(status: 503, body: Data(), retryAfter: nil, jitter: 0.5) == .sleep(.milliseconds(500)))
        _ = get.woke()
        _ = get.admission(.proceed)
        #expect(get.answered(status: 502, body: Data(), retryAfter: nil, jitter: 0.5) == .sleep(.seconds(1)))
        _ = get.woke()
        _ = get.admission(.proceed)
        #expect(get.answered(status: 500, body: Data(), retryAfter: nil, jitter: 0.5) == .failStatus)
        var post = Self.sending(idempotent: false)
        #expect(post.answered(status: 503, body: Data(), retryAfter: nil, jitter: 0.5) == .failStatus)
    }

    @Test func transportFailuresShareTheAttemptsWithServerErrors() {
        var machine = Self.sending()
        #expect(machine.transportFailed(.timedOut, jitter: 0.5) == .sleep(.milliseconds(500)))
        _ = machine.woke()
        _ = machine.admission(.proceed)
        #expect(machine.answered(status: 500, body: Data(), retryAfter: nil, jitter: 0.5) == .sleep(.seconds(1)))
        _ = machine.woke()
        _ = machine.admission(.proceed)
        #expect(machine.transportFailed(.transport("the connection was lost (reset)"), jitter: 0.5) == .failTransport)
        var post = Self.sending(idempotent: false)
        #expect(post.transportFailed(.timedOut, jitter: 0.5) == .failTransport)
    }

    @Test func anOversizedBodyIsNeverRetried() {
        var machine = Self.sending()
        #expect(machine.transportFailed(.responseTooLarge(limit: 1024), jitter: 0) == .failTransport)
        #expect(machine.failures == 0)
        #expect(machine.state == .done)
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
            machine.answered(status: 429, body: Self.quota429, retryAfter: .seconds(43_200), jitter: 0)
                == .failQuota(retryAfter: .seconds(43_200)))
        #expect(machine.state == .done)
        var other = Self.sending()
        #expect(
            other.answered(status: 429, body: Data(), retryAfter: .seconds(3), jitter: 0)
                == .reportRateLimit(retryAfter: .seconds(3)))
    }

    @Test func rateLimitWaitsAreCountedAndARefusalIsFinal() {
        var machine = Self.sending()
        let limited = { (machine: inout ExchangeStateMachine, decision: RateLimitGate.Decision) -> Action in
            _ = machine.answered(status: 429, body: Data(), retryAfter: .seconds(3), jitter: 0)
            let action = machine.rateLimitReported(decision)
            switch action {
            case .sleep: _ = machine.woke(); _ = machine.admission(.proceed)
            case .admit: _ = machine.admission(.proceed)
            default: break
            }
            return action
        }
        #expect(limited(&machine, .proceed) == .admit)
        #expect(limited(&machine, .wait(.seconds(3))) == .sleep(.seconds(3)))
        #expect(limited(&machine, .wait(.seconds(3))) == .sleep(.seconds(3)))
        #expect(limited(&machine, .wait(.seconds(3))) == .failRateLimited(wait: .seconds(3)))
        var other = Self.sending()
        #expect(limited(&other, .fail(retryAfter: .seconds(90))) == .failRateLimited(wait: .seconds(90)))
    }

    @Test func anyOtherStatusFailsWithWhatItMeans() {
        for status in [204, 200] {
            var machine = Self.sending()
            #expect(machine.answered(status: status, body: Data(), retryAfter: nil, jitter: 0) == .succeed)
        }
        // A 304 reaches the machine only when no ETag was sent (the conditional stage answers the rest).
        for status in [304, 400, 403, 404] {
            var machine = Self.sending()
            #expect(machine.answered(status: status, body: Data(), retryAfter: nil, jitter: 0) == .failStatus)
        }
    }
}
