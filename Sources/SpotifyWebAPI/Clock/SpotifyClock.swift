public import Foundation

/// The time source of every SpotifyLink component: wall time for expiries and `Retry-After` dates,
/// and sleeping for backoff and polling.
///
/// Swift's `Clock` instants are not wall time, yet token expiry, HTTP dates and Spotify's
/// millisecond timestamps are; one protocol gives both so that a test clock moves them together.
public protocol SpotifyClock: Sendable {
    /// The current wall time.
    var now: Date { get }
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock: `Date()` and `ContinuousClock`.
public struct SystemClock: SpotifyClock {
    public init() {}
    public var now: Date { Date() }
    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}

extension Duration {
    /// The duration as fractional seconds.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// A duration from fractional seconds, clamped to `0...1e9` and rounded up to the millisecond,
    /// so that sleeping it never ends short of the moment it was computed from.
    package static func clampedSeconds(_ value: Double) -> Duration {
        guard value.isFinite, value > 0 else { return .zero }
        return .milliseconds(Int64((min(value, 1e9) * 1000).rounded(.up)))
    }
}
