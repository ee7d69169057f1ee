import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

/// What the CLI says when something fails: the next step, in the form asked for.
@Suite("spotlink's messages")
struct MessageTests {
    /// `--json` asks for JSON: a failure is one JSON object on stdout too, usage mistakes included.
    @Test func failuresWithJSONAreJSON() async throws {
        let cli = try SpotLinkBinary()
        let data = ["--data-dir", cli.home.appendingPathComponent("d").path]
        for (arguments, status, usage) in [
            (["session", "show", "99", "--json"], Int32(1), false),
            (["session", "new", "X", "--minutes", "0", "--json"], Int32(2), true),
        ] {
            let result = try await cli.run(arguments + data)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
            let error = try #require(object["error"] as? [String: Any])
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(error["exit_code"] as? Int == Int(status) && error["usage"] as? Bool == usage)
        }
    }

    /// A scope missing: the hint to sign in again keeps this command line's emulator and data folder,
    /// and the second login keeps the store of the first.
    @Test func theScopeHintSignsInWhereTheCommandRan() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = [
                "--emulator", emulator.baseURL.absoluteString, "--data-dir", cli.home.appendingPathComponent("d").path,
            ]
            try #require(try await cli.login(common).status == 0)
            let library = try await cli.run(["library", "tracks"] + common)
            #expect(library.status == 3)
            #expect(library.stderr.contains("--scope user-library-read"), "\(library.stderr)")
            #expect(library.stderr.contains("--emulator \(emulator.baseURL.absoluteString)"), "\(library.stderr)")
            // The hint, followed: no --store, and the sign-in stays in the file store of the first login.
            let again = try await cli.login(["--scope", "user-library-read"] + common, choosingStore: false)
            #expect(again.stdout.contains("file"), "\(again.stdout)")
            #expect(try await cli.run(["library", "tracks"] + common).status == 0)
        }
    }

    /// Before any login, `doctor` checks the store `login` would choose, not another.
    @Test func doctorAndLoginAgreeOnTheDefaultStore() async throws {
        let cli = try SpotLinkBinary()
        let doctor = try await cli.run(["doctor", "--emulator", "http://127.0.0.1:9"])
        #expect(doctor.stdout.contains("Secret Service") || doctor.stdout.contains("keyring"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("0600 file"), "\(doctor.stdout)")
    }
}

/// Spotify's own playlists answer 404 to apps like this one although they exist: the message says
/// that, not "it may have been deleted", to a user who is signed in and online.
@Suite("An editorial playlist's message")
struct EditorialMessageTests {
    @Test func itSaysSpotifyDoesNotShareIt() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            try #require(try await cli.login(common).status == 0)
            let result = try await cli.run(["playlist", "show", "37i9dQZF1DXcBWIGoYBM5M"] + common)
            #expect(result.status == 1)
            #expect(result.stderr.contains("Spotify's own playlists") && result.stderr.contains("opens in Spotify"))
            #expect(!result.stderr.contains("deleted") && !result.stderr.contains("sign in"), "\(result.stderr)")
        }
    }
}
