import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyAuthLoopback
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyNowPlaying
import SpotifyTesting
import SpotifyWebAPI

/// Requests spent against Spotify's 2026 quota: what a day of each target app costs, what a
/// refresh of unchanged playlists costs, and what processes send during a quota cooldown.
extension Metrics {
    /// Web API requests the emulator has answered so far.
    static func webRequests(_ emulator: EmulatorServer) async -> Int {
        await emulator.totalRequests(prefix: "GET /v1/")
    }

    /// 100 linked playlists of the user's library, none changed since the last refresh.
    static func refreshUnchanged(_ report: Report) async throws {
        let clock = VirtualClock(mode: .automatic)
        var configuration = EmulatorConfiguration()
        configuration.catalogFile = try CatalogFile.library(playlists: 100)
        configuration.time = .external { clock.now }
        configuration.accessTokenTTL = .seconds(86_400 * 7)
        let emulator = try await EmulatorServer.start(configuration)
        let links = LinkedPlaylists(try SQLitePlaylistLinkStore(location: .inMemory, clock: clock))
        for (index, playlist) in await emulator.playlists().enumerated() {
            try await links.link(RecordID(namespace: "routine", id: "\(index)"), to: try SpotifyID(playlist.id))
        }
        let refresher = MetadataRefresher(links: links, client: await client(emulator, clock: clock))
        _ = try await refresher.refreshStale(olderThan: .zero)
        // Each card's explicit-song count comes from the songs that refresh read for its length:
        // showing all hundred cards sends nothing more.
        let beforeCards = await webRequests(emulator)
        var counted = 0
        for index in 0..<100 {
            let card = try await links.card(for: RecordID(namespace: "routine", id: "\(index)"))
            if card?.metadata.explicitCount != nil { counted += 1 }
        }
        report.metric(
            "explicit_count_requests", Double(await webRequests(emulator) - beforeCards), "requests", floor: 0,
            target: .exact(.exactly(0), "for 100 cards' explicit counts"))
        report.metric(
            "explicit_counted_cards", Double(counted), "cards", floor: nil, target: .exact(.exactly(100), "of 100"))
        try await clock.sleep(for: .seconds(86_400))
        let before = await webRequests(emulator)
        let outcomes = try await refresher.refreshStale(olderThan: .seconds(3600))
        let spent = await webRequests(emulator) - before
        report.metric(
            "metadata_refresh_unchanged_requests", Double(spent), "requests", floor: 2, target: .exact(.atMost(2)),
            extra: ["playlists": outcomes.count, "naive": outcomes.count])
        await emulator.stop()
    }

    /// After one QUOTA_EXCEEDED with Retry-After 43200, twenty fresh `spotlink` processes send
    /// nothing; the first request after the window is answered.
    static func quotaCooldown(_ report: Report) async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "spotlink")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            report.metric(
                "quota_cooldown_requests", 0, "requests", floor: 0, target: .exact(.exactly(0), "from 20 processes"),
                extra: ["skipped": "spotlink binary not found next to spotlink-bench"])
            return
        }
        let emulator = try await EmulatorServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-quota-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Sign in as `spotlink login --store file` would: tokens in the data folder's file store.
        let server = AuthorizationServer.emulator(url: emulator.baseURL)
        let config = folder.appendingPathComponent("config")
        let store = FileTokenStore(directory: config.appendingPathComponent("tokens"))
        let session = SpotifySession(endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: store)
        try await LoopbackSignIn().run(session: session) { url in
            _ = try await ConsentBrowser().visit(url)
        }
        try Data(#"{"store":"file"}"#.utf8).write(to: config.appendingPathComponent("settings.json"))
        func spotlink(offset: Int = 0) throws -> Int32 {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["playlists", "--data-dir", folder.path, "--emulator", emulator.baseURL.absoluteString]
            process.environment = ["HOME": folder.path, "SPOTLINK_CLOCK_OFFSET_SECONDS": "\(offset)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        await emulator.control("faults", ["kind": "429-quota", "retry_after": "43200"])
        let first = try spotlink()
        let before = await webRequests(emulator)
        var statuses: [Int32] = []
        for _ in 0..<20 { statuses.append(try spotlink()) }
        let during = await webRequests(emulator) - before
        let after = try spotlink(offset: 43_300)
        let answered = await webRequests(emulator) - before - during
        report.metric(
            "quota_cooldown_requests", Double(during), "requests", floor: 0,
            target: .exact(.exactly(0), "from 20 processes"),
            extra: [
                "first_exit": first, "exits_during": Set(statuses).sorted().map(String.init).joined(separator: ","),
            ])
        report.metric(
            "quota_cooldown_next_answered", Double(answered), "requests", floor: nil,
            target: .exact(.atLeast(1), "after the window"), extra: ["exit": after])
        await emulator.stop()
    }

    /// A scripted day of each target app, against the floor and a naive client, in one run.
    static func requestsPerUserDay(_ report: Report) async throws {
        let clock = VirtualClock()
        var configuration = EmulatorConfiguration()
        configuration.catalogFile = try CatalogFile.library(playlists: 50) { 12 + $0 % 20 }
        configuration.time = .external { clock.now }
        configuration.accessTokenTTL = .seconds(86_400 * 7)
        let emulator = try await EmulatorServer.start(configuration)
        let ids = try await emulator.playlists().map { try SpotifyID($0.id) }
        let api = await client(emulator, clock: clock)
        var ours: [String: Int] = [:]
        var floor: [String: Int] = [:]
        var naive: [String: Int] = [:]

        // Journal: 47 playlists linked and read yesterday; today 3 more are linked, 20 cards opened,
        // and the daily refresh of all 50 finds 2 changed.
        let links = LinkedPlaylists(try SQLitePlaylistLinkStore(location: .inMemory, clock: clock))
        let background = MetadataRefresher(links: links, client: api)
        for (index, id) in ids.enumerated().dropFirst(3) {
            try await links.link(RecordID(namespace: "session", id: "\(index)"), to: id)
        }
        _ = try await background.refreshStale(olderThan: .zero)
        var mark = await webRequests(emulator)
        let asked = MetadataRefresher(links: links, client: api, origin: .person)
        for index in 0..<3 {
            let record = RecordID(namespace: "session", id: "\(index)")
            try await links.link(record, to: ids[index])
            _ = try await asked.refresh(record: record)
        }
        for index in 0..<20 { _ = try await links.card(for: RecordID(namespace: "session", id: "\(index)")) }
        clock.advance(by: .seconds(86_400))
        for id in ids.suffix(2) { await emulator.control("playlists/\(id.rawValue)/add-track") }
        _ = try await background.refreshStale(olderThan: .seconds(20 * 3600))
        ours["journal"] = await webRequests(emulator) - mark
        floor["journal"] = 3 + 0 + (1 + 2)
        mark = await webRequests(emulator)
        for index in 0..<3 { _ = try await api.playlist(ids[index]) }
        for index in 0..<20 { _ = try await api.playlist(ids[index]) }
        for id in ids { _ = try await api.playlist(id) }
        naive["journal"] = await webRequests(emulator) - mark

        // Routine: two 20-minute routines and an hour with the indicator on, one playlist playing.
        var routineOurs = 0
        var routineFloor = 0
        for minutes in [20, 20, 60] {
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(ids[19].rawValue)"])
            let before = await webRequests(emulator)
            let monitor = NowPlayingMonitor(client: api)
            let stream = monitor.states()
            let collector = Task { () -> [NowPlayingState] in
                var seen: [NowPlayingState] = []
                for await state in stream { seen.append(state) }
                return seen
            }
            await clock.play(for: .seconds(Double(minutes * 60)))
            try await clock.waitForSleepers(1)
            collector.cancel()
            let states = await collector.value
            routineOurs += await webRequests(emulator) - before
            // Every item that played must be seen once: the fewest polls that reflect every change.
            routineFloor +=
                Set(
                    states.compactMap { state -> String? in if case .playing(let item) = state { item.uri } else { nil }
                    }
                ).count
            await emulator.control("player/stop")
        }
        ours["routine"] = routineOurs
        floor["routine"] = routineFloor
        mark = await webRequests(emulator)
        for minutes in [20, 20, 60] {
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(ids[19].rawValue)"])
            for _ in stride(from: 0, to: minutes * 60, by: 5) {
                _ = try await api.currentlyPlaying()
                clock.advance(by: .seconds(5))
            }
            await emulator.control("player/stop")
        }
        naive["routine"] = await webRequests(emulator) - mark

        // Learning app: 30 searches and 5 profile views; each asks something new of Spotify.
        mark = await webRequests(emulator)
        for index in 0..<30 { _ = try await api.searchPlaylists("collection \(index + 1)") }
        for _ in 0..<5 { _ = try await api.currentUser() }
        ours["learning"] = await webRequests(emulator) - mark
        floor["learning"] = 35
        naive["learning"] = 35

        let total = ours.values.reduce(0, +)
        let floorTotal = floor.values.reduce(0, +)
        let naiveTotal = naive.values.reduce(0, +)
        report.metric(
            "requests_per_user_day", Double(total), "requests", floor: Double(floorTotal),
            target: .exact(.atMost(1.3), onRatio: true),
            extra: [
                "naive": naiveTotal,
                "journal": "\(ours["journal"]!)/\(floor["journal"]!)/\(naive["journal"]!)",
                "routine": "\(ours["routine"]!)/\(floor["routine"]!)/\(naive["routine"]!)",
                "learning": "\(ours["learning"]!)/\(floor["learning"]!)/\(naive["learning"]!)",
                "note": "per app: ours/floor/naive",
            ])
        report.metric(
            "requests_per_user_day_naive_over_ours", Double(naiveTotal) / Double(max(total, 1)), "x fewer", floor: nil,
            target: .exact(.atLeast(10)), extra: ["naive": naiveTotal, "ours": total])
        await emulator.stop()
    }
}
