/// Time expressed in songs, the routine app's idea: "you got through 4.5 songs".
public enum SongTime {
    /// The tracks that fill `target`, in order.
    public struct Fill: Sendable, Equatable {
        /// How many tracks are needed (the last one possibly in part).
        public var trackCount: Int
        /// Songs, with the fraction of the last one.
        public var songs: Double
        /// `false` when the tracks together are shorter than the target.
        public var coversTarget: Bool
    }

    /// The tracks that fill `target`, and the fractional song count.
    public static func fill(_ target: Duration, with durations: [Duration]) -> Fill {
        var remaining = target
        var songs = 0.0
        var count = 0
        for duration in durations where duration > .zero {
            guard remaining > .zero else { break }
            count += 1
            if duration >= remaining {
                songs += remaining / duration
                return Fill(trackCount: count, songs: songs, coversTarget: true)
            }
            songs += 1
            remaining -= duration
        }
        return Fill(trackCount: count, songs: songs, coversTarget: remaining <= .zero)
    }

    /// Songs heard in `elapsed` of listening from the start of `durations`.
    public static func songsHeard(in elapsed: Duration, durations: [Duration]) -> Double {
        fill(elapsed, with: durations).songs
    }

    /// Songs a playlist's average track fits into `target`, from its saved count and duration;
    /// `nil` when either is unknown. What a card shows before anything plays ("20 min ≈ 5.5 songs").
    public static func estimate(_ target: Duration, in metadata: PlaylistMetadata) -> Double? {
        guard let total = metadata.totalDuration, let count = metadata.trackCount, count > 0, total > .zero else {
            return nil
        }
        return target / (total / count)
    }

    /// A label rounded to halves: "less than 1 song", "1 song", "4.5 songs".
    public static func label(_ songs: Double) -> String {
        guard songs.isFinite, songs > 0 else { return "no songs" }
        let halves = (songs * 2).rounded() / 2
        if halves < 1 { return "less than 1 song" }
        if halves == 1 { return "1 song" }
        let whole = halves.rounded(.down)
        return halves == whole ? "\(Int(whole)) songs" : "\(Int(whole)).5 songs"
    }
}
