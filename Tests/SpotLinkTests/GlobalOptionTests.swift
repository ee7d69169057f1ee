import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

extension SpotLinkCommandTests {
    /// What every command shares: the global options, the folders, the files' modes, the version, and output that holds no secret and no terminal control.
    @Suite("spotlink's options, files and output")
    struct Options {
        /// Global options work before the subcommand as well as after it.
        @Test func globalOptionsWorkBeforeTheSubcommandToo() async throws {
            let cli = try SpotLinkBinary()
            let folder = cli.home.appendingPathComponent("elsewhere").path
            let before = try await cli.run(["--data-dir", folder, "--json", "privacy"])
            let after = try await cli.run(["privacy", "--data-dir", folder, "--json"])
            #expect(before.status == 0, "\(before.stderr)")
            #expect(before.stdout == after.stdout && before.stdout.contains(folder))
            let equals = try await cli.run(["--data-dir=\(folder)", "--json", "privacy"])
            #expect(equals.stdout == after.stdout, "\(equals.stderr)")
            // Not signed in (exit 3), not a usage error (exit 2, "Unknown option '--emulator'").
            let playlists = try await cli.run(["--emulator", "http://127.0.0.1:9", "playlists"])
            #expect(playlists.status == 3, "\(playlists.stderr)")
            #expect(!playlists.stderr.contains("Unknown option"))
            #expect(try await cli.run(["--emulator", "http://127.0.0.1:9"]).status == 2)
        }

        /// As the XDG Base Directory rules say: an empty variable means the default, and a relative
        /// path is invalid and ignored. Tokens and databases never land in the working directory (which
        /// may be a git checkout).
        @Test(arguments: [("", ""), ("relative/data", "relative/config"), ("", "config"), (".", ".")])
        func emptyOrRelativeXDGFoldersMeanTheDefaultsNeverTheWorkingDirectory(data: String, config: String) async throws
        {
            var cli = try SpotLinkBinary()
            let workingDirectory = cli.home.appendingPathComponent("checkout")
            try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
            cli.workingDirectory = workingDirectory
            cli.extraEnvironment = ["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config]
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                let login = try await cli.login(common)
                #expect(login.status == 0, "\(login.stderr)")
                #expect(try await cli.run(["session", "new", "Focus"] + common).status == 0)
            }
            // A coverage build's child leaves its profile (default.profraw) where it ran: not spotlink's.
            let left = try FileManager.default.contentsOfDirectory(atPath: workingDirectory.path)
            #expect(left.filter { !$0.hasSuffix(".profraw") }.isEmpty, "\(left)")
            let home = cli.home.standardizedFileURL.path
            let made = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path).filter {
                $0.hasSuffix("tokens") || $0.hasSuffix(".sqlite")
            }
            #expect(
                Set(made).isSuperset(of: [".config/spotlink/tokens", ".local/share/spotlink/links.sqlite"]),
                "under \(home): \(made)")
            #expect(made.allSatisfy { $0.hasPrefix(".config/") || $0.hasPrefix(".local/") }, "\(made)")
        }

        @Test func versionAndPrivacy() async throws {
            let version = try await SpotLinkBinary().run(["--version"])
            #expect(version.status == 0 && version.stdout.contains("0.1.0"))
            let privacy = try await SpotLinkBinary().run(["privacy", "--json"])
            #expect(privacy.status == 0)
            #expect(privacy.stdout.contains("playlist-read-private"))
        }

        @Test func personalDataIsWrittenForItsOwnerAloneWhateverTheUmask() async throws {
            var cli = try SpotLinkBinary()
            cli.umask = "000"
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                #expect(try await cli.run(["playlists"] + common).status == 0)
                #expect(try await cli.run(["session", "new", "S"] + common).status == 0)
                let export = cli.home.appendingPathComponent("links.json")
                #expect(try await cli.run(["export", export.path] + common).status == 0)
                let data = cli.home.appendingPathComponent("data/spotlink")
                for file in [
                    data.appendingPathComponent("links.sqlite"), data.appendingPathComponent("spotify-requests.sqlite"),
                    cli.home.appendingPathComponent("config/spotlink/settings.json"), export,
                ] {
                    let mode = try #require(
                        try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
                    #expect(mode == 0o600, "\(file.lastPathComponent): \(String(mode, radix: 8))")
                }
                // Every folder spotlink made on the way, not only the last: `umask 000` gave them 0777.
                for folder in ["data", "data/spotlink", "config", "config/spotlink", "config/spotlink/tokens"] {
                    let mode =
                        try FileManager.default.attributesOfItem(
                            atPath: cli.home.appendingPathComponent(folder).path)[.posixPermissions] as? Int
                    #expect(mode == 0o700, "\(folder): \(String(mode ?? 0, radix: 8))")
                }
                // A database an earlier version (or a copy) left readable by others is closed again.
                let links = data.appendingPathComponent("links.sqlite")
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: links.path)
                #expect(try await cli.run(["session", "list"] + common).status == 0)
                #expect(
                    try FileManager.default.attributesOfItem(atPath: links.path)[.posixPermissions] as? Int == 0o600)
                // A file far larger than any export is refused before it is read.
                let huge = cli.home.appendingPathComponent("huge.json")
                #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
                let handle = try FileHandle(forWritingTo: huge)
                try handle.truncate(atOffset: 65 << 20)
                try handle.close()
                let refused = try await cli.run(["import", huge.path] + common)
                #expect(refused.status == 1 && refused.stderr.contains("too large"))
            }
        }

        @Test func verboseOutputNeverShowsASecret() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { emulator in
                let common = ["--emulator", emulator.baseURL.absoluteString, "--verbose"]
                var outputs: [String] = []
                let login = try await cli.login(common)
                outputs += [login.stdout, login.stderr]
                let playlist = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
                await emulator.control("player/play", ["context_uri": "spotify:playlist:\(playlist)"])
                let export = cli.home.appendingPathComponent("export.json").path
                let commands: [[String]] = [
                    ["status"], ["playlists"], ["now-playing"], ["privacy"], ["doctor"], ["search", "focus"],
                    ["session", "new", "Focus", "--minutes", "1"],
                    ["session", "attach", "1", "spotify:playlist:\(playlist)"],
                    ["session", "show", "1"], ["session", "list"], ["open", "1"], ["refresh"],
                    ["routine", "1", "--minutes", "0.02"],
                    ["export", export], ["import", export], ["playlist", "show", playlist],
                ]
                for arguments in commands {
                    let result = try await cli.run(arguments + common)
                    #expect(result.status == 0, "\(arguments): \(result.stderr)")
                    outputs += [result.stdout, result.stderr]
                }
                // A refresh at --verbose: the access token is expired on the service, so the next call refreshes.
                await emulator.control("tokens/expire")
                let refreshed = try await cli.run(["playlists"] + common)
                outputs += [refreshed.stdout, refreshed.stderr]
                #expect(refreshed.stderr.contains("spotify token refresh"), "\(refreshed.stderr)")
                #expect(refreshed.stdout.contains("Deep Work"))
                let tokenFiles = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path).filter {
                    $0.hasSuffix(".json") && $0.contains("tokens")
                }
                let file = try #require(tokenFiles.first)
                let stored = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: cli.home.appendingPathComponent(file)))
                        as? [String: Any])
                let secrets = [stored["accessToken"] as? String, stored["refreshToken"] as? String].compactMap { $0 }
                #expect(secrets.count == 2)
                #expect(outputs.joined().contains("spotify request"))
                let logout = try await cli.run(["logout"] + common)
                outputs += [logout.stdout, logout.stderr]
                let exported = try String(contentsOfFile: export, encoding: .utf8)
                for output in outputs + [exported] {
                    for secret in secrets { #expect(!output.contains(secret)) }
                    // Every code, access token and refresh token the emulator ever issued has one of these.
                    for prefix in ["EMU_CODE_", "EMU_AT_", "EMU_RT_"] {
                        #expect(!output.contains(prefix), "\(prefix) in: \(output.prefix(200))")
                    }
                }
            }
        }

        @Test func namesFromSpotifyCannotDriveTheTerminal() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
                let hostile = "Deep\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31mWork\u{2028}\u{202E}evil\u{2066}"
                await emulator.control("playlists/\(deep)/rename", ["name": hostile])
                #expect(try await cli.run(["session", "new", "S"] + common).status == 0)
                var outputs: [String] = []
                for arguments in [
                    ["playlists"], ["playlist", "show", deep], ["session", "attach", "1", deep],
                    ["session", "show", "1"],
                ] {
                    let result = try await cli.run(arguments + common)
                    #expect(result.status == 0, "\(arguments): \(result.stderr)")
                    outputs += [result.stdout, result.stderr]
                }
                let all = outputs.joined()
                #expect(all.contains("Deep"))
                #expect(!all.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x2028, 0x202E, 0x2066].contains($0.value) })
            }
        }
    }
}
