import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

/// Names the user does not control (a playlist's, renamed by its owner) and names they typed (a
/// session's title) reach the terminal as inert text in every command, the list and the picker
/// included; `--json` writes what a terminal would act on as `\u` escapes, the same value.
@Suite("Nothing a name holds drives the terminal", .serialized)
struct TerminalSafetyTests {
    /// A clipboard write (OSC 52), a title change (OSC 0), a screen clear, C1 CSI, a carriage
    /// return and backspaces that overwrite, a forged line, a right-to-left override and an isolate.
    static let hostile =
        "Mixtape\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\r\u{8}\u{8}"
        + "\nSigned in as admin\u{2028}\u{202E}kcah\u{2066}x\u{2069}\u{200B}\u{200F}y\u{061C}"
    static let hostileTitle = "Journal\u{1B}]52;c;aGk=\u{07}\r\nSigned in as admin\u{202E}"

    /// Scalars a terminal acts on, or that reorder what it shows.
    static func controls(in text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter {
            ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) || [0x2028, 0x2029].contains($0)
                || (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0)
                || [0x061C, 0x200B, 0x200E, 0x200F].contains($0)
        }
    }

    @Test func listsPickersTitlesAndJSONShowHostileNamesAsText() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            try #require(try await cli.login(common).status == 0)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            await emulator.control("playlists/\(deep)/rename", ["name": Self.hostile])
            #expect(try await cli.run(["session", "new", Self.hostileTitle] + common).status == 0)
            #expect(try await cli.run(["playlists"] + common).status == 0)

            // The picker lists the cached names; "mixtape" filters to the renamed one, 1 attaches it.
            let pick = try await cli.run(["session", "attach", "1", "--pick"] + common, input: "mixtape\n1\n")
            #expect(pick.status == 0, "\(pick.stderr)")
            #expect(pick.stderr.contains("Mixtape"), "the picker lists the name: \(pick.stderr)")
            #expect(try await cli.run(["refresh"] + common).status == 0)

            for arguments in [["session", "list"], ["session", "show", "1"], ["playlists"]] {
                let result = try await cli.run(arguments + common)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(result.stdout.contains("Mixtape") || arguments == ["session", "list"])
                #expect(Self.controls(in: result.stdout + result.stderr) == [], "\(arguments)")
                // A forged line would begin with the text after the line feed.
                #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("Signed in as admin") })
            }
            let list = try await cli.run(["session", "list"] + common)
            #expect(list.stdout.contains("Journal") && list.stdout.contains("Mixtape"), "\(list.stdout)")
            #expect(pick.stdout.split(separator: "\n").allSatisfy { !$0.hasPrefix("Signed in") })
            #expect(Self.controls(in: pick.stdout + pick.stderr) == [])

            // JSON: the same names, with nothing a terminal acts on left raw.
            for arguments in [["session", "list", "--json"], ["session", "show", "1", "--json"]] {
                let result = try await cli.run(arguments + common)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(Self.controls(in: result.stdout.replacingOccurrences(of: "\n", with: "")) == [], "\(arguments)")
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
                let text = String(describing: object)
                #expect(text.contains("Mixtape"))
            }
            let show = try await cli.run(["session", "show", "1", "--json"] + common)
            let card = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            let playlist = try #require(card["playlist"] as? [String: Any], "\(card)")
            #expect(playlist["name"] as? String == Self.hostile, "the value is kept, only escaped")
        }
    }
}
