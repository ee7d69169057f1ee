import SpotifyLinkSupport
import Testing

@Suite("Durations as the stores keep them")
struct DurationTests {
    @Test(arguments: [
        (Duration.zero, Int64(0)), (.milliseconds(1234), 1234), (.milliseconds(-1234), -1234),
        (.microseconds(1_500), 2), (.microseconds(1_499), 1), (.microseconds(-1_500), -2),
        (.seconds(2400), 2_400_000),
    ])
    func millisecondsToTheNearest(_ duration: Duration, _ milliseconds: Int64) {
        #expect(duration.clampedMilliseconds == milliseconds)
    }

    /// A song of `Int.max` milliseconds from Spotify or a backup, or a sum past it: the largest
    /// number a store keeps, never a trap.
    @Test func absurdDurationsSaturate() {
        #expect(Duration.milliseconds(Int64.max).clampedMilliseconds == .max)
        #expect((Duration.milliseconds(Int64.max) * 4).clampedMilliseconds == .max)
        #expect(Duration.seconds(Int64.max).clampedMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).clampedMilliseconds == .min)
        #expect((Duration.milliseconds(Int64.max) + .microseconds(900)).clampedMilliseconds == .max)
    }
}
