import Foundation
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkExtensions
@_spi(Storage) import SpotifyLinkUI
import SpotifyTesting
import Testing

/// A running routine's Live Activity, through a host that records what ActivityKit would show:
/// it follows what plays with an update only when its line changes, ends with the routine, and a
/// disconnect removes it at once.
@MainActor
@Suite("A routine's Live Activity")
struct RoutineActivityTests {
    struct Running {
        let harness: UIHarness
        let host: RecordingRoutineHost
        let indicator: NowPlayingIndicatorModel
        let activity: RoutineActivityModel
        let deep: SpotifyID
    }

    /// Connected, "Deep Work" linked to a routine with its details read, the indicator following
    /// the routine's playlist and its Live Activity started for 20 minutes.
    static func running(host: RecordingRoutineHost = RecordingRoutineHost()) async throws -> Running {
        let harness = try await UIHarness.connected()
        let record = RecordID(namespace: "routine", id: "morning")
        let deep = try await harness.playlistID("Deep Work")
        try await harness.links.link(record, to: deep)
        let card = harness.spotify.card(for: record)
        await card.load()
        await card.waitForRefresh()
        harness.spotify.routineActivityHost = host
        let indicator = harness.spotify.nowPlaying(policy: .responsive)
        indicator.start(routine: .playlist(deep))
        let activity = harness.spotify.routineActivity()
        await activity.start(ExtensionRecord(record, title: "Morning"), lasting: .seconds(1200), following: indicator)
        return Running(harness: harness, host: host, indicator: indicator, activity: activity, deep: deep)
    }

    /// Its line follows the songs ("Song 1 of ≈ 6", "Song 2 of ≈ 6"): one update per change, not
    /// one per poll; the time left is the interval the Lock Screen counts down by itself; the end
    /// of the routine says the songs heard and keeps it on the Lock Screen, without what played.
    @Test func itFollowsTheSongsAndEndsWithTheRoutine() async throws {
        let running = try await Self.running()
        let (harness, host) = (running.harness, running.host)
        let shown = try #require(host.running.first)
        #expect(shown.attributes.title == "Morning" && shown.attributes.playlistName == "Deep Work")
        let first = try #require(shown.states.first)
        let songs = try #require(first.songsInRoutine)
        #expect(songs > 3 && songs < 10, "20 minutes of 150–260 s songs")
        #expect(first.timerInterval.upperBound.timeIntervalSince(first.timerInterval.lowerBound) == 1200)
        #expect(first.status == "Not playing · about \(Int(songs.rounded())) songs")

        let emulator = harness.emulator
        let deep = running.deep
        await harness.clock.play(
            for: .seconds(900),
            steps: [
                .init(at: .seconds(1)) {
                    await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
                }
            ])
        await running.activity.delivered()
        let states = try #require(host.running.first?.states)
        let lines = states.map(\.status)
        #expect(lines.contains("Song 1 of ≈ \(Int(songs.rounded()))"), "\(lines)")
        #expect(lines.contains("Song 3 of ≈ \(Int(songs.rounded()))"), "\(lines)")
        #expect(Set(lines).count == lines.count, "an update only when the line changes: \(lines)")
        #expect(running.activity.updatesSent == states.count - 1)
        #expect(running.activity.updatesSent < running.indicator.callCount, "fewer updates than polls")
        #expect(states.allSatisfy { (try? $0.encodedSize()).map { $0 <= 1024 } == true })
        #expect(states.last?.nowPlaying == running.indicator.item?.name)

        let summary = try #require(running.indicator.finishRoutine())
        await running.activity.delivered()
        let ended = try #require(host.activities.first)
        #expect(ended.ended && !ended.removedAtOnce, "kept on the Lock Screen as the system keeps an ended one")
        let last = try #require(ended.states.last)
        #expect(last.hasEnded && last.nowPlaying == nil && last.song == nil)
        #expect(last.status == harness.spotify.text(.routineSummary(songs: summary.songs)))
        await harness.stop()
    }

    /// A disconnect removes the Live Activity at once (nothing of the account stays on the Lock
    /// Screen for the four hours an ended one may), and nothing is sent to it after.
    @Test func aDisconnectRemovesItAtOnce() async throws {
        let running = try await Self.running()
        let (harness, host) = (running.harness, running.host)
        let emulator = harness.emulator
        let deep = running.deep
        await harness.clock.play(
            for: .seconds(120),
            steps: [
                .init(at: .seconds(1)) {
                    await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
                }
            ])
        #expect(host.running.count == 1)
        await harness.connection.disconnect()
        #expect(host.running.isEmpty, "ended by the disconnect")
        #expect(host.activities.first?.removedAtOnce == true)
        #expect(running.activity.state == nil)
        let sent = running.activity.updatesSent
        await harness.clock.play(for: .seconds(300))
        running.indicator.finishRoutine()
        #expect(running.activity.updatesSent == sent, "nothing sent after the disconnect")
        #expect(host.activities.first?.states.last?.hasEnded == false, "no summary after the disconnect")
        await harness.stop()
    }

    /// Started while a song already plays, it shows that song at once, with ActivityKit (iOS) and
    /// without (macOS, where only ``RoutineActivityModel/state`` shows it): not at the next poll.
    @Test(arguments: [true, false]) func whatAlreadyPlaysShowsAtOnce(withHost: Bool) async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        let host = RecordingRoutineHost()
        harness.spotify.routineActivityHost = withHost ? host : nil
        await harness.emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
        let indicator = harness.spotify.nowPlaying(policy: .responsive)
        indicator.start(routine: .playlist(deep))
        // Its first poll, which sees the song (no clock moves).
        try await waitUntil("the indicator's first poll sees the song") { indicator.item != nil }
        let playing = try #require(indicator.item?.name)
        let polls = indicator.callCount
        let activity = harness.spotify.routineActivity()
        await activity.start(ExtensionRecord(record, title: "Morning"), lasting: .seconds(600), following: indicator)
        #expect(indicator.callCount == polls, "no poll of its own")
        #expect(activity.state?.nowPlaying == playing)
        #expect(activity.state?.song == 1, "the first song of the routine")
        if withHost {
            await activity.delivered()
            #expect(host.running.first?.states.last?.nowPlaying == playing)
        }
        await harness.stop()
    }

    /// The sign-in ends without the user disconnecting here: another process of the app signed
    /// out, or Spotify refused the refresh token (access removed on the account page). The Live
    /// Activity goes at once all the same: nothing of the account stays on the Lock Screen.
    @Test(arguments: ["signed out elsewhere", "refused by Spotify"])
    func aSignInEndedElsewhereRemovesItToo(how: String) async throws {
        let running = try await Self.running()
        let (harness, host) = (running.harness, running.host)
        #expect(host.running.count == 1)
        if how == "signed out elsewhere" {
            try await harness.session.signOut()
        } else {
            // The stored refresh token is one Spotify never issued, and the access token has
            // expired: the indicator's next poll asks for a refresh, which Spotify refuses.
            var tokens = try #require(try await harness.session.tokens())
            tokens.refreshToken = RefreshToken("SENTINEL_RT_never_issued")
            tokens.expiresAt = harness.clock.now.addingTimeInterval(-1)
            try await harness.session.store.save(tokens, for: harness.session.key)
            harness.clock.advance(by: .seconds(3600))
            await harness.clock.play(for: .seconds(120))
        }
        try await waitUntil("the Live Activity ends (\(how))") { host.running.isEmpty }
        #expect(host.activities.first?.removedAtOnce == true)
        #expect(running.activity.state == nil)
        #expect(!harness.connection.isConnected)
        await harness.stop()
    }

    /// Live Activities turned off for the app: the routine runs without one, and the model says why.
    @Test func turnedOffTheRoutineRunsWithoutOne() async throws {
        let running = try await Self.running(host: RecordingRoutineHost(refusing: true))
        #expect(running.host.activities.isEmpty)
        #expect(running.activity.state == nil)
        #expect(running.activity.startFailure as? RoutineActivityError == .turnedOff)
        let failure = try #require(running.activity.startFailure)
        #expect(SpotifyMessage(failure) == .liveActivitiesOff, "worded for the app to show")
        #expect(running.harness.spotify.text(.liveActivitiesOff).contains("Settings"))
        #expect(running.indicator.finishRoutine() != nil, "the routine itself is unaffected")
        await running.harness.stop()
    }

    /// Cancelled while it reads the saved link (a view that went away), it starts nothing; a
    /// start after it works.
    @Test func cancelledWhileReadingTheLinkItStartsNothing() async throws {
        let harness = try await UIHarness.connected()
        let host = RecordingRoutineHost()
        harness.spotify.routineActivityHost = host
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        let indicator = harness.spotify.nowPlaying()
        indicator.start(routine: .playlist(deep))
        let activity = harness.spotify.routineActivity()
        let start = Task { await activity.start(ExtensionRecord(record), lasting: .seconds(600), following: indicator) }
        start.cancel()
        await start.value
        #expect(host.activities.isEmpty && activity.state == nil)
        await activity.start(ExtensionRecord(record), lasting: .seconds(600), following: indicator)
        #expect(host.running.count == 1)
        // A second start replaces the first: one Live Activity for the routine.
        await activity.start(ExtensionRecord(record), lasting: .seconds(600), following: indicator)
        #expect(host.running.count == 1 && host.activities.count == 2)
        await harness.stop()
    }
}

/// A widget's tap reaches the app as an extension link: the app opens the playlist it saved for
/// the record, never an address the link carries, through the parental gate.
@MainActor
@Suite("An extension's tap, opened by the app")
struct ExtensionLinkOpeningTests {
    @Test func theAppOpensItsOwnSavedPlaylist() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "12")
        let link = ExtensionLink(namespace: record.namespace, recordID: record.id, action: .openPlaylist)
        let url = try #require(link.url(scheme: "myapp"))
        let open = try #require(await harness.spotify.openInSpotify(from: url))
        #expect(open.reference == .playlist(deep))
        #expect(harness.spotify.record(from: url) == record)
        #expect(await harness.spotify.openInSpotify(for: record)?.reference == .playlist(deep))
        let before = harness.transport.requestCount
        // Another record, a record without a link, a "show" link, another URL: nothing to open.
        let unlinked = try #require(
            ExtensionLink(namespace: "session", recordID: "13", action: .openPlaylist).url(scheme: "myapp"))
        #expect(await harness.spotify.openInSpotify(from: unlinked) == nil)
        let show = try #require(
            ExtensionLink(namespace: record.namespace, recordID: record.id, action: .show).url(scheme: "myapp"))
        #expect(await harness.spotify.openInSpotify(from: show) == nil)
        #expect(harness.spotify.record(from: show) == record)
        let crafted = try #require(URL(string: url.absoluteString + "&playlist=37i9dQZF1DXcBWIGoYBM5M"))
        #expect(await harness.spotify.openInSpotify(from: crafted) == nil, "a field it does not know: not ours")
        #expect(await harness.spotify.openInSpotify(from: try #require(URL(string: "myapp://spotify-callback"))) == nil)
        #expect(harness.transport.requestCount == before, "no request")
        await harness.stop()
    }
}
