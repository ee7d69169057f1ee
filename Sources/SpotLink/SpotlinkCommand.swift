import ArgumentParser
import Foundation

/// `spotlink`: the whole SpotifyLink flow from a terminal, against real Spotify or an emulator.
@main
struct SpotlinkCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "spotlink",
        abstract: "Sign in to Spotify, attach playlists to sessions, read them offline, follow what plays.",
        discussion: """
            Exit codes: 0 ok, 1 failure (Spotify's refusals included, each explained), 2 usage, 3 sign-in needed \
            (or a missing scope), 4 rate limited or over the quota, 5 offline.
            Start with 'spotlink demo': the whole product against an embedded Spotify emulator.
            """,
        version: version,
        subcommands: [
            Demo.self, Login.self, Logout.self, Status.self, Me.self, Playlists.self, Search.self, PlaylistCommand.self,
            TrackCommand.self, Library.self, Top.self,
            SessionCommand.self, Open.self, NowPlaying.self, Routine.self, Refresh.self, Export.self, Import.self,
            Privacy.self, Doctor.self, EmulatorCommand.self,
        ])

    static func main() async {
        do {
            var command = try parseAsRoot(hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            if let asyncCommand = command as? any AsyncParsableCommand {
                try await run(asyncCommand)
            } else {
                try command.run()
            }
        } catch {
            Output.exitIfOutputWasLost()
            exit(withError: error)
        }
        Output.exitIfOutputWasLost()
    }

    /// `spotlink --emulator URL playlists`: the global options (``GlobalOptions``) given before the
    /// subcommand move after it, where every subcommand's option group parses them, so they work on
    /// either side. Only the options before the first other word move; a `--` stays last.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        let valued: Set = ["--data-dir", "--emulator", "--client-id", "--deadline"]
        let flags: Set = ["--json", "--verbose"]
        var moved: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let name = String(argument.prefix { $0 != "=" })
            if valued.contains(name) {
                moved.append(argument)
                if name == argument, index + 1 < arguments.endIndex {
                    index += 1
                    moved.append(arguments[index])
                }
            } else if flags.contains(argument) {
                moved.append(argument)
            } else {
                break
            }
            index += 1
        }
        var rest = Array(arguments[index...])
        guard !moved.isEmpty, !rest.isEmpty else { return arguments }
        rest.insert(contentsOf: moved, at: rest.firstIndex(of: "--") ?? rest.endIndex)
        return rest
    }

    static func exit(withError error: any Error) -> Never {
        let failure = CLIFailure(error)
        // Already in the command's one `--json` document: only the exit code is left to give.
        if failure.isKnown, failure.reported { Foundation.exit(failure.exitCode) }
        if failure.isKnown { fail(failure.message, exitCode: failure.exitCode) }
        // Usage mistakes exit 2 as documented (ArgumentParser's own code is 64).
        if exitCode(for: error) == .validationFailure { fail(fullMessage(for: error), exitCode: 2, usage: true) }
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        Self.exit(withError: error as (any Error)?)
    }

    /// Ends the command with `message`: on stderr for people, or, with `--json`, as one JSON object
    /// on stdout (`{"error": {"message": …, "exit_code": …}}`) that a program reads as it reads
    /// every other answer.
    private static func fail(_ message: String, exitCode: Int32, usage: Bool = false) -> Never {
        if CommandLine.arguments.dropFirst().contains("--json") {
            Output.json(FailureJSON(error: .init(message: message, exitCode: exitCode, usage: usage)))
        } else if usage {
            // ArgumentParser's usage text has its own lines; each is made safe.
            Output.note(
                TerminalText.lines(message.split(separator: "\n", omittingEmptySubsequences: false).map { "\($0)" }))
        } else {
            Output.error(message)
        }
        Foundation.exit(exitCode)
    }
}

/// `--json`'s answer when a command fails.
struct FailureJSON: Encodable {
    /// The failure: its message, exit code, and whether it was a usage mistake.
    struct Failure: Encodable {
        let message: String
        let exitCode: Int32
        let usage: Bool

        enum CodingKeys: String, CodingKey {
            case message, usage
            case exitCode = "exit_code"
        }
    }

    let error: Failure
}

extension FailureJSON.Failure {
    /// A command's failure, not a usage mistake.
    init(_ failure: CLIFailure) {
        self.init(message: failure.message, exitCode: failure.exitCode, usage: false)
    }
}
