package import Foundation
import SpotifyLinkSupport

/// The rate-limit state one client shares across all its requests, as a pure state machine.
///
/// A 429 closes the gate for every request until `Retry-After` has passed, so concurrent requests
/// wait once, together. A wait longer than ``SpotifyClient/Configuration-swift.struct/maxRateLimitWait`` fails fast with the time to wait,
/// and the gate stays closed so nothing keeps hammering a service that asked for quiet. Optional
/// pacing spaces requests to at most `RateLimit.pacingLimit` per rolling 30 seconds, which lets
/// bulk work avoid 429s entirely.
package struct RateLimitGate: Sendable {
    /// How the gate behaves.
    package typealias Policy = SpotifyClient.Configuration.RateLimit

    /// What a request must do now.
    package enum Decision: Sendable, Hashable {
        /// Send now.
        case proceed
        /// Wait this long, then ask again.
        case wait(Duration)
        /// Fail now: the gate stays closed longer than the policy lets a request wait.
        case fail(retryAfter: Duration)
    }

    /// How long requests wait and how they are paced.
    package var policy: Policy
    /// When the gate opens again after a 429; `nil` while open.
    package private(set) var closedUntil: Date?
    /// 429s in a row without a success in between, for the backoff exponent.
    package private(set) var consecutiveRateLimits = 0
    /// Start times granted within the pacing window, oldest first.
    private var grants: [Date] = []

    private static let tolerance: TimeInterval = 0.001

    /// An open gate keeping to `policy`.
    package init(policy: Policy) {
        self.policy = policy
    }

    /// Asks to send one request at `now`.
    ///
    /// `.proceed` reserves a pacing slot. `.wait` means ask again after that long.
    package mutating func admit(now: Date) -> Decision {
        // Dates carry about 0.1 µs of precision; a millisecond of slack keeps rounding from
        // turning "reopens now" into an endless series of zero-length waits.
        if let closedUntil, closedUntil.timeIntervalSince(now) > Self.tolerance {
            let remaining = Duration.clampedSeconds(closedUntil.timeIntervalSince(now))
            return remaining > policy.maxWait ? .fail(retryAfter: remaining) : .wait(remaining)
        }
        closedUntil = nil
        guard let limit = policy.pacingLimit, limit > 0 else { return .proceed }
        let window = policy.pacingWindow.seconds
        grants.removeAll { now.timeIntervalSince($0) >= window - Self.tolerance }
        if grants.count < limit {
            grants.append(now)
            return .proceed
        }
        let opensAt = grants[grants.count - limit].addingTimeInterval(window)
        return .wait(.clampedSeconds(opensAt.timeIntervalSince(now)))
    }

    /// Records a 429 and closes the gate.
    ///
    /// - Parameters:
    ///   - retryAfter: the parsed `Retry-After`, `nil` when missing or unreadable.
    ///   - now: the time of the answer.
    ///   - jitter: a number in `0..<1` that spreads backoff across clients.
    package mutating func recordRateLimited(retryAfter: Duration?, now: Date, jitter: Double) -> Decision {
        consecutiveRateLimits += 1
        let wait: Duration
        if let retryAfter, retryAfter > .zero {
            wait = retryAfter
        } else {
            let exponent = min(consecutiveRateLimits - 1, 16)
            let step = min(policy.baseBackoff * (1 << exponent), policy.maxBackoff)
            wait = step + step * (max(0, min(jitter, 1)) * 0.5)
        }
        let reopening = now.addingTimeInterval(wait.seconds)
        if closedUntil.map({ reopening > $0 }) ?? true { closedUntil = reopening }
        return wait > policy.maxWait ? .fail(retryAfter: wait) : .wait(wait)
    }

    /// Keeps the gate closed until at least `date`: a cooldown another client or process learned.
    package mutating func close(until date: Date) {
        if closedUntil.map({ date > $0 }) ?? true { closedUntil = date }
    }

    /// Records a successful response: the backoff exponent starts over.
    package mutating func recordSuccess() {
        consecutiveRateLimits = 0
    }
}
