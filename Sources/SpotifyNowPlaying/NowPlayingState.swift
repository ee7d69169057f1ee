public import Foundation
import SpotifyLinkSupport
package import SpotifyWebAPI

/// What plays, as a screen shows it.
public struct NowPlayingItem: Sendable, Equatable {
    /// Whether the item is a song or a podcast episode.
    public enum Kind: Sendable, Equatable {
        /// A song.
        case track
        /// A podcast episode.
        case episode
    }
    /// Whether the item is a song or a podcast episode.
    public var kind: Kind
    /// The item's `spotify:` URI.
    public var uri: String
    /// The track's or episode's name.
    public var name: String
    /// Artists for tracks, the show for episodes.
    public var subtitle: String?
    /// The item's length.
    public var duration: Duration
    /// What it plays from (a playlist's or album's URI), when Spotify says.
    public var contextURI: String?
    /// The position at ``observedAt``.
    public var progress: Duration
    /// When this was read from Spotify (progress is computed from it locally).
    public var observedAt: Date
    /// Whether Spotify marks the item explicit (a children's app may say so, or skip it); `false`
    /// when Spotify does not say.
    public var isExplicit = false

    /// The position at `now`, computed locally between polls.
    public func progress(at now: Date, playing: Bool) -> Duration {
        guard playing else { return progress }
        return min(duration, progress + .clampedSeconds(now.timeIntervalSince(observedAt)))
    }

    /// Time left at `now` while playing.
    public func remaining(at now: Date) -> Duration { duration - progress(at: now, playing: true) }
}

/// The states a now-playing indicator shows.
public enum NowPlayingState: Sendable, Equatable {
    /// Spotify is reachable and nothing is loaded in any player.
    case nothingPlaying
    /// An item is playing.
    case playing(NowPlayingItem)
    /// An item is loaded and paused.
    case paused(NowPlayingItem)
    /// An advertisement (Spotify Free).
    case ad
    /// What is playing cannot be known now, and why.
    case unavailable(UnavailableReason)

    /// Why what is playing cannot be known.
    public enum UnavailableReason: Sendable, Equatable {
        /// No one is signed in (or the sign-in ended): monitoring stops.
        case signedOut
        /// Spotify cannot be reached; the monitor tries again later.
        case offline
        /// Spotify's 30-second rate limit: polling resumes after `retryAfter`.
        case rateLimited(retryAfter: Duration)
        /// Spotify's daily quota for the app is used up: no poll is sent before `retryAfter` has passed.
        case quotaExceeded(retryAfter: Duration)
        /// The app's daily request budget is spent: polls resume after `retryAfter`.
        case budgetExhausted(retryAfter: Duration)
        /// The sign-in lacks the now-playing scope: a new sign-in must grant it. Polling stops.
        case missingScope
        /// Spotify refused (403) for another reason, explained in the message (the account is not on
        /// the app's user list, the owner's Premium lapsed). Polling stops.
        case refused(String)

        /// Whether the monitor stops for good on this reason: polling again cannot help.
        public var endsMonitoring: Bool {
            switch self {
            case .signedOut, .missingScope, .refused: true
            default: false
            }
        }
    }

    /// The same state apart from the position: changes of position alone are not events.
    func isSameMoment(as other: NowPlayingState) -> Bool {
        switch (self, other) {
        case (.playing(let a), .playing(let b)), (.paused(let a), .paused(let b)):
            a.uri == b.uri && a.contextURI == b.contextURI
        default:
            self == other
        }
    }

    /// The state Spotify's answer describes (`nil`: nothing playing), read at `observedAt`.
    package init(_ playing: CurrentlyPlaying?, observedAt: Date) {
        guard let playing else {
            self = .nothingPlaying
            return
        }
        let item: NowPlayingItem
        switch playing.item {
        case .ad:
            self = .ad
            return
        case .unknown:
            self = .nothingPlaying
            return
        case .track(let track):
            item = NowPlayingItem(
                kind: .track, uri: track.uri ?? "", name: track.name, subtitle: track.artistLine,
                duration: track.duration,
                contextURI: playing.contextURI, progress: playing.progress ?? .zero, observedAt: observedAt,
                isExplicit: playing.item.isExplicit)
        case .episode(let episode):
            item = NowPlayingItem(
                kind: .episode, uri: episode.uri ?? "", name: episode.name, subtitle: episode.showName,
                duration: episode.duration, contextURI: playing.contextURI, progress: playing.progress ?? .zero,
                observedAt: observedAt, isExplicit: playing.item.isExplicit)
        }
        self = playing.isPlaying ? .playing(item) : .paused(item)
    }
}
