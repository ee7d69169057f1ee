// swift-tools-version:6.1
// The Apple half of SpotifyLink, type-checked on Linux: scripts/check-apple.sh ios|macos.
//
// The package's library targets that an app links are compiled here from the project's own
// Sources/ (through the `Sources` link), together with stand-in modules that carry the names of
// the Apple frameworks they import: Security, AuthenticationServices (with its SwiftUI overlay),
// SwiftUI, UIKit or AppKit, and the Darwin-only members of Foundation (DarwinFoundation, imported
// implicitly, since on Apple platforms those members come with Foundation). Each stand-in
// declaration is transcribed from Apple's documentation page, named beside it, with its
// availability; one that is unavailable on the flavor's platform is marked unavailable there, so
// using it fails the check. `canImport(UIKit)` is true in the ios flavor only, `canImport(AppKit)`
// in the macos flavor only: conditions in Sources/ name the framework each line needs.
//
// The README's and DocC's app examples are executable targets here (Examples/), compiled as files
// of an app: at file scope, with the imports they show, inside an `@main` App.
//
// Stand-ins never enter a product: this package is not the project's, and nothing depends on it.
import PackageDescription

let flavor = Context.environment["SPOTLINK_APPLE_FLAVOR"] ?? "ios"
precondition(["ios", "macos"].contains(flavor), "SPOTLINK_APPLE_FLAVOR is ios or macos, not \(flavor)")
let platformFramework = flavor == "ios" ? "UIKit" : "AppKit"

/// What the project's targets build with (Package.swift's strictSettings), and the implicit
/// import of Foundation's Darwin-only members.
let projectSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "DarwinFoundation"]),
]
/// The stand-ins learn the flavor, to mark what the platform lacks unavailable.
let standInSettings: [SwiftSetting] = [.define(flavor == "ios" ? "APPLE_IOS" : "APPLE_MACOS")]
let standIns: [Target.Dependency] = [
    "DarwinFoundation", "Security", "AuthenticationServices", "SwiftUI", .target(name: platformFramework),
]

/// A library target of the project, compiled from its own folder with the stand-ins beside it.
func project(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(
        name: name, dependencies: dependencies + standIns, path: "Sources/\(name)",
        resources: name == "SpotifyLinkSupport" ? [] : [.copy("PrivacyInfo.xcprivacy")],
        swiftSettings: projectSettings)
}

/// An app example: an executable whose files are the README's or DocC's blocks.
func example(_ name: String) -> Target {
    .executableTarget(
        name: name, dependencies: ["SpotifyLinkUI", "PlaylistLinks", "SpotifyWebAPI", "SpotifyAuth"] + standIns,
        path: "Examples/\(name)", swiftSettings: [.swiftLanguageMode(.v6)])
}

var targets: [Target] = [
    .target(name: "DarwinFoundation", path: "StandIns/DarwinFoundation", swiftSettings: standInSettings),
    .target(name: "Security", dependencies: ["DarwinFoundation"], path: "StandIns/Security", swiftSettings: standInSettings),
    .target(
        name: "SwiftUI", dependencies: [.target(name: platformFramework)], path: "StandIns/SwiftUI",
        swiftSettings: standInSettings),
    .target(
        name: "AuthenticationServices", dependencies: ["SwiftUI"], path: "StandIns/AuthenticationServices",
        swiftSettings: standInSettings),
    .target(name: platformFramework, path: "StandIns/\(platformFramework)", swiftSettings: standInSettings),
    project("SpotifyLinkSupport", []),
    project(
        "SpotifyWebAPI",
        [
            "SpotifyLinkSupport",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    project(
        "SpotifyAuth",
        [
            "SpotifyLinkSupport", "SpotifyWebAPI",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    project(
        "PlaylistLinks",
        [
            "SpotifyLinkSupport", "SpotifyWebAPI",
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
    project(
        "PlaylistLinksSQLite",
        ["SpotifyLinkSupport", "SpotifyWebAPI", "PlaylistLinks", .product(name: "GRDB", package: "GRDB.swift")]),
    project("SpotifyNowPlaying", ["SpotifyLinkSupport", "SpotifyWebAPI"]),
    project(
        "SpotifyLinkCore",
        [
            "SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "PlaylistLinksSQLite",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    project(
        "SpotifyLinkUI",
        [
            "SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "PlaylistLinksSQLite",
            "SpotifyNowPlaying", "SpotifyLinkCore",
        ]),
]
// The app examples are iOS apps (the journal, routine and learning apps): the ios flavor compiles them.
if flavor == "ios" {
    targets += ["JournalApp", "RoutineApp", "LearningApp", "SwiftUIBindingsApp"].map(example)
}

let package = Package(
    name: "AppleCheck",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: targets
)
