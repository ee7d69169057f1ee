/// Time expressed in songs, the routine app's idea: "you got through 4.5 songs".
public enum SongTime {
    /// Songs a playlist's average track fits into `target`, from its saved count and duration;
    /// `nil` when either is unknown. What a card shows before anything plays ("20 min ≈ 5.5 songs").
    public static func estimate(_ target: Duration, in metadata: PlaylistMetadata) -> Double? {
        guard let total = metadata.totalDuration, let count = metadata.trackCount, count > 0, total > .zero else {
            return nil
        }
        return target / (total / count)
    }

    /// A label rounded to halves, in English: "less than 1 song", "1 song", "4.5 songs".
    /// `SpotifyText` words it for people (`.songs`), in the user's language.
    package static func label(_ songs: Double) -> String {
        guard songs.isFinite, songs > 0 else { return "no songs" }
        let halves = (songs * 2).rounded() / 2
        if halves < 1 { return "less than 1 song" }
        if halves == 1 { return "1 song" }
        let whole = halves.rounded(.down)
        return halves == whole ? "\(Int(whole)) songs" : "\(Int(whole)).5 songs"
    }
}
