import Foundation
import Testing

/// What the Swift Package Index and a dependent read: every library product's documentation is
/// built there, and the changelog names what the next version changes.
@Suite("The package as others depend on it")
struct PackageIndexTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOf: ReadmeTests.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theSwiftPackageIndexBuildsTheDocumentationOfEveryLibraryProduct() throws {
        let manifest = try Self.read("Package.swift")
        let products = manifest.matches(of: /\.library\(name: "(\w+)"/).map { String($0.output.1) }
        #expect(products.count >= 6)
        let listed = Set(
            try Self.read(".spi.yml").split(separator: "\n").compactMap { line -> String? in
                let item = line.trimmingCharacters(in: .whitespaces)
                return item.hasPrefix("- ") && !item.contains(":") ? String(item.dropFirst(2)) : nil
            })
        #expect(listed == Set(products), "in .spi.yml: \(listed.sorted()); library products: \(products)")
    }

    @Test func theChangelogKeepsItsFormAndSaysWhatIsPublic() throws {
        let changelog = try Self.read("CHANGELOG.md")
        #expect(changelog.hasPrefix("# Changelog\n"))
        #expect(changelog.contains("## Unreleased\n"))
        #expect(changelog.contains("### Changed (breaking)"))
        #expect(try Self.read("README.md").contains("## Versions"))
    }
}
