public import Foundation
import SpotifyLinkSupport
import SpotifyWebAPI

/// When to ask Spotify again, as a pure state machine.
///
/// While a track plays, the next poll is at its predicted end plus a margin, but never later than
/// the playing cap, so that skips and pauses are seen. While paused, idle or during an ad, the
/// interval starts at ``Policy/idleInterval`` and grows to ``Policy/maxIdleInterval``.
///
/// No schedule can meet both a small worst-case lag and a call count near one call per change:
/// seeing any skip within 30 s takes a poll every 30 s, 120 an hour, while an hour of ordinary
/// listening has 15–20 changes. The default, ``Policy/budgeted(callsPerHour:)`` with 30 calls,
/// lets the cap grow while the user leaves the player alone, so calls come close to one per track,
/// shrinks it back to 30 s as soon as the user skips, pauses or resumes, and never polls more than
/// the budget in any hour: a Development Mode app shares about a thousand requests a day across
/// all its users. ``Policy/responsive`` keeps the 30 s cap at about 120 calls an hour, opt-in.
public struct PollSchedule: Sendable {
    /// How often to poll.
    public struct Policy: Sendable, Equatable {
        /// The longest wait while playing, right after the user acted.
        public var maxPlayingInterval: Duration = .seconds(30)
        /// When set, the playing cap doubles after each poll that finds the player as predicted (the
        /// same item, or the next one at a track end), up to this value; any other change resets it.
        public var calmPlayingInterval: Duration?
        /// How long after a track's predicted end to poll, so the next track has started.
        public var margin: Duration = .milliseconds(1500)
        /// The first wait while nothing plays.
        public var idleInterval: Duration = .seconds(15)
        /// The longest wait while nothing plays (the idle wait grows to it).
        public var maxIdleInterval: Duration = .seconds(120)
        /// The wait during an advertisement, whose length Spotify does not give.
        public var adInterval: Duration = .seconds(15)
        /// How much each idle or calm wait grows over the previous one.
        public var growth: Double = 2
        /// The most polls in any hour, whatever the player does; `nil` for no budget.
        public var callsPerHour: Int?

        /// The default: ``budgeted(callsPerHour:)`` with ``defaultCallsPerHour``, as ``default``.
        public init() {
            calmPlayingInterval = .seconds(480)
            callsPerHour = Self.defaultCallsPerHour
        }

        /// The polls per hour the default allows.
        public static let defaultCallsPerHour = 30

        /// The one default of every part that polls (the monitor, the now-playing indicator,
        /// `spotlink now-playing`): within ``defaultCallsPerHour`` calls an hour, natural track
        /// changes seen about 1.5 s after they happen. ``responsive`` is opt-in everywhere.
        public static let `default` = Policy()

        /// Skips and pauses seen within 30 s, at about 120 calls per hour of playing: opt-in, for a
        /// screen that must follow every skip.
        public static var responsive: Policy {
            var policy = Policy()
            policy.calmPlayingInterval = nil
            policy.callsPerHour = nil
            return policy
        }

        /// Close to one call per track while the user leaves the player alone; a skip after a calm
        /// stretch is seen within ``calmPlayingInterval`` (or at the track's end, if sooner). No budget.
        public static var economical: Policy {
            var policy = Policy()
            policy.callsPerHour = nil
            return policy
        }

        /// ``economical`` within a budget: never more than `callsPerHour` polls in any hour. Natural
        /// track changes are still seen about 1.5 s after they happen while the budget lasts.
        public static func budgeted(callsPerHour: Int) -> Policy {
            var policy = Policy()
            policy.callsPerHour = max(1, callsPerHour)
            return policy
        }
    }

    /// The limits this schedule keeps to.
    public var policy: Policy
    private var idleStreak = 0
    private var calmStreak = 0
    private var previous: NowPlayingState?
    private var lastWaitWasTrackEnd = false
    /// Polls the budget still allows now (a token bucket), and when it was last topped up.
    private var tokens: Double?
    private var toppedUpAt: Date?

    /// A schedule keeping to `policy`.
    public init(policy: Policy = .init()) {
        self.policy = policy
    }

    /// The playing cap now: the base cap, grown while the player has behaved as predicted.
    public var playingCap: Duration {
        guard let calm = policy.calmPlayingInterval else { return policy.maxPlayingInterval }
        // The exponent stops growing long before the cap could overflow a Duration.
        return min(calm, policy.maxPlayingInterval * pow(policy.growth, min(calmStreak, 16)))
    }

    /// The wait before the next poll after the poll at `now` saw `state`, with `remaining` time on
    /// the current track when one plays.
    public mutating func delay(after state: NowPlayingState, remaining: Duration?, now: Date) -> Duration {
        let wanted = unbudgetedDelay(after: state, remaining: remaining)
        return max(wanted, budgetWait(spendingOneAt: now))
    }

    /// The budget as a token bucket: up to a sixth of the hourly budget at once, refilled at a rate
    /// such that no hour holds more than ``Policy/callsPerHour`` polls.
    private mutating func budgetWait(spendingOneAt now: Date) -> Duration {
        guard let budget = policy.callsPerHour, budget > 0 else { return .zero }
        let capacity = Double(max(1, budget / 6))
        let perSecond = max(Double(budget) - capacity, 1) / 3600
        var available = tokens ?? capacity
        if let toppedUpAt {
            available = min(capacity, available + max(0, now.timeIntervalSince(toppedUpAt)) * perSecond)
        }
        available -= 1
        tokens = available
        toppedUpAt = now
        return available >= 1 ? .zero : .clampedSeconds((1 - available) / perSecond)
    }

    private mutating func unbudgetedDelay(after state: NowPlayingState, remaining: Duration?) -> Duration {
        defer { previous = state }
        switch state {
        case .playing(let item):
            idleStreak = 0
            calmStreak = asPredicted(item) ? calmStreak + 1 : 0
            let untilEnd = (remaining ?? playingCap) + policy.margin
            lastWaitWasTrackEnd = untilEnd <= playingCap
            return max(policy.margin, min(untilEnd, playingCap))
        case .ad:
            idleStreak = 0
            calmStreak = 0
            return policy.adInterval
        case .paused, .nothingPlaying:
            calmStreak = 0
            let step = policy.idleInterval * pow(policy.growth, idleStreak)
            idleStreak += 1
            return min(step, policy.maxIdleInterval)
        case .unavailable(.rateLimited(let retryAfter)):
            return max(retryAfter, policy.idleInterval)
        case .unavailable(.quotaExceeded(let retryAfter)), .unavailable(.budgetExhausted(let retryAfter)):
            // Nothing is sent before the cooldown ends; then one poll finds out where things stand.
            return max(retryAfter, policy.margin)
        case .unavailable:
            idleStreak += 1
            return policy.maxIdleInterval
        }
    }

    /// Whether `item` is what the last poll predicted: still the same item, or a new one found by
    /// the poll scheduled at the previous track's end.
    private func asPredicted(_ item: NowPlayingItem) -> Bool {
        guard case .playing(let before) = previous else { return false }
        return before.uri == item.uri || lastWaitWasTrackEnd
    }

    private func pow(_ base: Double, _ exponent: Int) -> Double {
        (0..<exponent).reduce(1.0) { value, _ in value * base }
    }
}
