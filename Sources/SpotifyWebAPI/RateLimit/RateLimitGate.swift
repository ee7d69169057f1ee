package import Foundation
import SpotifyLinkSupport

/// How one client backs off after 429s and paces its requests, as a pure state machine.
///
/// The gate keeps no cooldown: when requests may leave again after a 429 is one value, the
/// ``Admission``'s, kept in the ledger for the app's other clients and processes. The gate says
/// how long a 429 closes the way (its `Retry-After`, or a backoff that grows while 429s come in a
/// row), whether a wait is short enough to sleep through (longer than
/// ``SpotifyClient/Configuration-swift.struct/maxRateLimitWait`` fails fast with the time to
/// wait), and, with pacing, spaces requests to at most `RateLimit.pacingLimit` per rolling 30
/// seconds, which lets bulk work avoid 429s entirely.
package struct RateLimitGate: Sendable {
    /// How the gate behaves.
    package typealias Policy = SpotifyClient.Configuration.RateLimit

    /// What a request must do now.
    package enum Decision: Sendable, Hashable {
        /// Send now.
        case proceed
        /// Wait this long, then ask again.
        case wait(Duration)
        /// Fail now: the way stays closed longer than the policy lets a request wait.
        case fail(retryAfter: Duration)
    }

    /// How long requests wait and how they are paced.
    package var policy: Policy
    /// 429s in a row without a success in between, for the backoff exponent.
    package private(set) var consecutiveRateLimits = 0
    /// Start times granted within the pacing window, oldest first.
    private var grants: [Date] = []

    /// Dates carry about 0.1 µs of precision; a millisecond of slack keeps rounding from turning
    /// "reopens now" into an endless series of zero-length waits.
    package static let tolerance: TimeInterval = 0.001

    /// A gate keeping to `policy`.
    package init(policy: Policy) {
        self.policy = policy
    }

    /// Whether a request may leave at `now` while the way is closed until `closedUntil`: wait
    /// out what remains when the policy lets a request wait that long, fail otherwise.
    /// `nil` when `closedUntil` has passed.
    package func waiting(until closedUntil: Date, now: Date) -> Decision? {
        let remaining = closedUntil.timeIntervalSince(now)
        guard remaining > Self.tolerance else { return nil }
        return decision(for: .clampedSeconds(remaining))
    }

    /// Asks to send one request at `now`, the way being open: `.proceed` reserves a pacing slot;
    /// `.wait` means ask again after that long.
    package mutating func pace(now: Date) -> Decision {
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

    /// Records a 429 and says how long it closes the way: `retryAfter` when the answer gave one,
    /// else a backoff of 1 s doubling to 32 s, spread by up to half a step by `jitter`.
    ///
    /// - Parameters:
    ///   - retryAfter: the parsed `Retry-After`, `nil` when missing or unreadable.
    ///   - jitter: a number in `0..<1` that spreads backoff across clients.
    package mutating func recordRateLimited(retryAfter: Duration?, jitter: Double) -> Duration {
        consecutiveRateLimits += 1
        if let retryAfter, retryAfter > .zero { return retryAfter }
        let exponent = min(consecutiveRateLimits - 1, 16)
        let step = min(policy.baseBackoff * (1 << exponent), policy.maxBackoff)
        return step + step * (max(0, min(jitter, 1)) * 0.5)
    }

    /// Records a successful response: the backoff exponent starts over.
    package mutating func recordSuccess() {
        consecutiveRateLimits = 0
    }

    /// A wait of `duration`, or a failure when it is longer than a request waits.
    package func decision(for duration: Duration) -> Decision {
        duration > policy.maxWait ? .fail(retryAfter: duration) : .wait(duration)
    }
}
