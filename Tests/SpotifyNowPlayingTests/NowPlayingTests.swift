import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

@testable import SpotifyNowPlaying

/// Runs a monitor against the emulator's virtual player on one test clock, stepping time from
/// deadline to deadline and collecting the states it emits.
final class MonitorHarness: Sendable {
    let clock = VirtualClock()
    let states = Lock<[(Date, NowPlayingState)]>([])

    func configuration() -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        let clock = self.clock
        configuration.time = .external { clock.now }
        configuration.accessTokenTTL = .seconds(86400 * 7)
        return configuration
    }

    /// One scripted action on the player, at a time after the start.
    typealias Step = VirtualClock.Step

    /// Starts the monitor, then moves the clock to whichever comes first, the next scripted step or
    /// the monitor's next poll, until `end`.
    func run(
        _ emulator: EmulatorServer, tokens: (any AccessTokenProvider)? = nil,
        policy: NowPlayingMonitor.Polling = .responsive,
        until end: Duration, steps: [Step] = []
    ) async throws -> NowPlayingMonitor {
        let provider: any AccessTokenProvider =
            if let tokens { tokens } else { StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())) }
        let client = SpotifyClient(
            configuration: .emulator(url: emulator.baseURL), tokens: provider, transport: PatientTransport(),
            clock: clock)
        let monitor = NowPlayingMonitor(client: client, policy: policy)
        // The world is set up before the first poll.
        for step in steps where step.at == .zero { await step.action() }
        let consumer = Task {
            for await state in monitor.states() { states.withLock { $0.append((clock.now, state)) } }
        }
        await clock.play(for: end, steps: steps.filter { $0.at > .zero })
        // Let the consumer see every state the monitor emitted before stopping it; fail loudly if
        // it never does.
        try await waitUntil("the consumer saw every state emitted") {
            states.withLock { $0.count } >= monitor.emittedCount
        }
        consumer.cancel()
        return monitor
    }

    var emitted: [NowPlayingState] { states.withLock { $0.map(\.1) } }
}

@Suite("Now playing on the virtual player", .serialized)
struct NowPlayingTests {
    /// What plays says whether Spotify marks it explicit, from the same answer (a children's app
    /// shows it or skips the song).
    @Test func theItemSaysWhetherItIsExplicit() async throws {
        let harness = MonitorHarness()
        let catalog = Catalog.generated(seed: harness.configuration().seed)
        let calm = try #require(catalog.playlists.values.first { $0.name == "Calm Evening" })
        let marks = calm.entries.map { $0.map { $0.kind == .track ? $0.explicit : nil } ?? nil }
        let explicit = try #require(marks.firstIndex(of: true))
        let clean = try #require(marks.firstIndex(of: false))
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
                transport: PatientTransport(), clock: harness.clock)
            for (offset, expected) in [(explicit, true), (clean, false)] {
                await emulator.control(
                    "player/play", ["context_uri": "spotify:playlist:\(calm.id)", "offset": "\(offset)"])
                let state = NowPlayingState(try await client.currentlyPlaying(), observedAt: harness.clock.now)
                guard case .playing(let item) = state else {
                    Issue.record("entry \(offset) is not playing: \(state)")
                    continue
                }
                #expect(item.isExplicit == expected, "entry \(offset): \(item.name)")
            }
        }
    }

    @Test func trackBoundariesAreSeenWithFewCalls() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let monitor = try await harness.run(
                emulator, until: .seconds(600),
                steps: [
                    .init(at: .zero) {
                        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
                    }
                ])
            let tracks = harness.emitted.compactMap { state -> String? in
                if case .playing(let item) = state { item.uri } else { nil }
            }
            // Ten minutes of 150–260 s tracks: at least three distinct tracks, each announced once.
            #expect(tracks.count >= 3)
            #expect(Set(tracks).count == tracks.count)
            // Floor: one call per track change; the 30 s cap while playing costs more, bounded here.
            #expect(monitor.callCount <= 600 / 30 + tracks.count + 1)
        }
    }

    @Test func economicalPolicyComesCloseToOneCallPerTrackAndStillSeesASkip() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let start = harness.clock.now
            let monitor = try await harness.run(
                emulator, policy: .economical, until: .seconds(1800),
                steps: [
                    .init(at: .zero) {
                        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
                    },
                    .init(at: .seconds(1500)) { await emulator.control("player/next") },
                ])
            let seen = harness.emitted.compactMap { state -> NowPlayingItem? in
                if case .playing(let item) = state { item } else { nil }
            }
            // Floor: one call per change. Calm tracks cost their end poll plus at most a few capped ones.
            #expect(monitor.callCount <= seen.count * 3 / 2 + 2, "\(monitor.callCount) calls for \(seen.count) changes")
            // Every natural change is seen within the margin; the skip at 1500 s within the calm cap.
            var sawSkip = false
            for item in seen.dropFirst() {
                let startedAt = item.observedAt.timeIntervalSince(start) - item.progress.seconds
                if abs(startedAt - 1500) < 0.5 {
                    sawSkip = true
                    #expect(item.progress <= NowPlayingMonitor.Polling.economical.calmPlayingInterval!)
                } else {
                    #expect(item.progress <= .seconds(2), "a natural track change seen \(item.progress) late")
                }
            }
            #expect(sawSkip)
        }
    }

    @Test func pauseResumeSkipAdAndNothingPlaying() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let calm = try #require(await emulator.playlists().first { $0.name == "Calm Evening" }).id
            _ = try await harness.run(
                emulator, until: .seconds(600),
                steps: [
                    .init(at: .zero) {
                        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(calm)"])
                    },
                    .init(at: .seconds(60)) { await emulator.control("player/pause") },
                    .init(at: .seconds(120)) { await emulator.control("player/resume") },
                    .init(at: .seconds(200)) { await emulator.control("player/next") },
                    .init(at: .seconds(260)) { await emulator.control("player/ad", ["seconds": "30"]) },
                    .init(at: .seconds(400)) { await emulator.control("player/stop") },
                ])
            let kinds = harness.emitted.map { state -> String in
                switch state {
                case .playing: "playing"
                case .paused: "paused"
                case .ad: "ad"
                case .nothingPlaying: "nothing"
                case .unavailable: "unavailable"
                }
            }
            #expect(kinds.first == "playing")
            #expect(kinds.contains("paused"))
            #expect(kinds.contains("ad"))
            #expect(kinds.last == "nothing")
            #expect(!kinds.contains("unavailable"))
        }
    }

    @Test func episodesAreTyped() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let calm = try #require(await emulator.playlists().first { $0.name == "Calm Evening" }).id
            _ = try await harness.run(
                emulator, until: .seconds(10),
                steps: [
                    .init(at: .zero) {
                        await emulator.control(
                            "player/play", ["context_uri": "spotify:playlist:\(calm)", "offset": "30"])
                    }
                ])
            guard case .playing(let item) = harness.emitted.first else { Issue.record("expected playing"); return }
            #expect(item.kind == .episode)
        }
    }

    @Test func disconnectStopsAllCalls() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let monitor = try await harness.run(emulator, tokens: SignedOutProvider(), until: .seconds(600))
            #expect(harness.emitted == [.unavailable(.signedOut)])
            #expect(monitor.callCount == 1)
            #expect(await emulator.requestCount("GET /v1/me/player/currently-playing") == 0)
        }
    }

    @Test func rateLimitDuringMonitoringWaitsItOut() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            await emulator.control("faults", ["kind": "429", "retry_after": "3600"])
            let monitor = try await harness.run(emulator, until: .seconds(1800))
            #expect(harness.emitted.first == .unavailable(.rateLimited(retryAfter: .seconds(3600))))
            #expect(monitor.callCount == 1)
        }
    }

    @Test func routineSummaryInSongs() {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        func item(_ uri: String, _ seconds: Int, at offset: TimeInterval) -> NowPlayingItem {
            NowPlayingItem(
                kind: .track, uri: uri, name: uri, subtitle: nil, duration: .seconds(seconds), contextURI: nil,
                progress: .zero, observedAt: start.addingTimeInterval(offset))
        }
        var routine = RoutineListening(playlist: .playlist(try! SpotifyID("37i9dQZF1DXcBWIGoYBM5M")))
        #expect(routine.summary(at: start).songs == nil && routine.summary(at: start).tracksPlayed == 0)
        routine.observe(.playing(item("a", 200, at: 0)), at: start)
        routine.observe(.playing(item("b", 300, at: 200)), at: start.addingTimeInterval(200))
        routine.observe(.playing(item("c", 240, at: 500)), at: start.addingTimeInterval(500))
        let summary = routine.summary(at: start.addingTimeInterval(620))
        #expect(summary.tracksPlayed == 3)
        #expect(abs((summary.songs ?? 0) - 2.5) < 1e-9)
        #expect(summary.timeListened == .seconds(620))
        #expect(routine.uri == "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M")
    }

    @Test func scheduleIsAPureStateMachine() {
        var schedule = PollSchedule(policy: .responsive)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let item = NowPlayingItem(
            kind: .track, uri: "u", name: "n", subtitle: nil, duration: .seconds(200), contextURI: nil, progress: .zero,
            observedAt: Date())
        #expect(schedule.delay(after: .playing(item), remaining: .seconds(10), now: now) == .milliseconds(11500))
        #expect(schedule.delay(after: .playing(item), remaining: .seconds(100), now: now) == .seconds(30))
        #expect(schedule.delay(after: .nothingPlaying, remaining: nil, now: now) == .seconds(15))
        #expect(schedule.delay(after: .nothingPlaying, remaining: nil, now: now) == .seconds(30))
        #expect(schedule.delay(after: .nothingPlaying, remaining: nil, now: now) == .seconds(60))
        #expect(schedule.delay(after: .nothingPlaying, remaining: nil, now: now) == .seconds(120))
        #expect(schedule.delay(after: .nothingPlaying, remaining: nil, now: now) == .seconds(120))
        #expect(
            schedule.delay(after: .unavailable(.rateLimited(retryAfter: .seconds(300))), remaining: nil, now: now)
                == .seconds(300))
    }

    @Test func economicalCapGrowsWhileCalmAndShrinksOnAUserAction() {
        var schedule = PollSchedule(policy: .economical)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func item(_ uri: String) -> NowPlayingItem {
            NowPlayingItem(
                kind: .track, uri: uri, name: "n", subtitle: nil, duration: .seconds(600), contextURI: nil,
                progress: .zero, observedAt: Date())
        }
        // A long track: 30 s, then the cap doubles on every poll that finds it still playing.
        #expect(schedule.delay(after: .playing(item("a")), remaining: .seconds(590), now: now) == .seconds(30))
        #expect(schedule.delay(after: .playing(item("a")), remaining: .seconds(560), now: now) == .seconds(60))
        #expect(schedule.delay(after: .playing(item("a")), remaining: .seconds(500), now: now) == .seconds(120))
        #expect(schedule.delay(after: .playing(item("a")), remaining: .seconds(380), now: now) == .seconds(240))
        #expect(
            schedule.delay(after: .playing(item("a")), remaining: .seconds(140), now: now) == .milliseconds(141_500))
        // The next track found by the track-end poll is as predicted: the cap keeps growing.
        #expect(schedule.delay(after: .playing(item("b")), remaining: .seconds(600), now: now) == .seconds(480))
        // A different track found by a capped poll is a skip: back to 30 s.
        #expect(schedule.delay(after: .playing(item("c")), remaining: .seconds(600), now: now) == .seconds(30))
        // A pause, then a resume: the resume is a user action too.
        _ = schedule.delay(after: .paused(item("c")), remaining: nil, now: now)
        #expect(schedule.delay(after: .playing(item("c")), remaining: .seconds(500), now: now) == .seconds(30))
        #expect(PollSchedule(policy: .responsive).playingCap == .seconds(30))
    }
}

struct SignedOutProvider: AccessTokenProvider {
    struct NotSignedIn: Error {}
    func accessToken() async throws -> AccessToken { throw NotSignedIn() }
    func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken { throw NotSignedIn() }
}

@Suite("Now playing across a token expiry", .serialized)
struct NowPlayingTokenTests {
    @Test func tokenExpiryDuringMonitoringRefreshesOnceAndCarriesOn() async throws {
        let harness = MonitorHarness()
        var configuration = harness.configuration()
        configuration.accessTokenTTL = .seconds(3600)
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let tokens = RefreshingProvider(emulator: emulator)
            let monitor = try await harness.run(
                emulator, tokens: tokens, until: .seconds(5400),
                steps: [
                    .init(at: .zero) {
                        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
                    }
                ])
            #expect(!harness.emitted.contains { if case .unavailable = $0 { true } else { false } })
            #expect(tokens.refreshes == 1)
            #expect(monitor.callCount > 10)
        }
    }
}

/// Hands out emulator tokens and mints a new one when the old one is rejected.
final class RefreshingProvider: AccessTokenProvider {
    let emulator: EmulatorServer
    private let state = Lock<(token: String?, refreshes: Int)>((nil, 0))

    init(emulator: EmulatorServer) { self.emulator = emulator }

    var refreshes: Int { state.withLock { $0.refreshes } }

    func accessToken() async throws -> AccessToken {
        if let token = state.withLock({ $0.token }) { return AccessToken(token) }
        let token = await emulator.issueAccessToken()
        state.withLock { $0.token = token }
        return AccessToken(token)
    }

    func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken {
        let token = await emulator.issueAccessToken()
        state.withLock {
            $0.token = token
            $0.refreshes += 1
        }
        return AccessToken(token)
    }
}

/// Going to the background pauses every subscriber, and a subscriber that stops while the app is
/// in the background ends at once.
@Suite("Now playing with several subscribers in the background", .serialized)
struct NowPlayingBackgroundTests {
    let clock = VirtualClock()

    func monitor(_ emulator: EmulatorServer) async -> NowPlayingMonitor {
        let client = SpotifyClient(
            configuration: .emulator(url: emulator.baseURL),
            tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
            transport: PatientTransport(), clock: clock)
        return NowPlayingMonitor(client: client, policy: .responsive)
    }

    /// Two subscribers park in the background; both poll again when the app returns (with one
    /// shared slot, the first was left parked for good).
    @Test func everySubscriberParksAndEveryOneResumes() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let monitor = await monitor(emulator)
            let seen = Shared([0, 0])
            let subscribers = (0..<2).map { index in
                Task { for await _ in monitor.states() { seen.value.withLock { $0[index] += 1 } } }
            }
            try await waitUntil("both subscribers polled") { seen.value.withLock { $0 } == [1, 1] }
            monitor.setBackground(true)
            try await clock.waitForSleepers(2)
            clock.advance(by: .seconds(30))
            try await waitUntil("both subscribers parked") { monitor.parkedCount == 2 }
            #expect(clock.sleeperCount == 0)
            let calls = monitor.callCount
            monitor.setBackground(false)
            try await waitUntil("both subscribers polled again") { monitor.callCount == calls + 2 }
            #expect(monitor.parkedCount == 0)
            try await clock.waitForSleepers(2)
            for subscriber in subscribers { subscriber.cancel() }
        }
    }

    /// A consumer that stops while the app is in the background is gone at once, not when the app
    /// returns.
    @Test func aSubscriberStoppedInTheBackgroundEndsAtOnce() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let monitor = await monitor(emulator)
            let ended = Shared(false)
            let consumer = Task {
                for await _ in monitor.states() {}
                ended.value.withLock { $0 = true }
            }
            try await clock.waitForSleepers(1)
            monitor.setBackground(true)
            clock.advance(by: .seconds(30))
            try await waitUntil("the subscriber parked") { monitor.parkedCount == 1 }
            #expect(monitor.runningCount == 1)
            consumer.cancel()
            try await waitUntil("the stopped subscriber ended") { ended.value.withLock { $0 } }
            // Its polling loop is gone too, not waiting for the app to return.
            try await waitUntil("the stopped subscriber's loop ended") { monitor.runningCount == 0 }
            #expect(monitor.parkedCount == 0)
            let calls = monitor.callCount
            monitor.setBackground(false)
            #expect(clock.sleeperCount == 0)
            #expect(monitor.callCount == calls)
        }
    }
}

/// A value tasks share behind the package's lock.
final class Shared<Value: Sendable>: Sendable {
    let value: Lock<Value>
    init(_ value: Value) { self.value = Lock(value) }
}
