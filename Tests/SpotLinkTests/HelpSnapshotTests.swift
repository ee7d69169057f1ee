import Foundation
import SpotifyTesting
import Testing

/// Every command's `--help`, as a user reads it, against a snapshot kept beside this file. A change
/// to an option, a default or a sentence shows in the review as a change to the snapshot. Record
/// the snapshots again after a deliberate change: `SPOTLINK_RECORD_SNAPSHOTS=1 swift test --filter
/// HelpSnapshotTests`.
@Suite("spotlink --help of every command")
struct HelpSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots/help")
    static let recording = ProcessInfo.processInfo.environment["SPOTLINK_RECORD_SNAPSHOTS"] == "1"

    /// The subcommands a help text lists (its SUBCOMMANDS section), `help` aside.
    static func subcommands(_ help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            guard let match = line.wholeMatch(of: /\ \ ([a-z][a-z-]*)(?: \(default\))?(?:\s{2,}.*)?/) else {
                return nil
            }
            let name = String(match.output.1)
            return name == "help" ? nil : name
        }
    }

    @Test func everyCommandsHelpMatchesItsSnapshot() async throws {
        let cli = try SpotLinkBinary()
        var pending: [[String]] = [[]]
        var snapshots: Set<String> = []
        while let path = pending.popLast() {
            let result = try await cli.run(path + ["--help"])
            #expect(result.status == 0, "spotlink \(path.joined(separator: " ")) --help: \(result.stderr)")
            let name = (["spotlink"] + path).joined(separator: "-") + ".txt"
            snapshots.insert(name)
            let file = Self.folder.appendingPathComponent(name)
            if Self.recording {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try Data(result.stdout.utf8).write(to: file)
            } else {
                let expected = try? String(contentsOf: file, encoding: .utf8)
                #expect(
                    expected == result.stdout,
                    "spotlink \(path.joined(separator: " ")) --help differs from Snapshots/help/\(name); after a deliberate change, record again with SPOTLINK_RECORD_SNAPSHOTS=1"
                )
            }
            pending += Self.subcommands(result.stdout).map { path + [$0] }
        }
        #expect(snapshots.count >= 30, "only \(snapshots.count) commands found")
        // A snapshot of a command that is gone fails too.
        let kept = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
        #expect(kept == snapshots, "snapshots without a command: \(kept.subtracting(snapshots).sorted())")
    }
}
