import ArgumentParser
import EmulatorCommandLine
import Foundation
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyWebAPI

struct NowPlaying: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now-playing", abstract: "What Spotify is playing now.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Keep following, printing each change (Ctrl-C to stop).")
    var watch = false
    @Option(
        help:
            "How to poll: budgeted (at most 30 calls an hour, the default), economical (about one call per track) or responsive (skips seen within 30 s, about 120 calls an hour)."
    )
    var polling: PollingChoice = .budgeted

    func run() async throws {
        let context = try Context(global)
        let (_, client) = try await signedIn(context)
        if !watch {
            let state = NowPlayingState(try await client.currentlyPlaying(), observedAt: client.clock.now)
            NowPlayingPrinter.print(state, json: global.json)
            return
        }
        for await state in NowPlayingMonitor(client: client, policy: polling.policy).states() {
            NowPlayingPrinter.print(state, json: global.json)
            if state == .unavailable(.signedOut) { throw CLIFailure("Signed out. Run 'spotlink login'.", exitCode: 3) }
            if state == .unavailable(.missingScope) {
                throw CLIFailure(
                    "The sign-in does not allow seeing what plays. Run 'spotlink login --scope user-read-currently-playing'.",
                    exitCode: 3)
            }
            if case .unavailable(.refused(let message)) = state { throw CLIFailure(message, exitCode: 1) }
        }
    }
}

/// The polling policies a user can choose.
enum PollingChoice: String, ExpressibleByArgument, CaseIterable {
    case budgeted, economical, responsive

    var policy: NowPlayingMonitor.Polling {
        switch self {
        case .budgeted: .default
        case .economical: .economical
        case .responsive: .responsive
        }
    }
}

struct Routine: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Follow a session as a routine and sum it up in songs.")
    @OptionGroup var global: GlobalOptions
    @Argument var id: String
    @Option(
        parsing: .unconditional, help: "Length of the routine in minutes, fractions allowed (default: the session's).")
    var minutes: Double?
    @Option(
        help:
            "How to poll: budgeted (at most 30 calls an hour, the default), economical (about one call per track) or responsive (skips seen within 30 s, about 120 calls an hour)."
    )
    var polling: PollingChoice = .budgeted

    func validate() throws {
        if let minutes, !(minutes > 0 && minutes <= Double(SessionCommand.New.longest)) {
            throw ValidationError(
                "--minutes is the routine's length, more than 0 and at most \(SessionCommand.New.longest) (a day); \(minutes) is not."
            )
        }
    }

    func run() async throws {
        let (context, links, entry) = try Journal.open(global, session: id, requireClientID: true)
        guard let card = try await links.card(for: entry.record) else {
            throw CLIFailure("Session \(entry.id) has no playlist attached.")
        }
        guard let length = minutes ?? entry.minutes.map(Double.init), length > 0 else {
            throw CLIFailure("Give the routine's length with --minutes.", exitCode: 2)
        }
        let (_, client) = try await signedIn(context)
        let start = RoutineListening(playlist: card.metadata.reference)
        Output.line(
            "Start \(TerminalText(card.metadata.name ?? "the playlist")) in Spotify: \(start.webURL.absoluteString)  (\(start.uri))"
        )
        let end = client.clock.now.addingTimeInterval(length * 60)
        let json = global.json
        // Follow until the routine's time is up; cancelling the consumer stops the monitor.
        let (observed, seen) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task { () -> RoutineListening in
            var routine = start
            for await state in NowPlayingMonitor(client: client, policy: polling.policy).states() {
                routine.observe(state, at: client.clock.now)
                NowPlayingPrinter.print(state, json: json)
                seen.yield()
            }
            return routine
        }
        try? await client.clock.sleep(for: .clampedSeconds(length * 60))
        // A routine shorter than Spotify's first answer (a slow network) knows nothing yet: wait for
        // that answer, up to a minute, rather than report "no music" it never asked about.
        await Self.firstAnswer(observed, within: .seconds(60), on: client.clock)
        consumer.cancel()
        let routine = await consumer.value
        let summary = routine.summary(at: min(end, client.clock.now))
        if global.json {
            Output.json(
                RoutineJSON(
                    songs: summary.songs, tracksPlayed: summary.tracksPlayed,
                    secondsListened: Int(clamping: summary.timeListened.clampedMilliseconds / 1000)))
        } else {
            Output.line("\(Output.sentence(summary))")
        }
    }
}

extension Routine {
    /// Returns once `observed` has an element (the monitor's first state), or after `limit`.
    static func firstAnswer(_ observed: AsyncStream<Void>, within limit: Duration, on clock: any SpotifyClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var iterator = observed.makeAsyncIterator()
                _ = await iterator.next()
            }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}

enum NowPlayingPrinter {
    static func print(_ state: NowPlayingState, json: Bool, prefix: String = "") {
        if json {
            switch state {
            case .playing(let item), .paused(let item):
                Output.json(
                    PlayingJSON(
                        state: state.isPlaying ? "playing" : "paused", name: item.name, subtitle: item.subtitle,
                        uri: item.uri, progressMs: Int(clamping: item.progress.clampedMilliseconds),
                        durationMs: Int(clamping: item.duration.clampedMilliseconds)))
            case .nothingPlaying: Output.json(["state": "nothing"])
            case .ad: Output.json(["state": "ad"])
            case .unavailable(let reason): Output.json(["state": "unavailable", "reason": "\(reason)"])
            }
            return
        }
        switch state {
        case .playing(let item):
            Output.line(
                "\(prefix)▶ \(TerminalText(item.name))" + (item.subtitle.map { " — \(TerminalText($0))" } ?? ""))
        case .paused(let item): Output.line("\(prefix)⏸ \(TerminalText(item.name)) (paused)")
        case .nothingPlaying: Output.line("\(prefix)Nothing is playing.")
        case .ad: Output.line("\(prefix)An advertisement is playing.")
        case .unavailable(.rateLimited(let retryAfter)):
            Output.line("\(prefix)Spotify asked to wait \(Int(retryAfter.seconds)) s.")
        case .unavailable(let reason):
            Output.line("\(prefix)Now playing is unavailable (\(String(describing: reason))).")
        }
    }
}

extension NowPlayingState {
    var isPlaying: Bool { if case .playing = self { true } else { false } }
}

struct EmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulator", abstract: "Run the Spotify emulator (same flags as spotify-emulator).")
    @OptionGroup var options: EmulatorOptions

    func run() async throws { try await options.serve() }
}

/// `routine --json`: the listening in songs.
private struct RoutineJSON: Encodable {
    @Nullable var songs: Double?
    let tracksPlayed: Int
    let secondsListened: Int

    enum CodingKeys: String, CodingKey {
        case songs
        case tracksPlayed = "tracks_played", secondsListened = "seconds_listened"
    }
}

/// `now --json` while something plays or is paused.
private struct PlayingJSON: Encodable {
    let state: String
    let name: String
    @Nullable var subtitle: String?
    let uri: String
    let progressMs: Int
    let durationMs: Int

    enum CodingKeys: String, CodingKey {
        case state, name, subtitle, uri
        case progressMs = "progress_ms", durationMs = "duration_ms"
    }
}
