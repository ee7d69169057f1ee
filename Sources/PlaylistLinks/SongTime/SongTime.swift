/// Time expressed in songs, the routine app's idea: "you got through 4.5 songs".
public enum SongTime {
    /// Songs a playlist's average track fits into `target`, from its saved count and duration;
    /// `nil` when either is unknown (``reckon(_:in:)`` says why). What a card shows before anything plays ("20 min ≈ 5.5 songs").
    public static func estimate(_ target: Duration, in metadata: PlaylistMetadata) -> Double? {
        guard let total = metadata.totalDuration, let count = metadata.trackCount, count > 0, total > .zero else {
            return nil
        }
        return target / (total / count)
    }

    /// What a time in songs can be for a playlist: a count, or why there is none. A playlist whose
    /// songs the app cannot read has no count, never a guess.
    public enum Reckoning: Sendable, Equatable {
        /// Songs of the playlist's average length that fit the time.
        case songs(Double)
        /// The songs cannot be counted, and why.
        case cannotCount(Reason)
    }

    /// Why a time cannot be put in songs.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// The user follows the playlist without owning it or collaborating on it: Spotify shows the
        /// app its name and count, not its songs (``PlaylistAvailability/detailsOnly``).
        case songsHidden
        /// One of Spotify's own playlists: Spotify shows apps nothing of it.
        case spotifyOwned
        /// Spotify no longer serves it (deleted, or no longer shared with the user).
        case unavailable
        /// Its songs have not been read yet (or their details were dropped for their age): a
        /// refresh while connected reads them.
        case notReadYet
        /// It has no songs.
        case empty
    }

    /// Songs of `metadata`'s playlist that fit into `target`, or why they cannot be counted.
    public static func reckon(_ target: Duration, in metadata: PlaylistMetadata) -> Reckoning {
        switch metadata.availability {
        case .detailsOnly: return .cannotCount(.songsHidden)
        case .spotifyOwned: return .cannotCount(.spotifyOwned)
        case .notFound, .forbidden:
            if let songs = estimate(target, in: metadata) { return .songs(songs) }  // what was saved
            return .cannotCount(.unavailable)
        case .available, .unknown:
            if let songs = estimate(target, in: metadata) { return .songs(songs) }
            if metadata.trackCount == 0 || (metadata.totalDuration == .zero && metadata.trackCount != nil) {
                return .cannotCount(.empty)
            }
            return .cannotCount(.notReadYet)
        }
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
