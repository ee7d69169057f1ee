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
    /// The system's clock.
    public init() {}
    public var now: Date { Date() }
    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}
