import Foundation
import SpotifyLinkSupport
import Testing

@testable import SpotifyWebAPI

@Suite("The rate-limit gate: backoff, pacing and how long a request waits")
struct RateLimitGateTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aRetryAfterIsTheWaitAndAMissingOneBacksOff() {
        var gate = RateLimitGate(policy: .init())
        #expect(gate.recordRateLimited(retryAfter: .seconds(5), jitter: 0) == .seconds(5))
        #expect(gate.recordRateLimited(retryAfter: .zero, jitter: 0) == .seconds(2))
    }

    @Test func backoffGrowsAndIsCapped() {
        var gate = RateLimitGate(policy: .init(maxWait: .seconds(1000)))
        let waits = (0..<8).map { _ in gate.recordRateLimited(retryAfter: nil, jitter: 0) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 32, 32].map { Duration.seconds($0) })
        gate.recordSuccess()
        #expect(gate.recordRateLimited(retryAfter: nil, jitter: 1) == .milliseconds(1500))
    }

    @Test func aWaitBeyondTheCapFailsAndWhatRemainsIsWaited() {
        let gate = RateLimitGate(policy: .init(maxWait: .seconds(60)))
        #expect(gate.decision(for: .seconds(3600)) == .fail(retryAfter: .seconds(3600)))
        let closed = start.addingTimeInterval(3600)
        #expect(gate.waiting(until: closed, now: start.addingTimeInterval(100)) == .fail(retryAfter: .seconds(3500)))
        #expect(gate.waiting(until: closed, now: start.addingTimeInterval(3540)) == .wait(.seconds(60)))
        // Within a millisecond of the end, the way is open: no endless zero-length waits.
        #expect(gate.waiting(until: closed, now: closed.addingTimeInterval(-0.0005)) == nil)
        #expect(gate.waiting(until: closed, now: closed) == nil)
    }

    @Test func pacingSpacesRequestsOverTheWindow() {
        var gate = RateLimitGate(policy: .init(pacingLimit: 3))
        for _ in 0..<3 { #expect(gate.pace(now: start) == .proceed) }
        #expect(gate.pace(now: start.addingTimeInterval(10)) == .wait(.seconds(20)))
        #expect(gate.pace(now: start.addingTimeInterval(30)) == .proceed)
    }

    @Test(arguments: [
        ("5", 5.0), ("0", 0.0), ("1.5", 1.5), ("86400", 86400.0), (" 12 ", 12.0),
    ])
    func parsesDeltaSeconds(header: String, seconds: Double) {
        #expect(RetryAfter.parse(header, now: start) == .clampedSeconds(seconds))
    }

    @Test(arguments: ["-1", "abc", "", "1e5x", "+5", "NaN"])
    func rejectsGarbage(header: String) {
        #expect(RetryAfter.parse(header, now: start) == nil)
    }

    @Test func parsesHTTPDates() {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let now = Date(timeIntervalSince1970: 784_111_777 - 30)
        #expect(RetryAfter.parse(date, now: now) == .seconds(30))
        #expect(RetryAfter.parse(date, now: now.addingTimeInterval(100)) == .zero)
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == date)
        #expect(HTTPDate.parse(HTTPDate.format(now)) == now)
    }

    @Test(arguments: [
        "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT",
    ])
    func rejectsBadHTTPDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
