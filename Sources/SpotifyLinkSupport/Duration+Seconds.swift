extension Duration {
    /// The duration as fractional seconds.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, for C APIs that take them (durations under 292 years).
    package var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// A duration from fractional seconds, clamped to `0...1e9` and rounded up to the millisecond,
    /// so that sleeping it never ends short of the moment it was computed from.
    package static func clampedSeconds(_ value: Double) -> Duration {
        guard value.isFinite, value > 0 else { return .zero }
        return .milliseconds(Int64((min(value, 1e9) * 1000).rounded(.up)))
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded to the nearest, as the stores keep it; clamped
    /// to `Int64`'s range, so that an absurd duration (a song of `Int.max` milliseconds, from
    /// Spotify or a backup, or the sum of many) saturates instead of trapping in the app.
    package var clampedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        // attoseconds is within ±1e18: its milliseconds, to the nearest, fit.
        let rest =
            (attoseconds + (attoseconds < 0 ? -500_000_000_000_000 : 500_000_000_000_000)) / 1_000_000_000_000_000
        let (sum, sumOverflow) = whole.addingReportingOverflow(rest)
        guard !sumOverflow else { return rest < 0 ? .min : .max }
        return sum
    }
}

extension Duration {
    /// The longest an item from Spotify is taken to be: a week. No song, episode or chapter comes
    /// near it; a `duration_ms` past it (a damaged or hostile answer) is read as this, so that no
    /// sum of a playlist's entries, or conversion of one, can overflow.
    package static let longestItem: Duration = .seconds(7 * 86_400)

    /// The longest total duration kept for a playlist: `longestItem` for each of Spotify's most
    /// entries (10,000). A backup's larger or negative total is read as the nearest bound.
    package static let longestTotal: Duration = longestItem * 10_000

    /// An item's length from Spotify's milliseconds, within `0...longestItem`.
    package static func itemLength(milliseconds: Int) -> Duration {
        Duration.milliseconds(milliseconds).clamped(to: longestItem)
    }

    /// This duration within `0...limit`; compares only, so any duration, however large, is safe.
    package func clamped(to limit: Duration) -> Duration {
        self < .zero ? .zero : min(self, limit)
    }
}

extension Duration {
    /// The positive whole seconds the environment variable `name` holds, or `nil` when it holds
    /// none or something else: how a deadline is set for an environment known to be slow.
    package static func wholeSeconds(in environment: [String: String], _ name: String) -> Duration? {
        guard let text = environment[name], let seconds = Int(text), seconds > 0 else { return nil }
        return .seconds(seconds)
    }
}
