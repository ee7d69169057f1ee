import ArgumentParser
import Foundation
import SpotifyLinkSupport

/// A command that talks to Spotify and ends by itself: the whole of it runs under one deadline
/// (`--deadline`, else `SPOTLINK_COMMAND_DEADLINE`, else two minutes), so no mix of slow answers,
/// rate-limit waits and retries keeps a terminal waiting longer (issue 66 item 2). Commands that
/// run until stopped (`now-playing --watch`, `routine`, `emulator`), wait for a person (`login`,
/// whose `--timeout` says how long) or touch only local files are not bound.
protocol DeadlineBound: AsyncParsableCommand {
    var global: GlobalOptions { get }
    /// Whether this run is bound: `now-playing --watch` follows until stopped.
    var isBounded: Bool { get }
}

extension DeadlineBound {
    var isBounded: Bool { true }
}

extension Status: DeadlineBound {}
extension Logout: DeadlineBound {}
extension Me: DeadlineBound {}
extension Search: DeadlineBound {}
extension TrackCommand.Show: DeadlineBound {}
extension Library.Tracks: DeadlineBound {}
extension Top: DeadlineBound {}
extension Playlists: DeadlineBound {}
extension PlaylistCommand.Show: DeadlineBound {}
extension SessionCommand.Attach: DeadlineBound {}
extension Open: DeadlineBound {}
extension Refresh: DeadlineBound {}
extension Doctor: DeadlineBound {}
extension NowPlaying: DeadlineBound {
    var isBounded: Bool { !watch }
}

/// The command's deadline passed; what was under way was cancelled.
struct CommandDeadlineExpired: Error {
    let seconds: Int

    var failure: CLIFailure {
        CLIFailure(
            "spotlink gave up after \(seconds == 1 ? "1 second" : "\(seconds) seconds") (its --deadline): Spotify's "
                + "answers were too slow or too few, or the wait for a rate limit was too long. Check the network "
                + "connection and 'spotlink status'; give more time with --deadline SECONDS.",
            exitCode: 5)
    }
}

extension GlobalOptions {
    /// The seconds a bound command may take.
    static let defaultDeadline = 120
    /// The largest `--deadline`: a day.
    static let longestDeadline = 86_400

    /// `--deadline`, else `SPOTLINK_COMMAND_DEADLINE` (whole seconds), else two minutes.
    var commandDeadline: Int {
        get throws {
            if let deadline { return deadline }
            let environment = ProcessInfo.processInfo.environment["SPOTLINK_COMMAND_DEADLINE"]
            guard let environment else { return Self.defaultDeadline }
            guard let seconds = Int(environment), (1...Self.longestDeadline).contains(seconds) else {
                throw CLIFailure(
                    "SPOTLINK_COMMAND_DEADLINE takes whole seconds from 1 to \(Self.longestDeadline), as 120; "
                        + "it is '\(environment.prefix(40))'.", exitCode: 2)
            }
            return seconds
        }
    }
}

extension SpotlinkCommand {
    /// Runs `command`, under its deadline when it is bound: at the deadline the run is cancelled
    /// and, once it has ended, the command fails with exit code 5 saying so (a run that finished
    /// as the deadline passed keeps its result).
    static func run(_ command: sending any AsyncParsableCommand) async throws {
        guard let seconds = try deadline(of: command) else {
            var command = command
            try await command.run()
            return
        }
        let work = Task {
            var command = command
            try await command.run()
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(seconds))
            work.cancel()
        }
        let result = await work.result
        deadline.cancel()
        if case .failure = result, (try? await deadline.value) != nil {
            throw CommandDeadlineExpired(seconds: seconds)
        }
        try result.get()
    }

    /// The seconds `command` may take, or nil for a command that is not bound.
    private static func deadline(of command: any AsyncParsableCommand) throws -> Int? {
        guard let bound = command as? any DeadlineBound, bound.isBounded else { return nil }
        return try bound.global.commandDeadline
    }
}
