package import Foundation
import SpotifyLinkSupport
import SpotifyWebAPI

/// When to ask Spotify again, as a pure state machine.
///
/// While a track plays, the next poll is at its predicted end plus a margin, but never later than
/// the playing cap, so that skips and pauses are seen. While paused, idle or during an ad, the
/// interval starts at ``NowPlayingMonitor/Polling/idleInterval`` and grows to ``NowPlayingMonitor/Polling/maxIdleInterval``.
///
/// No schedule can meet both a small worst-case lag and a call count near one call per change:
/// seeing any skip within 30 s takes a poll every 30 s, 120 an hour, while an hour of ordinary
/// listening has 15–20 changes. The default, ``NowPlayingMonitor/Polling/budgeted(callsPerHour:)`` with 30 calls,
/// lets the cap grow while the user leaves the player alone, so calls come close to one per track,
/// shrinks it back to 30 s as soon as the user skips, pauses or resumes, and never polls more than
/// the budget in any hour: a Development Mode app shares about a thousand requests a day across
/// all its users. ``NowPlayingMonitor/Polling/responsive`` keeps the 30 s cap at about 120 calls an hour, opt-in.
package struct PollSchedule: Sendable {
    /// How often to poll.
    package typealias Policy = NowPlayingMonitor.Polling

    /// The limits this schedule keeps to.
    package var policy: Policy
    private var idleStreak = 0
    private var calmStreak = 0
    private var previous: NowPlayingState?
    private var lastWaitWasTrackEnd = false
    /// Polls the budget still allows now (a token bucket), and when it was last topped up.
    private var tokens: Double?
    private var toppedUpAt: Date?

    /// A schedule keeping to `policy`.
    package init(policy: Policy = .init()) {
        self.policy = policy
    }

    /// The playing cap now: the base cap, grown while the player has behaved as predicted.
    package var playingCap: Duration {
        guard let calm = policy.calmPlayingInterval else { return policy.maxPlayingInterval }
        // The exponent stops growing long before the cap could overflow a Duration.
        return min(calm, policy.maxPlayingInterval * pow(policy.growth, min(calmStreak, 16)))
    }

    /// The wait before the next poll after the poll at `now` saw `state`, with `remaining` time on
    /// the current track when one plays.
    package mutating func delay(after state: NowPlayingState, remaining: Duration?, now: Date) -> Duration {
        let wanted = unbudgetedDelay(after: state, remaining: remaining)
        return max(wanted, budgetWait(spendingOneAt: now))
    }

    /// The budget as a token bucket: up to a sixth of the hourly budget at once, refilled at a rate
    /// such that no hour holds more than ``NowPlayingMonitor/Polling/callsPerHour`` polls.
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
