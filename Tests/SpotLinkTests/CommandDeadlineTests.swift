import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

extension SpotLinkCommandTests {
    /// One deadline for a whole command (issue 66 item 2): however its time goes (slow answers,
    /// rate-limit waits, retries), a command that talks to Spotify gives up at `--deadline`, says
    /// so, and exits 5 as offline does.
    @Suite("spotlink's command deadline")
    struct CommandDeadline {
        /// Signs `cli` in to `emulator`, then makes its Web API answer after ten minutes; returns
        /// the options that point a command at it.
        static func signInThenSlowDown(_ cli: SpotLinkBinary, _ emulator: EmulatorServer) async throws -> [String] {
            let common = ["--emulator", emulator.baseURL.absoluteString]
            try #require(try await cli.login(common).status == 0)
            #expect(await emulator.control("config", ["latency_ms": "600000"]) == 200)
            return common
        }

        /// Spotify answers after ten minutes: the one-second deadline ends the command, well before
        /// the answer deadline (ten seconds, two minutes under ThreadSanitizer) would.
        @Test func aCommandGivesUpAtItsDeadline() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = try await Self.signInThenSlowDown(cli, emulator)
                let result = try await cli.run(["--deadline", "1", "playlists"] + common)
                #expect(result.status == 5, "\(result.stderr)")
                #expect(result.stderr.contains("spotlink gave up after 1 second (its --deadline)"), "\(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }

        /// The deadline comes from the environment when no option gives it; nonsense is a usage error.
        @Test func theDeadlineComesFromTheEnvironmentAndIsChecked() async throws {
            var cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = try await Self.signInThenSlowDown(cli, emulator)
                cli.extraEnvironment = ["SPOTLINK_COMMAND_DEADLINE": "1"]
                let bound = try await cli.run(["me"] + common)
                #expect(bound.status == 5, "\(bound.stderr)")
                #expect(bound.stderr.contains("gave up after 1 second"), "\(bound.stderr)")
                cli.extraEnvironment = ["SPOTLINK_COMMAND_DEADLINE": "soon"]
                let nonsense = try await cli.run(["me"] + common)
                #expect(nonsense.status == 2, "\(nonsense.stderr)")
                #expect(nonsense.stderr.contains("SPOTLINK_COMMAND_DEADLINE takes whole seconds"), "\(nonsense.stderr)")
                let option = try await cli.run(["me", "--deadline", "0"] + common)
                #expect(option.status == 2, "\(option.stderr)")
                #expect(option.stderr.contains("--deadline takes seconds from 1 to 86400"), "\(option.stderr)")
            }
        }
    }
}
