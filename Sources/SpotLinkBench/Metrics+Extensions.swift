import Foundation
import PlaylistLinks
import SpotifyEmulator
import SpotifyLinkExtensions
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI

extension Metrics {
    /// An emulated day of the three apps with their extensions (issue 68 §3): each app shows its
    /// records in its extensions; through the day the cards refresh (their details arrive, then
    /// nothing changes), the journal links a new session, and each app's widget reads the snapshot
    /// 70 times, and a 20-minute routine runs with its Live Activity. Measured: the requests the
    /// extensions' reads send (exactly 0), the Live Activity's largest state and its updates, the widget reloads
    /// the apps ask for (at most the changes in what widgets show), the snapshot's size, its read
    /// time, and what reading adds to an extension process's resident memory.
    static func extensionsDay(_ report: Report) async throws {
        // One clock for the apps and Spotify's player, moved on by the bench.
        let clock = VirtualClock()
        var emulatorConfiguration = EmulatorConfiguration()
        emulatorConfiguration.time = .external { clock.now }
        emulatorConfiguration.clients = [
            EmulatorConfiguration.Client(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])
        ]
        let emulator = try await EmulatorServer.start(emulatorConfiguration)
        defer { Task { await emulator.stop() } }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-extensions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let playlists = try await emulator.playlists().map { try SpotifyID($0.id) }
        guard playlists.count >= 4 else {
            throw BenchFailure("the emulator's catalog has \(playlists.count) playlists")
        }

        struct App {
            let name: String
            let spotify: SpotifyLink
            let file: ExtensionSnapshotFile
            var records: [ExtensionRecord]
        }
        var apps: [App] = []
        for (name, count) in [("routine", 10), ("journal", 5), ("learning", 3)] {
            // The apps' clock, moved on by the bench once each burst of refreshes is over.
            var configuration = SpotifyLink.Configuration.emulator(url: emulator.baseURL, clock: clock)
            configuration.storage = .folder
            configuration.folder = root.appendingPathComponent(name)
            let made = configuration
            let spotify = await MainActor.run { SpotifyLink(made) }
            await MainActor.run {
                spotify.connection.connect { url, _ in try await ConsentBrowser().callback(for: url) }
            }
            await spotify.connection.waitForConnect()
            guard await spotify.connection.isConnected else { throw BenchFailure("the \(name) app did not connect") }
            var records: [ExtensionRecord] = []
            for index in 0..<count {
                let record = RecordID(namespace: name, id: "\(index)")
                try await spotify.links.link(record, to: playlists[index % playlists.count])
                records.append(
                    ExtensionRecord(
                        record, title: "\(name.capitalized) \(index + 1)",
                        startsAt: Date(timeIntervalSinceReferenceDate: 816_000_000 + Double(index) * 3600)))
            }
            apps.append(
                App(name: name, spotify: spotify, file: ExtensionSnapshotFile(folder: made.folder), records: records))
        }

        /// What widgets show now, the time of writing aside.
        func shown(_ file: ExtensionSnapshotFile) -> ExtensionSnapshot? {
            var snapshot = file.read().snapshot
            snapshot?.writtenAt = .distantPast
            return snapshot
        }
        var changes = 0
        var last: [String: ExtensionSnapshot?] = [:]
        func noteChanges() {
            for app in apps {
                let now = shown(app.file)
                if last[app.name] == nil || last[app.name]! != now { changes += 1 }
                last[app.name] = now
            }
        }
        var extensionRequests = 0
        var readTimes: [Double] = []
        func widgetsRead(_ times: Int) async {
            let before = await webRequests(emulator)
            for _ in 0..<times {
                for app in apps {
                    let start = ContinuousClock.now
                    _ = app.file.read()
                    readTimes.append(elapsedMs(start))
                }
            }
            extensionRequests += await webRequests(emulator) - before
        }

        let host = RecordingRoutineHost()
        var routineSummary: RoutineListening.Summary?
        var activityUpdates = 0
        for app in apps { await app.spotify.showInExtensions(app.records) }
        noteChanges()
        // Fourteen waking hours, five widget reads an hour per app (70 a day).
        for hour in 0..<14 {
            await widgetsRead(5)
            if hour == 1 || hour == 8 {
                // The apps open: each card refreshes (details arrive at the first, nothing changes after).
                for app in apps {
                    for item in app.records {
                        let card = await app.spotify.card(for: item.record)
                        await card.load()
                        await card.refresh()
                    }
                    // The burst is over: its one write is due once the changes settle.
                    try await waitUntil("the \(app.name) app's write waiting to settle") { clock.sleeperCount > 0 }
                    clock.advance(by: .seconds(60))
                    await app.spotify.extensionsSettled()
                }
                noteChanges()
            }
            if hour == 0 {
                // A 20-minute routine with its Live Activity: the app follows what plays, the Lock
                // Screen shows it; the widget extension reads nothing for it.
                let routineApp = apps[0]
                let playlist = playlists[0]
                let indicator = await MainActor.run {
                    routineApp.spotify.routineActivityHost = host
                    let indicator = routineApp.spotify.nowPlaying()
                    indicator.start(routine: .playlist(playlist))
                    return indicator
                }
                let activity = await routineApp.spotify.routineActivity()
                await activity.start(routineApp.records[0], lasting: .seconds(1200), following: indicator)
                _ = await emulator.control("player/play", ["context_uri": "spotify:playlist:\(playlist.rawValue)"])
                await clock.play(for: .seconds(1200))
                routineSummary = await MainActor.run { indicator.finishRoutine() }
                await activity.delivered()
                activityUpdates = await activity.updatesSent
                _ = await emulator.control("player/pause")
            }
            if hour == 5 {
                // The journal links a new session and shows it first.
                let journal = apps[1]
                let session = RecordID(namespace: "journal", id: "new")
                try await journal.spotify.links.link(session, to: playlists[3])
                apps[1].records.insert(ExtensionRecord(session, title: "Today"), at: 0)
                await journal.spotify.showInExtensions(apps[1].records)
                noteChanges()
            }
        }
        var reloads = 0
        for app in apps { reloads += await app.spotify.widgetReloadsAsked }

        report.metric(
            "extension_requests_per_day", Double(extensionRequests), "requests", floor: 0,
            target: .exact(.exactly(0), "3 apps × 70 widget reads"))
        report.metric(
            "widget_reloads_per_day", Double(reloads), "reloads", floor: nil,
            target: .exact(.atMost(Double(changes)), "at most the \(changes) changes widgets show"))
        let size =
            apps.compactMap {
                try? FileManager.default.attributesOfItem(
                    atPath: $0.file.folder.appendingPathComponent(ExtensionSnapshotFile.fileName).path)[.size] as? Int
            }.max() ?? 0
        report.metric(
            "extension_snapshot_bytes", Double(size), "bytes", floor: nil,
            target: .exact(.atMost(16_384), "the routine app's 10 records"))
        let states = host.activities.flatMap(\.states)
        let stateBytes = try states.map { try $0.encodedSize() }.max() ?? 0
        guard !states.isEmpty, let heard = routineSummary?.tracksPlayed, heard > 0 else {
            throw BenchFailure(
                "the routine's Live Activity showed \(states.count) states, \(routineSummary.map { "\($0.tracksPlayed)" } ?? "no") songs heard"
            )
        }
        report.metric(
            "live_activity_state_bytes", Double(stateBytes), "bytes", floor: nil,
            target: .exact(.atMost(1024), "largest of \(states.count) states; ActivityKit refuses more than 4,096"))
        report.metric(
            "live_activity_updates_per_routine", Double(activityUpdates), "updates", floor: nil,
            target: .exact(
                .atMost(Double(heard + 1)), "a 20-minute routine, \(heard) songs: one per change, not per poll"))
        report.metric(
            "extension_snapshot_read_p50", percentile(readTimes, 0.5), "ms", floor: nil,
            target: .machine(.atMost(1), "ms"))
        report.metric(
            "extension_snapshot_read_p99", percentile(readTimes, 0.99), "ms", floor: nil,
            target: .machine(.atMost(5), "ms"))
        try extensionReadMemory(report, folder: apps[0].file.folder)
    }

    /// What reading the snapshot adds to a process that links only `SpotifyLinkExtensions` (and
    /// Foundation): 1,000 reads, as a widget's reloads do, against the same process reading nothing.
    /// iOS ends a widget's process at about 30 MB of *footprint*, its dirty memory (Apple, WWDC 2018
    /// "iOS Memory Deep Dive"); the clean pages of code the read touches in shared libraries are
    /// not counted there. The target is on the dirty pages (Linux's `Private_Dirty`); the resident
    /// high-water mark, mostly those clean code pages, is shown beside it.
    static func extensionReadMemory(_ report: Report, folder: URL) throws {
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("SnapshotWriterChild")
        let footprintTarget = Target.machine(.atMost(2), "MiB of dirty pages; iOS ends a widget at about 30 MB")
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            let skipped = ["skipped": "SnapshotWriterChild not built beside spotlink-bench (swift build --build-tests)"]
            report.metric(
                "extension_read_added_footprint", 0, "MiB", floor: nil, target: footprintTarget, extra: skipped)
            report.metric(
                "extension_read_added_resident", 0, "MiB", floor: nil, target: .contrast("clean code pages"),
                extra: skipped)
            return
        }
        struct Memory {
            var peakKiB: Double
            var dirtyKiB: Double
            var shown: Int
        }
        func measure(reads: Int) throws -> Memory {
            let process = Process()
            process.executableURL = helper
            process.arguments = ["--peak", folder.path, "\(reads)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            let words = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(whereSeparator: \.isWhitespace)
            guard process.terminationStatus == 0, words.count == 3, let peak = Double(words[0]),
                let dirty = Double(words[1]), let shown = Int(words[2]), dirty > 0
            else { throw BenchFailure("SnapshotWriterChild --peak answered \(words)") }
            return Memory(peakKiB: peak, dirtyKiB: dirty, shown: shown)
        }
        let idle = try measure(reads: 0)
        let reading = try measure(reads: 1000)
        guard reading.shown > 0 else { throw BenchFailure("the helper read no snapshot in \(folder.path)") }
        report.metric(
            "extension_read_added_footprint", max(0, reading.dirtyKiB - idle.dirtyKiB) / 1024, "MiB", floor: nil,
            target: footprintTarget, extra: ["idle_mib": idle.dirtyKiB / 1024, "reads": 1000])
        report.metric(
            "extension_read_added_resident", max(0, reading.peakKiB - idle.peakKiB) / 1024, "MiB", floor: nil,
            target: .contrast("high-water mark, mostly clean code pages iOS does not count"),
            extra: ["idle_mib": idle.peakKiB / 1024, "reads": 1000])
    }
}
