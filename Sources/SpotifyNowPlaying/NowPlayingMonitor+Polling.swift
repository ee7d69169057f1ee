import Foundation

extension NowPlayingMonitor {
    /// How often now playing is polled: the one policy of every part that polls (the monitor, the
    /// now-playing indicator, `spotlink now-playing`). Choose one of the four policies; their
    /// intervals are the package's to tune, not a promise.
    public struct Polling: Sendable, Equatable {
        /// The longest wait while playing, right after the user acted.
        package var maxPlayingInterval: Duration = .seconds(30)
        /// When set, the playing cap doubles after each poll that finds the player as predicted (the
        /// same item, or the next one at a track end), up to this value; any other change resets it.
        package var calmPlayingInterval: Duration?
        /// How long after a track's predicted end to poll, so the next track has started.
        package var margin: Duration = .milliseconds(1500)
        /// The first wait while nothing plays.
        package var idleInterval: Duration = .seconds(15)
        /// The longest wait while nothing plays (the idle wait grows to it).
        package var maxIdleInterval: Duration = .seconds(120)
        /// The wait during an advertisement, whose length Spotify does not give.
        package var adInterval: Duration = .seconds(15)
        /// How much each idle or calm wait grows over the previous one.
        package var growth: Double = 2
        /// The most polls in any hour, whatever the player does; `nil` for no budget.
        package var callsPerHour: Int?

        /// The default: ``budgeted(callsPerHour:)`` with ``defaultCallsPerHour``, as ``default``.
        package init() {
            calmPlayingInterval = .seconds(480)
            callsPerHour = Self.defaultCallsPerHour
        }

        /// The polls per hour the default allows.
        public static let defaultCallsPerHour = 30

        /// The one default of every part that polls (the monitor, the now-playing indicator,
        /// `spotlink now-playing`): within ``defaultCallsPerHour`` calls an hour, natural track
        /// changes seen about 1.5 s after they happen. ``responsive`` is opt-in everywhere.
        public static let `default` = Polling()

        /// Skips and pauses seen within 30 s, at about 120 calls per hour of playing: opt-in, for a
        /// screen that must follow every skip.
        public static var responsive: Polling {
            var policy = Polling()
            policy.calmPlayingInterval = nil
            policy.callsPerHour = nil
            return policy
        }

        /// Close to one call per track while the user leaves the player alone; a skip after a calm
        /// stretch is seen within eight minutes (or at the track's end, if sooner). No budget.
        public static var economical: Polling {
            var policy = Polling()
            policy.callsPerHour = nil
            return policy
        }

        /// ``economical`` within a budget: never more than `callsPerHour` polls in any hour. Natural
        /// track changes are still seen about 1.5 s after they happen while the budget lasts.
        public static func budgeted(callsPerHour: Int) -> Polling {
            var policy = Polling()
            policy.callsPerHour = max(1, callsPerHour)
            return policy
        }
    }
}
