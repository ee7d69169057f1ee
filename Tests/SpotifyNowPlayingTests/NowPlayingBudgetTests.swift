import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

@testable import SpotifyNowPlaying

@Suite("Now playing on a budget", .serialized)
struct NowPlayingBudgetTests {
    @Test func anHourOfListeningStaysWithinThirtyCallsAndTrackChangesAreSeenAtOnce() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let running = try #require(await emulator.playlists().first { $0.name == "Running Mix" }).id
            let monitor = try await harness.run(
                emulator, policy: NowPlayingMonitor.Polling(), until: .seconds(3600),
                steps: [
                    .init(at: .zero) {
                        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(running)"])
                    },
                    .init(at: .seconds(1500)) { await emulator.control("player/next") },
                ])
            #expect(monitor.callCount <= 30)
            let lags = harness.emitted.compactMap { state -> Double? in
                if case .playing(let item) = state { item.progress.seconds } else { nil }
            }
            #expect(lags.count >= 14)
            // Natural track changes: the poll lands 1.5 s after the predicted end.
            let sorted = lags.sorted()
            #expect(sorted[sorted.count / 2] <= 2)
        }
    }

    @Test func theBudgetHoldsWhenTracksAreShortAndSkipsAreMany() {
        var schedule = PollSchedule(policy: .budgeted(callsPerHour: 30))
        var now = Date(timeIntervalSince1970: 1_790_000_000)
        let end = now.addingTimeInterval(3 * 3600)
        var polls: [Date] = []
        var index = 0
        while now < end {
            polls.append(now)
            index += 1
            // A new 20-second track at every poll: the worst case for a track-end schedule.
            let item = NowPlayingItem(
                kind: .track, uri: "t\(index)", name: "n", subtitle: nil, duration: .seconds(20), contextURI: nil,
                progress: .zero, observedAt: now)
            now = now.addingTimeInterval(
                schedule.delay(after: .playing(item), remaining: .seconds(20), now: now).seconds)
        }
        // No rolling hour holds more than the budget.
        for start in polls {
            #expect(polls.filter { $0 >= start && $0 < start.addingTimeInterval(3600) }.count <= 30)
        }
        #expect(polls.count >= 3 * 25)
    }

    @Test func theMonitorSendsNothingDuringAQuotaCooldownAndResumesAfterIt() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let start = harness.clock.now
            await emulator.control("faults", ["kind": "429-quota", "retry_after": "3600"])
            let monitor = try await harness.run(
                emulator, until: .seconds(3601),
                steps: [
                    .init(at: .zero) {
                        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
                    }
                ])
            // One poll met the quota; the next went out only when the cooldown ended, and found the player.
            #expect(monitor.callCount == 2)
            #expect(await emulator.requestCount("GET /v1/me/player/currently-playing") == 2)
            let states = harness.states.withLock { $0 }
            #expect(states.first?.1 == .unavailable(.quotaExceeded(retryAfter: .seconds(3600))))
            guard states.count == 2, case .playing = states[1].1 else {
                Issue.record("expected a playing state after the cooldown, got \(states)")
                return
            }
            #expect(states[1].0 == start.addingTimeInterval(3600))
        }
    }

    @Test func aForbiddenAnswerStopsThePolling() async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken(scopes: ["playlist-read-private"])
            let monitor = try await harness.run(
                emulator, tokens: StaticAccessTokenProvider(AccessToken(token)), until: .seconds(3600))
            #expect(monitor.callCount == 1)
            #expect(harness.emitted == [.unavailable(.missingScope)])
        }
    }
}

@Suite("Now playing and the late-2026 service", .serialized)
struct NowPlayingDriftTests {
    @Test(arguments: [("403-not-registered", "User Management"), ("403-premium", "Premium")])
    func nowPlayingStopsOnARefusal(kind: String, says: String) async throws {
        let harness = MonitorHarness()
        try await withEmulator(harness.configuration()) { (emulator: EmulatorServer) async throws in
            await emulator.control("faults", ["kind": kind, "count": "100"])
            let monitor = try await harness.run(emulator, policy: .init(), until: .seconds(3600))
            #expect(monitor.callCount == 1)
            guard case .unavailable(.refused(let message)) = harness.emitted.first else {
                Issue.record("expected a refusal, got \(harness.emitted)")
                return
            }
            #expect(message.contains(says))
        }
    }
}
