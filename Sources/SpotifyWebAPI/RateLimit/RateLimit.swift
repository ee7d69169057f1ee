import Foundation

extension SpotifyClient.Configuration {
    /// How requests wait out a rate limit and how bulk work is paced.
    package struct RateLimit: Sendable, Hashable {
        /// The longest wait the client accepts before failing with "rate limited, retry after N s".
        package var maxWait: Duration = .seconds(60)
        /// First backoff step when `Retry-After` is missing or unreadable.
        package var baseBackoff: Duration = .seconds(1)
        /// The largest backoff step.
        package var maxBackoff: Duration = .seconds(32)
        /// Requests per rolling 30 seconds; `nil` sends as fast as callers ask.
        package var pacingLimit: Int?
        /// The window `pacingLimit` counts requests in.
        package var pacingWindow: Duration = .seconds(30)

        /// Wait at most `maxWait` for the gate; with a `pacingLimit`, send at most that many requests per window.
        package init(maxWait: Duration = .seconds(60), pacingLimit: Int? = nil) {
            self.maxWait = maxWait
            self.pacingLimit = pacingLimit
        }
    }
}
