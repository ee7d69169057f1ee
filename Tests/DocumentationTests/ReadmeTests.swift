import Foundation
import SpotifyEmulator
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The README's Swift examples are the ones compiled in ReadmeExamples.swift.
@Suite("README examples")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The README's ```swift blocks, in order.
    static func readmeBlocks() throws -> [[String]] {
        let lines = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8).components(
            separatedBy: "\n")
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The files that compile the examples: the SwiftUI one apart, with its stand-in for Linux.
    static func compiledSources() throws -> String {
        try ["ReadmeExamples.swift", "ReadmeSwiftUIExample.swift"].map {
            try String(contentsOf: root.appendingPathComponent("Tests/DocumentationTests/\($0)"), encoding: .utf8)
        }.joined(separator: "\n")
    }

    /// The lines between `// README example N begins` and `… ends`, without their indentation.
    static func compiledExample(_ number: Int) throws -> [String] {
        let lines = try compiledSources().components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README example \(number) begins") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README example \(number) ends") })
        let indentation = lines[begin].prefix { $0 == " " }.count
        return lines[(begin + 1)..<end].map {
            $0.hasPrefix(String(repeating: " ", count: indentation)) ? String($0.dropFirst(indentation)) : $0
        }
    }

    @Test(arguments: [2, 3, 4, 5, 6, 7])
    func theExampleIsTheCompiledOne(_ number: Int) throws {
        let blocks = try Self.readmeBlocks()
        try #require(blocks.count >= number, "the README has \(blocks.count) Swift examples")
        let shown = Array(blocks[number - 1].filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty })
        let compiled = try Self.compiledExample(number)
        #expect(shown == compiled, "README example \(number) differs from the compiled one: update both together")
        // Every module the README imports is imported by the compiled file.
        let source = try Self.compiledSources()
        for module in blocks[number - 1].filter({ $0.hasPrefix("import ") }) {
            #expect(source.contains(module + "\n"), "the compiled examples lack \(module)")
        }
    }

    /// The lines an app writes before its own screens, counted from the README's app examples the
    /// way the Apple-platform review counted them (code lines, comments and blank lines aside): the
    /// products in Package.swift (one per module imported), the imports, the example, and the
    /// connect row the routine and learning apps take from the journal's.
    static func linesAnAppWrites() throws -> (journal: Int, routine: Int, learning: Int) {
        func code(_ lines: [String]) -> Int {
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("//") }.count
        }
        let blocks = try readmeBlocks()
        func imports(_ number: Int) -> Int { blocks[number - 1].filter { $0.hasPrefix("import ") }.count }
        let journal = try compiledExample(2)
        let connectRow = Array(
            journal.drop { !$0.contains("struct ConnectRow") }.prefix { !$0.contains("struct AttachPlaylist") })
        // "Deleting a session: try await spotify.links.removeLink(for: session)" is a line the journal writes too.
        let counts = (
            journal: 2 * imports(2) + code(try compiledExample(2)) + 1,
            routine: 2 * imports(3) + code(try compiledExample(3)) + code(connectRow),
            learning: 2 * imports(4) + code(try compiledExample(4)) + code(connectRow)
        )
        return counts
    }

    @Test func eachAppWritesAFewDozenLinesAtMost() throws {
        let lines = try Self.linesAnAppWrites()
        #expect(lines.journal <= 45, "the journal app writes \(lines.journal) lines")
        #expect(lines.routine <= 40, "the routine app writes \(lines.routine) lines")
        #expect(lines.learning <= 35, "the learning app writes \(lines.learning) lines")
    }

    /// The learning example runs as shown against the emulator, with a signed-in client.
    @Test func theLearningExampleRuns() async throws {
        try await withEmulator { emulator in
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(
                    AccessToken(
                        await emulator.issueAccessToken(
                            scopes: EmulatorServer.allScopes + ["user-library-read", "user-top-read"]))),
                clock: VirtualClock(mode: .automatic))
            try await readmeExampleLearningCalls(client: client)
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 4)
        }
    }
}
