import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Synchronization

extension Metrics {
    /// The journal app's own budgets (its plan: "Connection < 4s; I/O < 16ms main thread; list
    /// display < 500ms"), against the emulator at 40 ms a request, with `SpotifyLink`'s defaults
    /// and a data folder on disk, as the app has it:
    /// - the main actor's longest stretch during each README action, at most 16 ms;
    /// - the picker's first list after a cold start (a new `SpotifyLink` over the folder of a user
    ///   who connected before, no list saved yet), at most 500 ms;
    /// - a connection, from the sign-in sheet's answer to "connected", at most 4 s.
    static func journalBudgets(_ report: Report) async throws {
        var configuration = EmulatorConfiguration()
        configuration.latency = .milliseconds(40)
        configuration.clients = [
            EmulatorConfiguration.Client(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])
        ]
        let emulator = try await EmulatorServer.start(configuration)
        defer { Task { await emulator.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var app = SpotifyLink.Configuration.emulator(url: emulator.baseURL)
        app.storage = .folder
        app.folder = folder
        let made = app

        // The probe sees a stretch it is shown: a 20 ms block of the main actor reads as 20 ms or more.
        let calibration = try await longestMainActorStretch { @MainActor in
            let end = ContinuousClock.now + .milliseconds(20)
            while ContinuousClock.now < end {}
        }
        guard calibration >= 20 else {
            throw BenchFailure("the main-actor probe measured a 20 ms block as \(calibration) ms")
        }

        // The first launch: connect, pick, link, show the card, search, delete, disconnect.
        let answered = Lock<ContinuousClock.Instant?>(nil)
        let browser: BrowserSignIn.Browser = { url, _ in
            let callback = try await ConsentBrowser().callback(for: url)
            answered.withLock { $0 = .now }
            return callback
        }
        let spotify = await MainActor.run { SpotifyLink(made) }
        var stretches: [(String, Double)] = []
        let connection = Lock(0.0)
        stretches.append(
            try await (
                "connect",
                longestMainActorStretch { @MainActor in
                    spotify.connection.connect(using: browser)
                    await spotify.connection.waitForConnect()
                    guard spotify.connection.isConnected, let answer = answered.withLock({ $0 }) else {
                        throw BenchFailure("the bench's user did not connect: \(spotify.connection.phase)")
                    }
                    connection.withLock { $0 = elapsedMs(answer) }
                }
            ))
        let session = RecordID(namespace: "session", id: "42")
        let picker = await spotify.picker()
        stretches.append(
            try await (
                "pick",
                longestMainActorStretch { @MainActor in
                    await picker.appear()
                    picker.query = "deep"
                    guard let chosen = picker.results.first, try await picker.select(chosen, for: session) != nil else {
                        throw BenchFailure("the picker listed no playlist for \"deep\"")
                    }
                }
            ))
        let pasted = try await emulator.playlists().map { try SpotifyID($0.id) }[1]
        stretches.append(
            try await (
                "link",
                longestMainActorStretch { @MainActor in
                    try await spotify.links.link(RecordID(namespace: "routine", id: "morning"), to: pasted)
                }
            ))
        stretches.append(
            try await (
                "card",
                longestMainActorStretch { @MainActor in
                    let card = spotify.card(for: session)
                    await card.load()
                    guard card.card?.metadata.name != nil else { throw BenchFailure("the card has no name: \(card)") }
                }
            ))
        stretches.append(
            try await (
                "search",
                longestMainActorStretch { @MainActor in
                    let search = spotify.songSearch()
                    search.query = "よあけ"
                    let deadline = ContinuousClock.now + .seconds(10)
                    while search.results.isEmpty {
                        guard ContinuousClock.now < deadline else {
                            throw BenchFailure("the search found nothing in 10 s")
                        }
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
            ))
        stretches.append(
            try await (
                "unlink",
                longestMainActorStretch { @MainActor in
                    guard try await spotify.links.removeLink(for: session) else {
                        throw BenchFailure("no link to remove")
                    }
                }
            ))
        stretches.append(
            try await (
                "disconnect",
                longestMainActorStretch { @MainActor in
                    await spotify.connection.disconnect()
                }
            ))

        // A cold start of a user who connected before: the picker's first list comes from Spotify.
        let firstList = try await coldPickerFirstList(made, connectingFirstWith: spotify, browser)

        for (action, stretch) in stretches {
            report.metric(
                "journal_main_actor_\(action)", stretch, "ms", floor: nil,
                target: .machine(.atMost(16), "ms: the longest main-actor stretch (1 ms probe)"))
        }
        report.metric(
            "journal_main_actor_probe_20ms_block", calibration, "ms", floor: 20,
            target: .contrast("the probe's reading of a 20 ms block of the main actor"))
        report.metric(
            "journal_picker_first_list_cold", firstList, "ms", floor: nil,
            target: .machine(.atMost(500), "ms from launch to the first list, 40 ms a request"))
        report.metric(
            "journal_connect_after_sheet", connection.withLock { $0 }, "ms", floor: nil,
            target: .machine(.atMost(4000), "ms from the sheet's answer to connected, 40 ms a request"))
    }

    /// Milliseconds from a new `SpotifyLink` over `configuration`'s folder (the app launching again,
    /// its user connected through `earlier`) to its picker's first list.
    @MainActor
    private static func coldPickerFirstList(
        _ configuration: SpotifyLink.Configuration, connectingFirstWith earlier: SpotifyLink,
        _ browser: @escaping BrowserSignIn.Browser
    ) async throws -> Double {
        earlier.connection.connect(using: browser)
        await earlier.connection.waitForConnect()
        guard earlier.connection.isConnected else { throw BenchFailure("the bench's user did not connect again") }
        let start = ContinuousClock.now
        let picker = SpotifyLink(configuration).picker()
        await picker.appear()
        guard !picker.results.isEmpty else { throw BenchFailure("the cold picker listed nothing: \(picker.phase)") }
        return elapsedMs(start)
    }

    /// The longest the main actor was busy while `body` ran, in milliseconds: a probe hops onto the
    /// main actor every millisecond and keeps its longest wait, which a hop spends behind whatever
    /// the main actor is running (its resolution is the probe's period and a thread's wake-up).
    static func longestMainActorStretch(_ body: @escaping @MainActor () async throws -> Void) async throws -> Double {
        let probe = Task.detached { () -> Double in
            var longest = 0.0
            while !Task.isCancelled {
                let start = ContinuousClock.now
                await MainActor.run {}
                longest = max(longest, elapsedMs(start))
                try? await Task.sleep(for: .milliseconds(1))
            }
            return longest
        }
        do {
            try await body()
        } catch {
            probe.cancel()
            throw error
        }
        probe.cancel()
        return await probe.value
    }
}
