/// How many pages of a long list may be in flight, as a pure state machine.
///
/// It starts at `initial` and grows by one with every page answered without a 429, up to
/// `maximum`; a 429 halves it (never below one) and growth waits for as many calm answers as are
/// then allowed. The shared rate-limit gate still decides when any request may leave: this only
/// bounds how many wait.
package struct PageConcurrency: Sendable, Equatable {
    /// Pages allowed in flight now.
    package private(set) var current: Int
    /// The most pages it ever allows in flight.
    package let maximum: Int
    /// Calm answers still needed before growing again (after a 429).
    private var holdBack = 0

    /// - Parameters:
    ///   - initial: pages in flight to begin with (4 by default in ``SpotifyClient/Configuration``).
    ///   - maximum: the most pages in flight.
    package init(initial: Int, maximum: Int) {
        self.maximum = max(1, maximum)
        self.current = min(max(1, initial), self.maximum)
    }

    /// A page arrived; `rateLimited` when a 429 was met since the last answer.
    package mutating func answered(rateLimited: Bool) {
        if rateLimited {
            current = max(1, current / 2)
            holdBack = current
            return
        }
        if holdBack > 0 {
            holdBack -= 1
        } else if current < maximum {
            current += 1
        }
    }
}
