/// When to ask Spotify again, as a pure state machine.
///
/// While a track plays, the next poll is at its predicted end plus a margin, but never later than
/// ``Policy/maxPlayingInterval`` so that skips and pauses are seen. While paused, idle or during an
/// ad, the interval starts at ``Policy/idleInterval`` and grows to ``Policy/maxIdleInterval``.
public struct PollSchedule: Sendable {
    public struct Policy: Sendable, Equatable {
        public var maxPlayingInterval: Duration = .seconds(30)
        public var margin: Duration = .milliseconds(1500)
        public var idleInterval: Duration = .seconds(15)
        public var maxIdleInterval: Duration = .seconds(120)
        public var adInterval: Duration = .seconds(15)
        public var growth: Double = 2

        public init() {}
    }

    public var policy: Policy
    private var idleStreak = 0

    public init(policy: Policy = .init()) {
        self.policy = policy
    }

    /// The wait before the next poll after seeing `state`, with `remaining` time on the current
    /// track when one plays.
    public mutating func delay(after state: NowPlayingState, remaining: Duration?) -> Duration {
        switch state {
        case .playing:
            idleStreak = 0
            let untilEnd = (remaining ?? policy.maxPlayingInterval) + policy.margin
            return max(policy.margin, min(untilEnd, policy.maxPlayingInterval))
        case .ad:
            idleStreak = 0
            return policy.adInterval
        case .paused, .nothingPlaying:
            let step = policy.idleInterval * pow(policy.growth, Double(idleStreak))
            idleStreak += 1
            return min(step, policy.maxIdleInterval)
        case .unavailable(.rateLimited(let retryAfter)):
            return max(retryAfter, policy.idleInterval)
        case .unavailable:
            idleStreak += 1
            return policy.maxIdleInterval
        }
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        (0..<Int(exponent)).reduce(1.0) { value, _ in value * base }
    }
}
