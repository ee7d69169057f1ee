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
