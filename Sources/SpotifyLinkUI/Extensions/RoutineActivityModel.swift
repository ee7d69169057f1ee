import Foundation
public import Observation
import PlaylistLinks
public import SpotifyLinkExtensions
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyWebAPI

/// A running routine's Live Activity on the Lock Screen and in the Dynamic Island: the routine,
/// "song 3 of ≈ 6" and the time left, which counts down by itself (no update, no request).
///
/// The app starts it as the routine begins, with the now-playing indicator it already shows; the
/// Live Activity then follows what plays, updated only when its line changes (a new song, a pause),
/// and ends with the indicator's `finishRoutine()`, or at once at a disconnect, which leaves
/// nothing of the account on the Lock Screen. Make one with ``SpotifyLink/routineActivity()``.
///
/// On iOS it runs through ActivityKit (the app's Info.plist sets `NSSupportsLiveActivities`, and
/// its widget extension shows `RoutineActivityAttributes`); elsewhere it keeps ``state`` only.
@MainActor @Observable
public final class RoutineActivityModel {
    /// What the Live Activity shows now; `nil` before ``start(_:lasting:following:)`` and after it ended.
    public private(set) var state: RoutineActivityAttributes.ContentState?
    /// Why the last start showed nothing (the user turned Live Activities off for the app, or
    /// ActivityKit refused it); `nil` once one starts. `SpotifyMessage(startFailure)` words it
    /// (``SpotifyMessage/liveActivitiesOff``).
    public private(set) var startFailure: (any Error)?

    private let spotify: SpotifyLink
    private var id: String?
    /// Updates sent since the start (the bench holds them to the line's changes).
    package private(set) var updatesSent = 0
    /// The update or end in flight: the next one waits for it, so they arrive in order.
    private var delivery: Task<Void, Never>?

    init(spotify: SpotifyLink) {
        self.spotify = spotify
    }

    /// Starts the Live Activity of `routine`, ending `length` from now, following what `indicator`
    /// sees (start the indicator with the routine's playlist first). Its playlist's name and
    /// songs come from the saved link (no request) and are shown only while Spotify is connected.
    /// A Live Activity this model showed before ends first. Cancelled while it reads the saved
    /// link, it starts nothing.
    public func start(
        _ routine: ExtensionRecord, lasting length: Duration, following indicator: NowPlayingIndicatorModel
    )
        async
    {
        await end()
        let clock = spotify.services.clock
        let card = try? await spotify.links.card(
            for: routine.record, retention: spotify.services.configuration.retention, at: clock.now)
        guard !Task.isCancelled else { return }
        // Nothing of the account once it disconnected, also while the link was being read.
        let metadata = spotify.connection.isConnected ? card?.metadata : nil
        let attributes = RoutineActivityAttributes(
            namespace: routine.record.namespace, recordID: routine.record.id, title: routine.title ?? "",
            playlistName: metadata?.name)
        let now = clock.now
        let songs = metadata.flatMap { SongTime.estimate(length, in: $0) }
        let state = RoutineActivityAttributes.ContentState(
            startedAt: now, endsAt: now.addingTimeInterval(length.seconds), songsInRoutine: songs,
            status: spotify.text(.routineSong(nil, of: songs)))
        if let host = spotify.routineActivityHost {
            do {
                id = try host.start(attributes, state, staleAt: state.endsAt)
            } catch {
                startFailure = error
                return
            }
        }
        self.state = state
        updatesSent = 0
        startFailure = nil
        indicator.liveActivity = self
        // What already plays shows at once, not at the indicator's next poll.
        observed(indicator.item, song: indicator.currentSong)
    }

    /// What plays changed (the indicator calls this): the Live Activity is updated only when its
    /// line changes.
    func observed(_ item: NowPlayingItem?, song: Int?) {
        guard let now = state, !now.hasEnded else { return }
        let song = item == nil ? nil : song
        let next = RoutineActivityAttributes.ContentState(
            startedAt: now.startedAt, endsAt: now.endsAt, song: song, songsInRoutine: now.songsInRoutine,
            nowPlaying: item?.name, status: spotify.text(.routineSong(song, of: now.songsInRoutine)))
        guard next != now else { return }
        state = next
        if id != nil { updatesSent += 1 }
        deliver { host, id in await host.update(id, next) }
    }

    /// The routine ended (the indicator's `finishRoutine()` calls this): its last line says the
    /// songs heard ("You got through 4.5 songs."), without what played, and stays on the Lock
    /// Screen as the system keeps an ended Live Activity.
    func finished(_ summary: RoutineListening.Summary?) {
        guard let now = state, !now.hasEnded else { return }
        let heard = (summary?.tracksPlayed ?? 0) > 0 ? summary?.songs : nil
        let last = RoutineActivityAttributes.ContentState(
            startedAt: now.startedAt, endsAt: now.endsAt, songsInRoutine: now.songsInRoutine,
            status: spotify.text(.routineSummary(songs: heard)), hasEnded: true)
        state = last
        deliver { host, id in await host.end(id, last, immediately: false) }
        id = nil
    }

    /// Ends the Live Activity at once, leaving nothing on the Lock Screen. It runs to its end also
    /// when the caller's task is cancelled.
    public func end() async {
        state = nil
        deliver { host, id in await host.end(id, nil, immediately: true) }
        id = nil
        await delivery?.value
    }

    /// A disconnect ended every routine Live Activity of the app: nothing is sent after it.
    func disconnected() {
        state = nil
        id = nil
    }

    /// Sends `send` for the Live Activity shown, after the one in flight: unstructured, so a
    /// view's cancelled task neither cuts an update short nor reorders it.
    private func deliver(_ send: @escaping @Sendable (any RoutineActivityHost, String) async -> Void) {
        guard let id, let host = spotify.routineActivityHost else { return }
        let previous = delivery
        delivery = Task { @MainActor in
            await previous?.value
            await send(host, id)
        }
    }

    /// Waits for the updates sent so far (tests, the bench).
    package func delivered() async {
        await delivery?.value
    }
}
