import ArgumentParser
import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyAuthLoopback
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
@_spi(Storage) import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyNowPlaying
@_spi(Transport) import SpotifyWebAPI
import VirtualTime

/// `spotlink demo`: the whole product against an embedded emulator, with no account and no network.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the whole product against an embedded Spotify emulator.")

    @Option(help: "Keep the demo's data here instead of a temporary folder.")
    var dataDir: String?
    @Flag(help: "Print JSON events instead of narration.")
    var json = false

    func run() async throws {
        let started = ContinuousClock.now
        let directory =
            dataDir.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-demo-\(UUID().uuidString)")
        // A temporary folder holds a token file: it goes however the demo ends (Ctrl-C, a closed pipe).
        if dataDir == nil { ExitCleanup.remove(directory) }
        defer { if dataDir == nil { ExitCleanup.run() } }
        // One virtual clock for the emulator, the tokens and the player, so a 20-minute routine
        // runs in a moment; the sign-in deadline uses the real clock.
        let clock = VirtualClock(now: Date())
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        // The demo user has approved the app before, so Spotify (and the emulator) skip the
        // consent page and redirect at once.
        configuration.autoApprove = true
        let narrator = Narrator(json: json)

        var emulator = try await EmulatorServer.start(configuration)
        narrator.step("Started the Spotify emulator", ["url": emulator.baseURL.absoluteString])

        let options = try GlobalOptions.parse([
            "--data-dir", directory.path, "--emulator", emulator.baseURL.absoluteString,
        ])
        let context = try Context(options)
        // The demo's own folder keeps its sign-in in a 0600 file: nothing reaches the user's keyring.
        let store = try context.tokenStore(.file)
        let spotify = try context.services(clock: clock, store: store)
        let session = spotify.session
        // The journal's and routine's scopes, and the learning app's saved and top tracks.
        let scopes = SpotifyScope.all + [LibraryScope.savedTracks, LibraryScope.topItems]
        narrator.step("Signing in with PKCE through a loopback listener; the demo's browser follows the redirect")
        let tokens = try await LoopbackSignIn(timeout: .seconds(30)).run(
            session: session, scopes: scopes, showDialog: false
        ) { url in await Self.browse(url) }
        let client = spotify.client
        let user = try await client.currentUser()
        narrator.step(
            "Signed in",
            [
                "user": user.name, "scopes": tokens.scopes.joined(separator: " "),
                "store": "\(store.kind)",
            ])

        let links = spotify.links
        let library = try await client.allMyPlaylists().items
        try await links.replaceLibrary(library, userID: user.id)
        narrator.step("Your playlists", ["count": "\(library.count)"])
        for playlist in library {
            narrator.detail(
                "\(TerminalText(playlist.name)) · \(playlist.itemCount.map { Output.count($0, "track") } ?? "? tracks")"
            )
        }

        let biggest = try requireValue(library.max { ($0.itemCount ?? 0) < ($1.itemCount ?? 0) }, "no playlists")
        let fetchStart = ContinuousClock.now
        let all = try await client.allPlaylistEntries(biggest.id) { progress in
            if !json { Output.progress("  Reading \(biggest.name)", progress.fetched, progress.total) }
        }
        narrator.step(
            "Read every entry of \(biggest.name)",
            [
                "entries": "\(all.items.count + all.nullCount)", "requests": "\(all.pageCount)",
                "milliseconds": "\(Int((ContinuousClock.now - fetchStart).seconds * 1000))",
            ])

        let journal = try Journal(store: spotify.linkStore)
        let morning = try journal.create(title: "Morning routine", minutes: 20, at: clock.now)
        narrator.step("Created session \(morning.id) \"Morning routine\" (20 min)")
        let match = try requireValue(try await links.filterLibrary("focus").first, "no playlist matches 'focus'")
        try await links.link(morning.record, to: try requireValue(library.first { $0.id == match.id }, "picker"))
        _ = try await MetadataRefresher(links: links, client: client).refresh(record: morning.record)
        narrator.step("Found \"\(match.name)\" by typing 'focus' and attached it")
        await show(morning, links)

        await emulator.stop()
        narrator.step("Stopped the emulator: Spotify is unreachable now; the card comes from SQLite alone")
        await show(morning, links)

        emulator = try await emulator.restarted()
        narrator.step("Restarted the emulator", ["url": emulator.baseURL.absoluteString])

        try await routine(morning, match.id, emulator: emulator, client: client, clock: clock, narrator: narrator)

        try await learning(client: client, narrator: narrator)

        // The disconnect an app gets: the sign-in and every detail saved from Spotify go; the
        // session keeps its link, and the card shows that link and nothing Spotify said.
        try await spotify.disconnect()
        narrator.step(
            "Disconnected",
            [
                "message":
                    "the tokens and the details saved from Spotify were removed; the session keeps its link. "
                    + "Spotify access is revoked at \(AuthorizationServer.revokeAccessPage.absoluteString)"
            ])
        await show(morning, links)
        await emulator.stop()
        narrator.step("Done", ["seconds": String(format: "%.1f", (ContinuousClock.now - started).seconds)])
    }

    /// The language-learning app: a search in Japanese, a track to open in Spotify, the top tracks.
    private func learning(client: SpotifyClient, narrator: Narrator) async throws {
        let query = "さくら"
        let results = try await client.searchTracks(query, limit: 5)
        narrator.step(
            "The learning app searches for songs in Japanese: \(query)", ["results": "\(results.items.count)"])
        for track in results.items {
            narrator.detail(
                "\(TerminalText(track.name)) · \(TerminalText(track.artistLine)) · \(Output.clock(track.duration))")
        }
        let song = try requireValue(results.items.first, "no Japanese song found")
        let reference = try requireValue(song.reference, "a track without an ID")
        narrator.step(
            "Open \"\(TerminalText(song.name))\" in Spotify (no 30-second previews for apps since November 2024)",
            ["link": reference.webURL.absoluteString, "uri": reference.uri])
        let top = try await client.topTracks(range: .shortTerm, limit: 5)
        narrator.step("Your top tracks of the last four weeks", ["count": "\(top.items.count)"])
        for (index, track) in top.items.enumerated() {
            narrator.detail("\(index + 1). \(TerminalText(track.name)) · \(TerminalText(track.artistLine))")
        }
    }

    /// The demo's browser: opens `url` and follows the redirects (to the loopback listener).
    private static func browse(_ url: URL) async {
        let transport = platformDefaultTransport()
        var next: URL? = url
        for _ in 0..<3 {
            guard let current = next,
                let (response, _) = try? await transport.send(
                    HTTPRequest(method: .get, url: current), body: nil, timeout: .seconds(10), maxBodyBytes: 1 << 20)
            else { return }
            next = response.headerFields[.location].flatMap { URL(string: $0, relativeTo: current)?.absoluteURL }
        }
    }

    private func show(_ entry: Journal.Entry, _ links: LinkedPlaylists) async {
        CardPrinter.print(entry: entry, card: try? await links.card(for: entry.record), json: json)
    }

    /// Plays the playlist on the virtual player with a skip and a pause, follows it with the
    /// now-playing monitor, and sums up the 20 minutes in songs.
    private func routine(
        _ entry: Journal.Entry, _ playlist: SpotifyID, emulator: EmulatorServer, client: SpotifyClient,
        clock: VirtualClock,
        narrator: Narrator
    ) async throws {
        narrator.step("Running the routine on the virtual player at high speed")
        let start = clock.now
        await emulator.control("player/play", ["context_uri": "spotify:playlist:\(playlist.rawValue)"])
        let script: [(TimeInterval, String)] = [(400, "next"), (600, "pause"), (660, "resume")]
        var pending = script
        var routine = RoutineListening(playlist: .playlist(playlist))
        let monitor = NowPlayingMonitor(client: client)
        let events = AsyncStream.makeStream(of: NowPlayingState.self)
        let consumer = Task {
            for await state in monitor.states() { events.continuation.yield(state) }
            events.continuation.finish()
        }
        var iterator = events.stream.makeAsyncIterator()
        let end = start.addingTimeInterval(20 * 60)
        var seen = 0
        while clock.now < end {
            // Wait until the monitor has polled and gone to sleep, print what it saw, then move time on.
            try await clock.waitForSleepers(1)
            while seen < monitor.emittedCount, let state = await iterator.next() {
                seen += 1
                routine.observe(state, at: clock.now)
                let minute = Int(clock.now.timeIntervalSince(start)) / 60
                let second = Int(clock.now.timeIntervalSince(start)) % 60
                if json {
                    NowPlayingPrinter.print(state, json: true)
                } else {
                    NowPlayingPrinter.print(
                        state, json: false, prefix: String(format: "  [%02d:%02d] ", minute, second))
                }
            }
            guard let deadline = clock.nextDeadline else { break }
            let target = min(deadline, end)
            if let (offset, action) = pending.first, start.addingTimeInterval(offset) < target {
                clock.advance(by: .clampedSeconds(start.addingTimeInterval(offset).timeIntervalSince(clock.now)))
                await emulator.control("player/\(action)")
                pending.removeFirst()
            } else {
                clock.advance(by: .clampedSeconds(target.timeIntervalSince(clock.now)))
                if target == end { break }
            }
        }
        consumer.cancel()
        let summary = routine.summary(at: end)
        narrator.step(
            Output.sentence(summary),
            [
                "tracks": "\(summary.tracksPlayed)", "listened": Output.duration(summary.timeListened),
                "calls": "\(monitor.callCount)",
            ])
        await emulator.control("player/stop")
    }
}

/// Narration for people, or one JSON event per step.
struct Narrator {
    let json: Bool

    func step(_ text: String, _ fields: [String: String] = [:]) {
        if json {
            Output.json(["step": text].merging(fields) { first, _ in first })
        } else {
            let extra = fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            Output.line(
                Output.bold("==> ") + TerminalText(text)
                    + (extra.isEmpty ? "" : Output.dim("  (\(TerminalText(extra)))"))
            )
        }
    }

    func detail(_ text: String) {
        if !json { Output.line("    " + TerminalText(text)) }
    }
}

/// Unwraps or fails the command with `reason`.
func requireValue<T>(_ value: T?, _ reason: String) throws -> T {
    guard let value else { throw CLIFailure("The demo could not continue: \(reason).") }
    return value
}
