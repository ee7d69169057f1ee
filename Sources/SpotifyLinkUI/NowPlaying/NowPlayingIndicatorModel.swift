public import Foundation
public import Observation
public import SpotifyNowPlaying
public import SpotifyWebAPI

/// The small now-playing indicator shown while the user works through a routine, and the
/// song-count summary at its end.
///
/// It is hidden unless Spotify is connected and an item is loaded (playing or paused), and it
/// never asks the user to connect: an app whose user never connected shows nothing and calls
/// nothing.
@MainActor @Observable
public final class NowPlayingIndicatorModel {
    /// The last state seen; `nil` before the first poll.
    public private(set) var state: NowPlayingState?
    /// The routine's summary, once ``finishRoutine()`` ran.
    public private(set) var summary: RoutineListening.Summary?

    private let connection: SpotifyConnectionModel
    private let client: SpotifyClient
    private let clock: any SpotifyClock
    private let policy: NowPlayingMonitor.Polling
    private var monitor: NowPlayingMonitor?
    private var followTask: Task<Void, Never>?
    private var routine: RoutineListening?
    /// The routine's playlist, for "Open in Spotify".
    private var routinePlaylist: SpotifyReference?
    /// What "Open in Spotify" passes first (a children's app's parental gate).
    private let parentalGate: ParentalGateModel
    /// The routine's Live Activity, following what this indicator sees (``RoutineActivityModel``).
    weak var liveActivity: RoutineActivityModel?

    /// An indicator that follows the player while `spotify` is connected, polling as `policy`
    /// allows: by default `NowPlayingMonitor.Polling.default`, within 30 calls an hour of listening
    /// (`.responsive`, about 120, is opt-in: a Development Mode app shares about a thousand a day).
    /// ``SpotifyLink/nowPlaying(policy:)`` makes one.
    package init(spotify: SpotifyLink, policy: NowPlayingMonitor.Polling = .default) {
        self.connection = spotify.connection
        self.client = spotify.client
        self.clock = spotify.services.clock
        self.policy = policy
        self.parentalGate = spotify.parentalGate
    }

    /// "Open in Spotify" for the routine's playlist (``start(routine:)``): the Spotify app, else
    /// `fallback`; `nil` without a routine. With a parental gate, opening it asks an adult first.
    public func openInSpotify(fallback: OpenInSpotify.Fallback = .webPlayer) -> OpenInSpotify? {
        routinePlaylist.map { OpenInSpotify($0, fallback: fallback).gated(by: parentalGate) }
    }

    /// Whether to show the indicator at all.
    public var isVisible: Bool {
        guard connection.isConnected else { return false }
        switch state {
        case .playing, .paused: return true
        default: return false
        }
    }

    /// The item shown, if any: none while disconnected.
    public var item: NowPlayingItem? {
        guard connection.isConnected else { return nil }
        switch state {
        case .playing(let item), .paused(let item): return item
        default: return nil
        }
    }

    /// "Explicit" beside the item shown when Spotify marks it so (a children's app may also skip
    /// it); `nil` otherwise, and while nothing is shown. It comes with what plays: no request.
    public var explicitLabel: SpotifyMessage? {
        item?.isExplicit == true ? .explicitItem : nil
    }

    /// The routine's song playing now, counted from 1 ("song 3"); `nil` without a routine or while
    /// nothing plays.
    var currentSong: Int? { item == nil ? nil : routine?.currentSong }

    /// Whether the item shown is paused.
    public var isPaused: Bool {
        if case .paused = state { return true }
        return false
    }

    /// The position now, computed locally between polls (for a progress bar).
    public func progress(at now: Date) -> Duration? {
        item.map { $0.progress(at: now, playing: !isPaused) }
    }

    /// Starts following what plays; with `playlist`, also counts the routine's songs. Does nothing
    /// while disconnected; called as the app launches, before the stored sign-in has been read, it
    /// follows once that read finds one. Returns the links that open the playlist in Spotify.
    @discardableResult
    public func start(routine playlist: SpotifyReference? = nil) -> RoutineListening? {
        stop()
        summary = nil
        routine = playlist.map(RoutineListening.init(playlist:))
        routinePlaylist = playlist
        guard connection.isConnected || !connection.isStoredSignInKnown else { return routine }
        let monitor = NowPlayingMonitor(client: client, policy: policy)
        self.monitor = monitor
        let clock = self.clock
        let connection = self.connection
        followTask = Task {
            await connection.storedSignInKnown()
            guard connection.isConnected else { return }
            // A sign-in that ends meanwhile shows on the settings screen through the session's status.
            for await state in monitor.states() {
                // Disconnected while Spotify answered: nothing of that account is shown, and the
                // polling ends (leaving the loop stops the monitor).
                guard connection.isConnected else {
                    self.state = nil
                    break
                }
                self.state = state
                routine?.observe(state, at: clock.now)
                liveActivity?.observed(item, song: currentSong)
            }
        }
        return routine
    }

    /// Stops polling; the summary of a routine stays available through ``finishRoutine()``.
    public func stop() {
        followTask?.cancel()
        followTask = nil
    }

    /// Ends the routine: stops polling and sums it up (``summaryMessage`` words it: "You got
    /// through 4.5 songs.").
    @discardableResult
    public func finishRoutine() -> RoutineListening.Summary? {
        stop()
        guard let routine else { return nil }
        summary = routine.summary(at: clock.now)
        self.routine = nil
        liveActivity?.finished(summary)
        liveActivity = nil
        return summary
    }

    /// The routine's summary as a message, once ``finishRoutine()`` ran.
    public var summaryMessage: SpotifyMessage? {
        summary.map { .routineSummary(songs: $0.tracksPlayed > 0 ? $0.songs : nil) }
    }

    /// Pauses polling while the app is in the background (no calls there).
    public func setBackground(_ background: Bool) {
        monitor?.setBackground(background)
    }

    /// Calls the monitor made (for diagnostics and tests).
    package var callCount: Int { monitor?.callCount ?? 0 }
    /// Whether a polling loop still runs (tests wait for a stop to end it).
    package var isPolling: Bool { (monitor?.runningLoops ?? 0) > 0 }
}
