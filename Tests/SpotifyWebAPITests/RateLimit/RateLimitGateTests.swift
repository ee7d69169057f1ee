import Foundation
import SpotifyLinkSupport
import Testing

@testable import SpotifyWebAPI

@Suite("The rate-limit gate as a state machine")
struct RateLimitGateTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func closesForEveryoneUntilRetryAfter() {
        var gate = RateLimitGate(policy: .init())
        #expect(gate.admit(now: start) == .proceed)
        #expect(gate.recordRateLimited(retryAfter: .seconds(5), now: start, jitter: 0) == .wait(.seconds(5)))
        #expect(gate.admit(now: start.addingTimeInterval(2)) == .wait(.seconds(3)))
        #expect(gate.admit(now: start.addingTimeInterval(5)) == .proceed)
    }

    @Test func aLaterShorterRetryAfterDoesNotReopenEarly() {
        var gate = RateLimitGate(policy: .init())
        _ = gate.recordRateLimited(retryAfter: .seconds(10), now: start, jitter: 0)
        _ = gate.recordRateLimited(retryAfter: .seconds(1), now: start, jitter: 0)
        #expect(gate.admit(now: start.addingTimeInterval(5)) == .wait(.seconds(5)))
    }

    @Test func backoffGrowsAndIsCapped() {
        var gate = RateLimitGate(policy: .init(maxWait: .seconds(1000)))
        var waits: [Duration] = []
        for _ in 0..<8 {
            if case .wait(let wait) = gate.recordRateLimited(retryAfter: nil, now: start, jitter: 0) {
                waits.append(wait)
            }
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 32, 32].map { Duration.seconds($0) })
        gate.recordSuccess()
        #expect(gate.recordRateLimited(retryAfter: nil, now: start, jitter: 1) == .wait(.milliseconds(1500)))
    }

    @Test func beyondTheCapFailsAndStaysClosed() {
        var gate = RateLimitGate(policy: .init(maxWait: .seconds(60)))
        #expect(
            gate.recordRateLimited(retryAfter: .seconds(3600), now: start, jitter: 0)
                == .fail(retryAfter: .seconds(3600)))
        #expect(gate.admit(now: start.addingTimeInterval(100)) == .fail(retryAfter: .seconds(3500)))
        #expect(gate.admit(now: start.addingTimeInterval(3540)) == .wait(.seconds(60)))
    }

    @Test func pacingSpacesRequestsOverTheWindow() {
        var gate = RateLimitGate(policy: .init(pacingLimit: 3))
        for _ in 0..<3 { #expect(gate.admit(now: start) == .proceed) }
        #expect(gate.admit(now: start.addingTimeInterval(10)) == .wait(.seconds(20)))
        #expect(gate.admit(now: start.addingTimeInterval(30)) == .proceed)
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

@Suite("Secrets redact themselves")
struct SecretTests {
    @Test func everyTextFormIsRedacted() {
        let token = AccessToken("SENTINEL_AT_123")
        var dumped = ""
        dump(token, to: &dumped)
        let forms = [
            "\(token)", String(describing: token), String(reflecting: token), dumped,
            "\([token])", "\(Optional(token) as Any)",
        ]
        for form in forms {
            #expect(!form.contains("SENTINEL"), "leaked in: \(form)")
        }
        #expect(token.unredactedValue == "SENTINEL_AT_123")
    }
}
