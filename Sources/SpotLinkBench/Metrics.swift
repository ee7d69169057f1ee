import Foundation
import GRDB
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyAuthLoopback
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyTesting
import SpotifyWebAPI
import Synchronization

enum Metrics {
    static func client(
        _ emulator: EmulatorServer, clock: any SpotifyClock = SystemClock(), concurrency: Int = 4, pacing: Int? = nil
    ) async -> SpotifyClient {
        var configuration = SpotifyClient.Configuration.emulator(url: emulator.baseURL)
        configuration.pageConcurrency = concurrency
        configuration.rateLimit.pacingLimit = pacing
        configuration.rateLimit.maxWait = .seconds(120)
        return SpotifyClient(
            configuration: configuration,
            tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())), clock: clock)
    }

    /// 1–2: the 10,000-entry playlist with 40 ms latency, default concurrency and sequential; peak RSS.
    static func playlistFetch(_ report: Report, sequential: Bool) async throws {
        var configuration = EmulatorConfiguration()
        configuration.latency = .milliseconds(40)
        let emulator = try await EmulatorServer.start(configuration)
        let id = try SpotifyID(await emulator.playlists().first { $0.entries == 10_000 }!.id)
        for concurrency in sequential ? [4, 1] : [4] {
            let api = await client(emulator, concurrency: concurrency)
            let start = ContinuousClock.now
            let result = try await api.allPlaylistEntries(id, concurrency: concurrency)
            let ms = elapsedMs(start)
            let pages = result.pageCount
            let floor = Double(1 + Int((Double(pages - 1) / Double(concurrency)).rounded(.up))) * 40
            report.metric(
                concurrency == 4 ? "playlist_fetch_10k" : "playlist_fetch_10k_sequential", ms, "ms", floor: floor,
                target: concurrency == 4 ? .machine(.atMost(1.3), onRatio: true) : .contrast(),
                extra: ["pages": pages, "entries": result.items.count + result.nullCount])
            if concurrency == 4, let peak = peakResidentMiB() {
                report.metric(
                    "playlist_fetch_10k_peak_rss_with_emulator", peak, "MiB", floor: nil, target: .contrast(),
                    extra: ["note": "whole process, emulator included"])
            }
        }
        await emulator.stop()
    }

    /// The client's own peak memory for the 10,000-entry fetch: the emulator runs as a separate
    /// `spotify-emulator` process, and this runs first, before anything else has grown the process.
    static func clientPeakMemory(_ report: Report) async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "spotify-emulator")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            report.metric(
                "playlist_fetch_10k_peak_rss", 0, "MiB", floor: nil, target: .machine(.atMost(60), "MiB"),
                extra: ["skipped": "spotify-emulator not built next to spotlink-bench"])
            return
        }
        let process = Process()
        process.executableURL = binary
        let controlToken = "bench-\(UInt64.random(in: 0...UInt64.max))"
        process.arguments = ["--port", "0", "--auto-approve", "--latency-ms", "40", "--control-token", controlToken]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let range = text.range(of: "listening on "),
            let url = URL(string: String(text[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            report.metric(
                "playlist_fetch_10k_peak_rss", 0, "MiB", floor: nil, target: .machine(.atMost(60), "MiB"),
                extra: ["skipped": "the emulator did not start"])
            return
        }
        let server = AuthorizationServer.emulator(url: url)
        let session = SpotifySession(
            endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: MemoryTokenStore())
        try await LoopbackSignIn().run(session: session) { authorize in
            _ = try await ConsentBrowser().visit(authorize)
        }
        let (_, _, listing) = try await TestHTTP().send(
            .get, url.appendingPathComponent("emulator/playlists"), headers: ["Authorization": "Bearer \(controlToken)"]
        )
        let playlists = (try JSONSerialization.jsonObject(with: listing) as? [[String: Any]]) ?? []
        guard let id = playlists.first(where: { $0["entries"] as? Int == 10_000 })?["id"] as? String else { return }
        let api = SpotifyClient(configuration: .emulator(url: url), tokens: session)
        let before = peakResidentMiB() ?? 0
        let result = try await api.allPlaylistEntries(try SpotifyID(id))
        let peak = peakResidentMiB() ?? 0
        report.metric(
            "playlist_fetch_10k_peak_rss", peak, "MiB", floor: nil, target: .machine(.atMost(60), "MiB"),
            extra: [
                "entries": result.items.count + result.nullCount, "before_fetch_mib": before.rounded(),
                "note": "client process only",
            ])
    }

    /// 3: typed decoding of a 50-entry items page as the client decodes it (the fast reader),
    /// against an untyped JSONSerialization parse and against typed JSONDecoder decoding.
    static func decode(_ report: Report, iterations: Int) throws {
        let page = try pageBytes()
        let decoder = makeDecoder()
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = ContinuousClock.now
            for _ in 0..<iterations { try body() }
            return (ContinuousClock.now - start).seconds
        }
        _ = try time { _ = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: page) }
        let typed = try time { _ = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: page) }
        let untyped = try time { _ = try JSONSerialization.jsonObject(with: page) }
        let decoded = try time { _ = try decoder.decode(Page<PlaylistEntry>.self, from: page) }
        let megabytes = Double(page.count * iterations) / 1_048_576
        report.metric(
            "decode_items_page", typed / untyped, "time ratio", floor: nil,
            target: .machine(.atMost(1.5), "(typed decode over an untyped parse)"),
            extra: [
                "typed_mb_s": (megabytes / typed).rounded(), "untyped_mb_s": (megabytes / untyped).rounded(),
                "jsondecoder_mb_s": (megabytes / decoded).rounded(), "bytes": page.count,
            ])
    }

    /// The client's typed reading of the 50-entry page alone, with nothing else in the process:
    /// what `scripts/profile.sh decode-typed` profiles. Only when asked for by name (`--only`).
    static func decodeTyped(_ report: Report, iterations: Int) throws {
        let page = try pageBytes()
        for _ in 0..<iterations / 10 { _ = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: page) }
        let start = ContinuousClock.now
        for _ in 0..<iterations { _ = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: page) }
        let seconds = (ContinuousClock.now - start).seconds
        report.metric(
            "decode_typed_mb_s", Double(page.count * iterations) / 1_048_576 / seconds, "MB/s", floor: nil,
            target: .contrast(), extra: ["bytes": page.count, "iterations": iterations])
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A real 50-entry page as the emulator serves it.
    static func pageBytes() throws -> Data {
        let semaphore = DispatchSemaphore(value: 0)
        let box = DataBox()
        Task {
            let emulator = try await EmulatorServer.start()
            let id = await emulator.playlists().first { $0.name == "Deep Work" }!.id
            let token = await emulator.issueAccessToken()
            let url = emulator.baseURL.appendingPathComponent("v1/playlists/\(id)/items")
            let result = try await TestHTTP().send(.get, url, headers: ["Authorization": "Bearer \(token)"])
            box.data = result.body
            await emulator.stop()
            semaphore.signal()
        }
        semaphore.wait()
        return box.data
    }

    final class DataBox: Sendable {
        private let bytes = Lock(Data())
        var data: Data {
            get { bytes.withLock { $0 } }
            set { bytes.withLock { $0 = newValue } }
        }
    }

    /// 4: 1,000 concurrent calls with an expired token: token endpoint calls (target exactly 1).
    static func refreshSingleFlight(_ report: Report) async throws {
        let clock = VirtualClock(now: Date())
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        let emulator = try await EmulatorServer.start(configuration)
        let server = AuthorizationServer.emulator(url: emulator.baseURL)
        let session = SpotifySession(
            endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo", clock: clock), store: MemoryTokenStore(),
            clock: clock)
        try await LoopbackSignIn().run(session: session) { url in
            _ = try await ConsentBrowser().visit(url)
        }
        clock.advance(by: .seconds(3600))
        let before = await emulator.requestCount("POST /api/token")
        let api = SpotifyClient(configuration: .emulator(url: emulator.baseURL), tokens: session, clock: clock)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 { group.addTask { _ = try await api.currentUser() } }
            try await group.waitForAll()
        }
        let ms = elapsedMs(start)
        let calls = await emulator.requestCount("POST /api/token") - before
        report.metric(
            "refresh_single_flight", Double(calls), "calls", floor: 1, target: .exact(.exactly(1)),
            extra: ["serve_all_ms": ms.rounded()])
        await emulator.stop()
    }

    /// 5: items of 50 playlists under 100 requests per 30 s, with client-side pacing, on a virtual clock.
    static func bulkUnderRateLimit(_ report: Report, playlists: Int) async throws {
        let clock = VirtualClock(now: Date(), mode: .automatic)
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        configuration.rateLimit = 100
        configuration.accessTokenTTL = .seconds(86400)
        let emulator = try await EmulatorServer.start(configuration)
        let ids = try await emulator.playlists().filter { $0.entries == 500 }.map { try SpotifyID($0.id) }
        let api = await client(emulator, clock: clock, concurrency: 1, pacing: 100)
        let start = clock.now
        var requests = 0
        for index in 0..<playlists {
            requests += try await api.allPlaylistEntries(ids[index % ids.count]).pageCount
        }
        let seconds = clock.now.timeIntervalSince(start)
        let limited = await emulator.requestCount("GET /v1/playlists/{id}/items", status: 429)
        let floor = Double((requests + 99) / 100 - 1) * 30
        report.metric(
            "bulk_under_rate_limit", seconds, "s (virtual)", floor: floor, target: .exact(.atMost(1.15), onRatio: true),
            extra: ["requests": requests])
        report.metric("bulk_under_rate_limit_429s", Double(limited), "429s", floor: nil, target: .exact(.exactly(0)))
        await emulator.stop()
    }

    /// 6: an hour of now-playing with two skips and a pause, on a virtual clock: calls against the
    /// changes they had to see, and how late each change was seen. `callsTarget` is a contrast for
    /// a policy that spends calls on purpose.
    static func nowPlaying(
        _ report: Report, policy: NowPlayingMonitor.Polling, name: String,
        callsTarget: Target = .exact(.atMost(1.5), onRatio: true)
    ) async throws {
        let clock = VirtualClock()  // a fixed start, so the virtual hour plays out the same on every run
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        configuration.accessTokenTTL = .seconds(86400)
        let emulator = try await EmulatorServer.start(configuration)
        let running = await emulator.playlists().first { $0.entries == 500 }!.id
        let api = await client(emulator, clock: clock)
        let monitor = NowPlayingMonitor(client: api, policy: policy)
        let start = clock.now
        // Two skips and a five-minute pause at 30 minutes.
        let script: [(TimeInterval, String)] = [
            (0, "play"), (1500, "next"), (1800, "pause"), (2100, "resume"), (3000, "next"),
        ]
        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(running)"])
        let stream = monitor.states()
        let collector = Task { () -> [NowPlayingState] in
            var seen: [NowPlayingState] = []
            for await state in stream { seen.append(state) }
            return seen
        }
        await clock.play(
            for: .seconds(3600),
            steps: script.dropFirst().map { offset, action in
                VirtualClock.Step(at: .seconds(offset)) { await emulator.control("player/\(action)") }
            })
        try await clock.waitForSleepers(1)
        collector.cancel()
        let states = await collector.value
        // Lag: a new item is seen `progress` after it started; a pause or resume after its script time.
        var playingLags: [Double] = []
        var resumeLags: [Double] = []
        var changes = 0
        var lastURI: String?
        var wasPlaying = false
        let pauseTimes = script.filter { $0.1 == "pause" || $0.1 == "resume" }.map { start.addingTimeInterval($0.0) }
        // Times come from the poll that saw each state (`observedAt`), not from when the collector
        // got to it: the collector may run after the clock has moved on.
        for state in states {
            switch state {
            case .playing(let item) where item.uri != lastURI:
                changes += 1
                playingLags.append(item.progress.seconds)
                lastURI = item.uri
                wasPlaying = true
            case .playing(let item):
                // A resume is seen by idle polling.
                changes += 1
                let at = item.observedAt
                resumeLags.append(at.timeIntervalSince(pauseTimes.last { $0 <= at } ?? at))
                wasPlaying = true
            case .paused(let item) where wasPlaying:
                // A pause is seen by polling while playing.
                changes += 1
                let at = item.observedAt
                playingLags.append(at.timeIntervalSince(pauseTimes.last { $0 <= at } ?? at))
                wasPlaying = false
            default:
                break
            }
        }
        let cap = (policy.calmPlayingInterval ?? policy.maxPlayingInterval).seconds
        report.metric(
            "now_playing_\(name)_calls_per_hour", Double(monitor.callCount), "calls", floor: Double(changes),
            target: callsTarget, extra: ["changes": changes])
        report.metric(
            "now_playing_\(name)_lag_p50", percentile(playingLags + resumeLags, 0.5), "s", floor: nil,
            target: .exact(.atMost(2), "s"))
        report.metric(
            "now_playing_\(name)_lag_max_playing", playingLags.max() ?? 0, "s", floor: nil,
            target: .exact(.atMost(cap), "s (playing cap: changes, skips, pauses)"))
        report.metric(
            "now_playing_\(name)_lag_max_resume", resumeLags.max() ?? 0, "s", floor: nil,
            target: .exact(.atMost(policy.maxIdleInterval.seconds), "s (idle cap)"))
        await emulator.stop()
    }

    /// 7: card reads with 100,000 links in the database, the retention policy applied to each.
    static func offlineCards(_ report: Report, links count: Int, reads: Int) async throws {
        let samples = try await sqliteCardSamples(links: count, reads: reads)
        report.metric(
            "offline_card_read_p50", percentile(samples, 0.5), "ms", floor: nil,
            target: .machine(.atMost(1), "ms, well under"),
            extra: ["links": count])
        report.metric(
            "offline_card_read_p99", percentile(samples, 0.99), "ms", floor: nil, target: .machine(.atMost(1), "ms"),
            extra: ["links": count])
    }

    /// Card reads from a SQLite file holding `count` links, at random records.
    static func sqliteCardSamples(links count: Int, reads: Int) async throws -> [Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLitePlaylistLinkStore(location: .file(folder.appendingPathComponent("links.sqlite")))
        let links = LinkedPlaylists(store)
        var metadata: [PlaylistMetadata] = []
        var saved: [PlaylistLink] = []
        for index in 0..<count {
            let id = SpotifyID(unchecked: String(format: "%022d", index))
            var playlist = PlaylistMetadata(id: id, availability: .available)
            playlist.name = "Playlist \(index)"
            playlist.trackCount = 40
            playlist.totalDuration = .seconds(9_000)
            metadata.append(playlist)
            saved.append(
                PlaylistLink(
                    record: RecordID(namespace: "session", id: "\(index)"), playlist: id,
                    linkedAt: Date(timeIntervalSince1970: 0)))
        }
        let now = Date()
        try await store.restore(links: saved, metadata: metadata.map { $0.stamped(now) }, replacingNewer: false)
        // As an app reads a card: what is past the retention policy's limits goes first.
        return try await cardSamples(links: count, reads: reads) {
            try await links.card(for: $0, retention: .default, at: Date())
        }
    }

    /// Times `reads` card reads at random records among `links` (`session` 0 to `links - 1`).
    static func cardSamples(
        links: Int, reads: Int, _ read: (RecordID) async throws -> PlaylistCard?
    ) async throws -> [Double] {
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = []
        samples.reserveCapacity(reads)
        for _ in 0..<reads {
            let record = RecordID(namespace: "session", id: "\(Int.random(in: 0..<links, using: &generator))")
            let start = ContinuousClock.now
            guard try await read(record) != nil else { throw BenchFailure("no card for \(record)") }
            samples.append(elapsedMs(start))
        }
        return samples
    }

    /// 8: the `spotlink session show` process against `spotlink --version`.
    static func coldStart(_ report: Report, runs: Int) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "spotlink")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            report.metric(
                "cold_start_session_show", 0, "ms", floor: nil, target: .contrast("ratio as low as possible"),
                extra: ["skipped": "spotlink binary not found next to spotlink-bench"])
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func launch(_ arguments: [String]) throws -> Double {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = ContinuousClock.now
            try process.run()
            process.waitUntilExit()
            return elapsedMs(start)
        }
        _ = try launch(["session", "new", "Bench", "--data-dir", folder.path])
        _ = try launch(["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n", "--data-dir", folder.path])
        var show: [Double] = []
        var version: [Double] = []
        for _ in 0..<runs {
            show.append(try launch(["session", "show", "1", "--data-dir", folder.path]))
            version.append(try launch(["--version"]))
        }
        let showMedian = percentile(show, 0.5)
        let versionMedian = percentile(version, 0.5)
        report.metric(
            "cold_start_session_show", showMedian, "ms", floor: versionMedian,
            target: .contrast("ratio as low as possible"),
            extra: ["version_ms": versionMedian.rounded()])
    }
}
