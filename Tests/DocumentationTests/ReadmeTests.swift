import Foundation
import SpotifyEmulator
import SpotifyLinkUI
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
        swiftBlocks(try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
    }

    /// The ```swift blocks of a Markdown text, in order.
    static func swiftBlocks(_ markdown: String) -> [[String]] {
        let lines = markdown.components(separatedBy: "\n")
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

    /// The files that compile the examples: the SwiftUI ones as an app's files in AppleCheck/Examples
    /// (compiled for iOS by scripts/check-apple.sh), the others here (compiled for iOS too: a link in
    /// AppleCheck/Examples/DocCSnippets/ names this file).
    static func compiledSources() throws -> String {
        let examples = root.appendingPathComponent("AppleCheck/Examples")
        var files = [root.appendingPathComponent("Tests/DocumentationTests/ReadmeExamples.swift")]
        for app in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() {
            let folder = examples.appendingPathComponent(app)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let file = folder.appendingPathComponent(name)
                // The shared ConnectRow.swift is linked into each app: read it once.
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) == nil { files.append(file) }
            }
        }
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// The lines between `// <kind> example N begins` and `… ends`, without their indentation.
    static func compiledExample(_ number: Int, kind: String = "README") throws -> [String] {
        let lines = try compiledSources().components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// \(kind) example \(number) begins") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// \(kind) example \(number) ends") })
        let indentation = lines[begin].prefix { $0 == " " }.count
        return lines[(begin + 1)..<end].map {
            $0.hasPrefix(String(repeating: " ", count: indentation)) ? String($0.dropFirst(indentation)) : $0
        }
    }

    /// A shown block as the compiled one reads: whole when the compiled one is an app's file (it
    /// starts with its imports), else without the imports the compiled file has at its top.
    static func matches(shown block: [String], compiled: [String]) -> Bool {
        if compiled.first?.hasPrefix("import ") == true { return block == compiled }
        return Array(block.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }) == compiled
    }

    @Test(arguments: [2, 3, 4, 5, 6, 7, 8, 9])
    func theExampleIsTheCompiledOne(_ number: Int) throws {
        let blocks = try Self.readmeBlocks()
        try #require(blocks.count >= number, "the README has \(blocks.count) Swift examples")
        let compiled = try Self.compiledExample(number)
        #expect(
            Self.matches(shown: blocks[number - 1], compiled: compiled),
            "README example \(number) differs from the compiled one: edit the compiled one, then run scripts/sync-readme-examples.py"
        )
        // Every module the README imports is imported by the compiled file.
        let source = try Self.compiledSources()
        for module in blocks[number - 1].filter({ $0.hasPrefix("import ") }) {
            #expect(source.contains(module + "\n"), "the compiled examples lack \(module)")
        }
    }

    /// SwiftUIBindings.md's app examples are compiled app files too: its first block is the App,
    /// its second the README's ConnectRow.
    @Test func theSwiftUIArticlesExamplesAreTheCompiledOnes() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/SpotifyLinkUI/SpotifyLinkUI.docc/SwiftUIBindings.md"),
            encoding: .utf8)
        let blocks = Self.swiftBlocks(article)
        try #require(blocks.count >= 2, "SwiftUIBindings.md has \(blocks.count) Swift examples")
        #expect(blocks[0] == (try Self.compiledExample(1, kind: "SwiftUIBindings")))
        #expect(blocks[1] == (try Self.compiledExample(2)))
    }

    /// The lines an app writes for Spotify, counted from the README's app examples the way the
    /// Apple-platform review counted them (code lines; comments and blank lines aside):
    /// - a product line in Package.swift and an import for each of the package's modules, and an
    ///   import for each system framework the app adds for it (AuthenticationServices);
    /// - the example's code, and the shared ConnectRow for every app;
    /// - not what Xcode's app template already has: `import SwiftUI`, and the `@main` App's shell
    ///   (`@main struct …: App {`, its `var body: some Scene { WindowGroup { … } }` and closing
    ///   brace); the line inside it that makes the `SpotifyLink` counts.
    static func linesAnAppWrites() throws -> (journal: Int, routine: Int, learning: Int) {
        let template = ["import SwiftUI"]
        func code(_ lines: [String]) -> [String] {
            var lines = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty && !$0.hasPrefix("//") && !template.contains($0)
            }
            if let main = lines.firstIndex(where: { $0.hasPrefix("@main struct ") }) {
                if let close = lines[main...].firstIndex(of: "}") { lines.remove(at: close) }
                lines.remove(at: main)
                lines.removeAll { $0.hasPrefix("var body: some Scene { WindowGroup {") }
            }
            return lines
        }
        let packageModules: Set = ["PlaylistLinks", "SpotifyLinkUI", "SpotifyWebAPI", "SpotifyAuth"]
        func count(_ example: Int) throws -> Int {
            let lines = code(try compiledExample(2)) + code(try compiledExample(example))
            let imports = Set(lines.filter { $0.hasPrefix("import ") })
            let products = imports.filter { packageModules.contains(String($0.dropFirst("import ".count))) }.count
            return products + lines.filter { !$0.hasPrefix("import ") }.count + imports.count
        }
        // "Deleting a session: try await spotify.links.removeLink(for: session)" is a line the journal writes too.
        return (journal: try count(3) + 1, routine: try count(4), learning: try count(5))
    }

    @Test func eachAppWritesAFewDozenLinesAtMost() throws {
        let lines = try Self.linesAnAppWrites()
        // The examples compile in an app (scripts/check-apple.sh ios), with `import
        // AuthenticationServices` for the connect row's sign-in sheet; an app imports SpotifyLinkUI
        // alone, which exports the layers its models speak in.
        #expect(lines.journal <= 45, "the journal app writes \(lines.journal) lines")
        #expect(lines.routine <= 40, "the routine app writes \(lines.routine) lines")
        #expect(lines.learning <= 35, "the learning app writes \(lines.learning) lines")
    }

    /// The signed-out example runs as shown: `spotlink-search --emulator` started as the README
    /// says (a real process, its emulator inside), the learning app's model searching through it
    /// with the development key the service wrote, never signed in.
    @MainActor @Test func theSignedOutExampleSearchesThroughTheService() async throws {
        let folder = temporaryFile("readme-search")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["SPOTLINK_SEARCH_PORT"] = "0"
        environment["SPOTLINK_SEARCH_DATABASE"] = folder.appendingPathComponent("search.sqlite").path
        let child = try LineChild("spotlink-search", ["--emulator"], environment: environment)
        defer { child.terminate() }
        let started = try await child.waitFor(prefix: "Emulator at ")
        let emulator = try #require(URL(string: String(started.dropFirst("Emulator at ".count).prefix { $0 != ";" })))
        let listening = try await child.waitFor(prefix: "spotlink-search listening on ")
        let service = try #require(URL(string: String(listening.dropFirst("spotlink-search listening on ".count))))
        let key = try String(
            contentsOf: folder.appendingPathComponent("spotlink-search-development.key"), encoding: .utf8)
        let songs = readmeExampleSignedOut(
            configuration: .emulator(url: emulator, clock: VirtualClock(mode: .automatic)), searchService: service,
            developmentKey: try #require(Data(base64Encoded: key.trimmingCharacters(in: .whitespacesAndNewlines))))
        await songs.waitForSearch()
        #expect(songs.phase == .ready)
        #expect(songs.results.contains { $0.name.contains("さくら") })
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
                transport: PatientTransport(),
                clock: VirtualClock(mode: .automatic))
            try await readmeExampleLearningCalls(client: client)
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 4)
        }
    }
}
