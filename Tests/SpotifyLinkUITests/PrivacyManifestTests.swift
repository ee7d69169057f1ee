import Foundation
import SpotifyAuth
import SpotifyLinkUI
import Testing

/// The privacy manifests of the library products an app takes, read as App Store review reads
/// them, against the code that ships and the privacy screen's words.
@Suite("Privacy manifests")
struct PrivacyManifestTests {
    static let products = [
        "SpotifyWebAPI", "SpotifyAuth", "SpotifyAuthLoopback", "PlaylistLinks", "SpotifyLinkSQLite",
        "SpotifyNowPlaying",
        "SpotifyLinkServices", "SpotifyLinkUI",
    ]
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Sources"
    ).standardized

    /// Symbols of Apple's required-reason API categories, as they appear in Swift source.
    static let categories: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            "stat(", "fstat(", "lstat(", "getattrlist(", ".creationDate", ".modificationDate",
            "contentModificationDate",
            "creationDateKey", "attributesOfItem(",
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time("],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            "statfs(", "statvfs(", "volumeAvailableCapacity", "systemFreeSize", "systemSize",
        ],
        // The type in use, not the category's name (the privacy model names the category).
        "NSPrivacyAccessedAPICategoryUserDefaults": [
            ": UserDefaults", "UserDefaults(", "UserDefaults.standard", "UserDefaults.init",
        ],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
    ]

    static func manifest(_ product: String) throws -> [String: Any] {
        let data = try Data(contentsOf: sources.appendingPathComponent("\(product)/PrivacyInfo.xcprivacy"))
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    static func categoriesUsed(by product: String) throws -> Set<String> {
        let folder = sources.appendingPathComponent(product)
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let code = try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        return Set(categories.filter { _, symbols in symbols.contains { code.contains($0) } }.keys)
    }

    @Test(arguments: products)
    func manifestParsesDeclaresNoTrackingAndListsExactlyTheAPIsTheCodeUses(product: String) throws {
        let manifest = try Self.manifest(product)
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        let declared = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let declaredCategories = Set(declared.compactMap { $0["NSPrivacyAccessedAPIType"] as? String })
        #expect(declaredCategories == (try Self.categoriesUsed(by: product)), "\(product)")
        for entry in declared {
            #expect((entry["NSPrivacyAccessedAPITypeReasons"] as? [String])?.isEmpty == false)
        }
    }

    @Test func thePrivacyScreenSaysWhatTheManifestsDeclare() throws {
        let model = SpotifyPrivacyModel(storeKind: .keychain)
        var declared: Set<String> = []
        for product in Self.products {
            let manifest = try Self.manifest(product)
            #expect(model.tracks == (manifest["NSPrivacyTracking"] as? Bool))
            #expect(
                model.collectedDataTypes.isEmpty
                    == ((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty ?? false))
            for entry in manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? [] {
                let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
                for reason in entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? [] {
                    declared.insert("\(category) \(reason)")
                }
            }
        }
        #expect(declared == Set(SpotifyPrivacyModel.declaredAPIs.map { "\($0.category) \($0.reason)" }))
        #expect(model.neverCollected.contains { $0.contains("No tracking") })
        #expect(model.stored.first?.location == "the Keychain")
        #expect(model.revokeSteps.last?.contains("spotify.com") == true)
        #expect(model.scopes.map(\.scope) == SpotifyScope.all)
        #expect(model.scopes.allSatisfy { $0.meaning != $0.scope })
    }

    @Test func theManifestShipsInsideEachLibraryBundle() throws {
        // SwiftPM copies the manifest into each target's resource bundle, where the App Store looks.
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var folder = build
        for _ in 0..<4
        where !FileManager.default.fileExists(
            atPath: folder.appendingPathComponent("SpotifyLink_SpotifyAuth.resources").path)
        {
            folder = folder.deletingLastPathComponent()
        }
        for product in Self.products {
            let bundle = folder.appendingPathComponent("SpotifyLink_\(product).resources/PrivacyInfo.xcprivacy")
            #expect(FileManager.default.fileExists(atPath: bundle.path), "\(bundle.path)")
        }
    }
}
