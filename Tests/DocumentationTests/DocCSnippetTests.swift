import Foundation
import Testing

/// Every Swift block an app copies from the DocC articles is compiled for iOS: it is the marked
/// region of an app file in AppleCheck/Examples (DocCSnippets/, or the SwiftUI examples), which
/// `scripts/check-apple.sh ios` compiles against Apple's declarations. This holds each article's
/// blocks to those regions, so an article cannot drift from code that builds.
@Suite("DocC examples")
struct DocCSnippetTests {
    /// The modules an app links (the SpotifyLinkUI product's closure), whose articles an app reads.
    static let appModules = [
        "PlaylistLinks", "SpotifyAuth", "SpotifyLinkSQLite", "SpotifyLinkServices", "SpotifyLinkUI",
        "SpotifyNowPlaying", "SpotifyWebAPI", "SpotifyLinkExtensions",
    ]

    /// Blocks compiled elsewhere, or not an app's code, each with where or why.
    static let elsewhere: [String: String] = [
        "SpotifyLinkUI/SwiftUIBindings 1":
            "SwiftUIBindingsApp/App.swift (theSwiftUIArticlesExamplesAreTheCompiledOnes)",
        "SpotifyLinkUI/SwiftUIBindings 2": "README example 2 (theSwiftUIArticlesExamplesAreTheCompiledOnes)",
        "PlaylistLinks/StoringLinksElsewhere 1": "a test target's code, for a store of one's own: not an app's",
    ]

    /// Every app module's article with its Swift blocks: "Module/Article" and the blocks.
    static func articles() throws -> [(kind: String, blocks: [[String]])] {
        var found: [(String, [[String]])] = []
        for module in appModules {
            let catalog = ReadmeTests.root.appendingPathComponent("Sources/\(module)/\(module).docc")
            for name in try FileManager.default.contentsOfDirectory(atPath: catalog.path).sorted()
            where name.hasSuffix(".md") {
                let text = try String(contentsOf: catalog.appendingPathComponent(name), encoding: .utf8)
                let blocks = ReadmeTests.swiftBlocks(text)
                if !blocks.isEmpty { found.append(("\(module)/\(name.dropLast(3))", blocks)) }
            }
        }
        return found
    }

    @Test func everyArticlesBlockIsACompiledOne() throws {
        let articles = try Self.articles()
        var compared = 0
        for (kind, blocks) in articles {
            for (index, block) in blocks.enumerated() {
                let number = index + 1
                if Self.elsewhere["\(kind) \(number)"] != nil { continue }
                guard let compiled = try Self.compiledRegion(kind, number) else { continue }
                #expect(
                    ReadmeTests.matches(shown: block, compiled: compiled),
                    "\(kind).md's Swift block \(number) differs from its compiled region in AppleCheck/Examples: edit both"
                )
                compared += 1
            }
        }
        #expect(compared >= 15, "only \(compared) DocC blocks compared: were articles moved?")
    }

    /// The region `// <kind> example N begins` … `ends` of the compiled examples, unindented;
    /// a block that has none fails, naming it.
    static func compiledRegion(_ kind: String, _ number: Int) throws -> [String]? {
        let lines = try ReadmeTests.compiledSources().components(separatedBy: "\n")
        guard lines.contains(where: { $0.hasSuffix("// \(kind) example \(number) begins") }) else {
            Issue.record(
                "\(kind).md's Swift block \(number) is compiled nowhere: copy it into AppleCheck/Examples/DocCSnippets/ between '// \(kind) example \(number) begins' and '… ends'"
            )
            return nil
        }
        return try ReadmeTests.compiledExample(number, kind: kind)
    }
}
