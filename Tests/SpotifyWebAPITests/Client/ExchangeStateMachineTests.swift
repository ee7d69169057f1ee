import Foundation
import Testing

@testable import SpotifyWebAPI

/// The retry rules alone, without a network, a clock or a gate: each test feeds the machine what
/// came back and checks what it says to do.
@Suite("The request state machine")
struct ExchangeStateMachineTests {
    typealias Action = ExchangeStateMachine.Action

    static let transient401 = Data(#"{"error":{"status":401,"message":"Access token missing"}}"#.utf8)
    static let expired401 = Data(#"{"error":{"status":401,"message":"The access token expired"}}"#.utf8)
    static let quota429 = Data(#"{"error":{"status":429,"message":"Quota","reason":"QUOTA_EXCEEDED"}}"#.utf8)

    static func get() -> ExchangeStateMachine {
        ExchangeStateMachine(idempotent: true, maxAttempts: 3, maxRateLimitRetries: 2)
    }

    @Test func aTransient401PausesTwiceThenRefreshesOnceThenFails() {
        var machine = Self.get()
        let answer = { (machine: inout ExchangeStateMachine) in
            machine.received(status: 401, body: Self.transient401, retryAfter: nil, sentValidator: false)
        }
        #expect(answer(&machine) == .pauseThenRetry(.seconds(1)))
        #expect(answer(&machine) == .pauseThenRetry(.seconds(2)))
        #expect(answer(&machine) == .refreshThenRetry)
        #expect(answer(&machine) == .failWithStatus)
    }

    @Test func anExpiredTokenIsRefreshedOnceAndASecond401Fails() {
        var machine = Self.get()
        #expect(
            machine.received(status: 401, body: Self.expired401, retryAfter: nil, sentValidator: false)
                == .refreshThenRetry)
        #expect(
            machine.received(status: 401, body: Self.expired401, retryAfter: nil, sentValidator: false)
                == .failWithStatus)
    }

    @Test func serverErrorsAreRetriedForGETsOnlyUpToTheAttempts() {
        var get = Self.get()
        #expect(
            get.received(status: 503, body: Data(), retryAfter: nil, sentValidator: false)
                == .backOffThenRetry(attempt: 1))
        #expect(
            get.received(status: 502, body: Data(), retryAfter: nil, sentValidator: false)
                == .backOffThenRetry(attempt: 2))
        #expect(get.received(status: 500, body: Data(), retryAfter: nil, sentValidator: false) == .failWithStatus)
        var post = ExchangeStateMachine(idempotent: false, maxAttempts: 3, maxRateLimitRetries: 2)
        #expect(post.received(status: 503, body: Data(), retryAfter: nil, sentValidator: false) == .failWithStatus)
    }

    @Test func transportFailuresShareTheAttemptsWithServerErrors() {
        var machine = Self.get()
        #expect(machine.transportFailed(.timedOut) == .backOffThenRetry(attempt: 1))
        #expect(
            machine.received(status: 500, body: Data(), retryAfter: nil, sentValidator: false)
                == .backOffThenRetry(attempt: 2))
        #expect(machine.transportFailed(.transport("the connection was lost (reset)")) == .failTransport)
        var post = ExchangeStateMachine(idempotent: false, maxAttempts: 3, maxRateLimitRetries: 2)
        #expect(post.transportFailed(.timedOut) == .failTransport)
    }

    @Test func anOversizedBodyIsNeverRetried() {
        var machine = Self.get()
        #expect(machine.transportFailed(.responseTooLarge(limit: 1024)) == .failTooLarge)
        #expect(machine.failures == 0)
    }

    @Test func theQuotaFailsAtOnceAndARateLimitAsksTheGate() {
        var machine = Self.get()
        #expect(
            machine.received(status: 429, body: Self.quota429, retryAfter: .seconds(43_200), sentValidator: false)
                == .failWithQuotaCooldown(retryAfter: .seconds(43_200)))
        #expect(
            machine.received(status: 429, body: Data(), retryAfter: .seconds(3), sentValidator: false)
                == .consultGate(retryAfter: .seconds(3)))
    }

    @Test func theGatesWaitsAreCountedAndItsRefusalIsFinal() {
        var machine = Self.get()
        #expect(machine.gateDecided(.proceed) == .retry)
        #expect(machine.gateDecided(.wait(.seconds(3))) == .retry)
        #expect(machine.gateDecided(.wait(.seconds(3))) == .retry)
        #expect(machine.gateDecided(.wait(.seconds(3))) == .failRateLimited(wait: .seconds(3)))
        var other = Self.get()
        #expect(other.gateDecided(.fail(retryAfter: .seconds(90))) == .failRateLimited(wait: .seconds(90)))
    }

    @Test func notModifiedUsesTheCacheOnlyWhenAValidatorWasSent() {
        var machine = Self.get()
        #expect(machine.received(status: 304, body: Data(), retryAfter: nil, sentValidator: true) == .useCachedBody)
        #expect(machine.received(status: 304, body: Data(), retryAfter: nil, sentValidator: false) == .failWithStatus)
        #expect(machine.received(status: 204, body: Data(), retryAfter: nil, sentValidator: false) == .succeed)
        #expect(machine.received(status: 404, body: Data(), retryAfter: nil, sentValidator: false) == .failWithStatus)
    }
}
