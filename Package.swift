// swift-tools-version:6.1
import PackageDescription

/// Upcoming features every target builds with (STYLE point 3): a small public surface the compiler checks.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SpotifyLink",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "SpotifyWebAPI", targets: ["SpotifyWebAPI"]),
        .library(name: "SpotifyAuth", targets: ["SpotifyAuth"]),
        .library(name: "SpotifyAuthLoopback", targets: ["SpotifyAuthLoopback"]),
        .library(name: "PlaylistLinks", targets: ["PlaylistLinks"]),
        .library(name: "SpotifyLinkSQLite", targets: ["SpotifyLinkSQLite"]),
        .library(name: "SpotifyNowPlaying", targets: ["SpotifyNowPlaying"]),
        .library(name: "SpotifyLinkPostgres", targets: ["SpotifyLinkPostgres"]),
        .library(name: "SpotifyLinkServices", targets: ["SpotifyLinkServices"]),
        .library(name: "SpotifyLinkUI", targets: ["SpotifyLinkUI"]),
        .library(name: "SpotifyLinkExtensions", targets: ["SpotifyLinkExtensions"]),
        .library(name: "SpotifyEmulator", targets: ["SpotifyEmulator"]),
        .library(name: "SpotifyTesting", targets: ["SpotifyTesting"]),
        .executable(name: "spotlink-search", targets: ["SpotLinkSearch"]),
        .executable(name: "spotify-emulator", targets: ["SpotifyEmulatorCommand"]),
        .executable(name: "spotlink", targets: ["SpotLink"]),
        .executable(name: "spotlink-bench", targets: ["SpotLinkBench"]),
    ],
    traits: [
        // `spotlink --store postgres` (the CLI's PostgreSQL token store) and `spotlink-search` with
        // SPOTLINK_SEARCH_POSTGRES_URL (several instances, one state). Off by default, so a fresh
        // `swift run spotlink demo` builds neither PostgresNIO nor what only it needs; CI and
        // `swift test --traits PostgreSQL` build it. The library products never depend on it.
        .trait(
            name: "PostgreSQL",
            description:
                "spotlink's --store postgres and spotlink-search's PostgreSQL store (PostgresNIO); the SpotifyLinkPostgres library is always a product"
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The bench alone: counts allocations per request (preloaded into a worker process).
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The search service's App Attest check: the credential certificate's chain to Apple's root.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // The search service's metrics (GET /metrics).
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Tests alone: property-based checks of the link stores against a model.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // The small helpers every layer shares (form encoding, HTML escaping, Duration in seconds),
        // one copy each; package access only, not a product.
        .target(name: "SpotifyLinkSupport", swiftSettings: strictSettings),
        // A validating JSON tokenizer, the Web API client's fast path for the pages it reads most;
        // it knows JSON and JSONDecoder, nothing of Spotify. Package access only, not a product.
        .target(name: "JSONReading", swiftSettings: strictSettings),
        // What an app's extensions (widgets, Live Activities, App Intents, controls) link: the
        // snapshot the app writes in its App Group container. Foundation alone, so an extension
        // stays far below its memory limit; it sends no request and opens no database.
        .target(name: "SpotifyLinkExtensions", swiftSettings: strictSettings),
        // The search service's check that a request comes from the genuine app (Apple's App
        // Attest): the project's CBOR reader, the certificate chain to Apple's root, attestations
        // and assertions. Server side; package access, not a product yet.
        .target(
            name: "AppAttest",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotifyWebAPI",
            dependencies: [
                "SpotifyLinkSupport",
                "JSONReading",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // Linux's transport (URLSession there reads bodies ahead without backpressure).
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotifyAuth",
            dependencies: [
                "SpotifyLinkSupport",
                "SpotifyWebAPI",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocalHTTPServer",
            dependencies: [
                "SpotifyLinkSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotifyAuthLoopback",
            dependencies: [
                "SpotifyLinkSupport",
                "SpotifyAuth", "SpotifyWebAPI", "LocalHTTPServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The links' values, the store protocol, the refresher and song time: no database.
        .target(
            name: "PlaylistLinks",
            dependencies: [
                "SpotifyLinkSupport",
                "SpotifyWebAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The device's storage: the link store and the request ledger in SQLite (GRDB).
        .target(
            name: "SpotifyLinkSQLite",
            dependencies: [
                "SpotifyLinkSupport", "SpotifyWebAPI", "PlaylistLinks",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // What is playing now, polled within the budget, and a routine summed up in songs.
        .target(
            name: "SpotifyNowPlaying",
            dependencies: ["SpotifyLinkSupport", "SpotifyWebAPI"],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The server product: links and the request ledger in PostgreSQL, many users in one database.
        // Never imported by the app libraries (scripts/check-imports.py).
        .target(
            name: "SpotifyLinkPostgres",
            dependencies: [
                "PlaylistLinks", "SpotifyAuth", "SpotifyWebAPI", "SpotifyLinkSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotifyEmulator",
            dependencies: [
                "SpotifyLinkSupport",
                "LocalHTTPServer",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The composition root: one configuration, the sign-in, ledger, client and link store built
        // from it once, for an app, the command line, the bench and the tests alike.
        .target(
            name: "SpotifyLinkServices",
            dependencies: [
                "SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "SpotifyLinkSQLite",
                "SpotifyLinkExtensions",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The search service for signed-out apps: Hummingbird, App Attest, the ledger and its
        // state in SQLite, or in PostgreSQL with the PostgreSQL trait (instances on several machines).
        .target(
            name: "SpotifySearchService",
            dependencies: [
                "AppAttest", "SpotifyWebAPI", "SpotifyAuth", "SpotifyLinkSQLite", "LocalHTTPServer",
                "SpotifyLinkSupport",
                .target(name: "SpotifyLinkPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SpotLinkSearch",
            dependencies: [
                "AppAttest", "SpotifySearchService", "SpotifyEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotifyLinkUI",
            dependencies: [
                "SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "SpotifyLinkSQLite",
                "SpotifyNowPlaying", "SpotifyLinkServices", "SpotifyLinkExtensions",
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The virtual clock of tests, demos and the bench: public through SpotifyTesting, which
        // re-exports it, and used by the CLI's demo; no app-facing product links it.
        .target(
            name: "VirtualTime",
            dependencies: ["SpotifyLinkSupport", "SpotifyWebAPI"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotifyTesting",
            dependencies: [
                "VirtualTime",
                "SpotifyLinkSupport",
                "SpotifyWebAPI", "SpotifyEmulator", "PlaylistLinks", "SpotifyAuth", "LocalHTTPServer",
                "AppAttest",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "EmulatorCommandLine",
            dependencies: [
                "SpotifyEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SpotifyEmulatorCommand",
            dependencies: ["EmulatorCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        // spotlink's platform-specific code (folders, the system opener, the export's file checks),
        // apart so the Apple check compiles it for macOS: the rest of the tool needs SwiftNIO.
        .target(
            name: "SpotLinkSystem",
            dependencies: ["SpotifyLinkSupport"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SpotLink",
            dependencies: [
                "SpotLinkSystem",
                "VirtualTime",
                "SpotifyLinkServices",
                "SpotifyLinkSQLite", "SpotifyNowPlaying",
                "SpotifyLinkSupport",
                "SpotifyWebAPI", "SpotifyAuth", "SpotifyAuthLoopback", "PlaylistLinks", "SpotifyEmulator",
                "EmulatorCommandLine",
                .target(name: "SpotifyLinkPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SpotLinkBench",
            dependencies: [
                "SpotifyLinkSQLite", "SpotifyNowPlaying",
                "SpotifyLinkSupport",
                "SpotifyWebAPI", "SpotifyAuth", "SpotifyAuthLoopback", "PlaylistLinks", "SpotifyLinkPostgres",
                "SpotifyLinkUI", "SpotifyLinkExtensions", "SpotifyEmulator", "SpotifyTesting", "SpotifySearchService",
                "AppAttest", "LocalHTTPServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SpotLinkFuzzTargets",
            dependencies: [
                "SpotifyWebAPI", "SpotifyAuth", "SpotifyEmulator", "AppAttest", "SpotifyLinkExtensions",
                "SpotifySearchService",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // libFuzzer entry point (scripts/fuzz.sh builds it with -DFUZZING); a plain build replays inputs.
        .executableTarget(
            name: "SpotLinkFuzz",
            dependencies: ["SpotLinkFuzzTargets"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "TokenCrashChild",
            dependencies: [
                "SpotifyAuth", "SpotifyWebAPI",
            ],
            path: "Tests/Helpers/TokenCrashChild",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "RefreshRaceChild",
            dependencies: ["SpotifyAuth", "SpotifyWebAPI"],
            path: "Tests/Helpers/RefreshRaceChild",
            swiftSettings: strictSettings
        ),
        // The measuring loop of spotlink-bench's two cost workers, the only binaries that link the
        // allocation counter.
        .target(
            name: "CostMeasure",
            dependencies: [.product(name: "MallocInterposerSwift", package: "malloc-interposer")],
            swiftSettings: strictSettings
        ),
        // spotlink-bench's request-cost worker.
        .executableTarget(
            name: "SpotLinkRequestCost",
            dependencies: [
                "CostMeasure", "SpotifyLinkSQLite", "SpotifyEmulator", "SpotifyLinkSupport", "SpotifyWebAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // spotlink-bench's search-service worker: what one request costs the service itself.
        .executableTarget(
            name: "SpotLinkSearchCost",
            dependencies: [
                "AppAttest", "CostMeasure", "SpotifySearchService", "SpotifyEmulator", "SpotifyLinkSupport",
                "SpotifyTesting", "SpotifyWebAPI", "SpotifyAuth",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "PostgresRefreshChild",
            dependencies: [
                "SpotifyAuth", "SpotifyWebAPI", "SpotifyLinkPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Helpers/PostgresRefreshChild",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LockStressChild",
            dependencies: ["SpotifyLinkSupport"],
            path: "Tests/Helpers/LockStressChild",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "AppGroupChild",
            dependencies: ["SpotifyLinkUI", "SpotifyAuth", "SpotifyWebAPI"],
            path: "Tests/Helpers/AppGroupChild",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LedgerQuotaChild",
            dependencies: [
                "SpotifyLinkPostgres", "SpotifyWebAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Helpers/LedgerQuotaChild",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "PostgresRestartChild",
            dependencies: [
                "PlaylistLinks", "SpotifyLinkPostgres", "SpotifyLinkSupport", "SpotifyWebAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Helpers/PostgresRestartChild",
            swiftSettings: strictSettings
        ),
        .target(
            name: "PostgresTestServer",
            dependencies: [
                "SpotifyLinkPostgres", "SpotifyWebAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Helpers/PostgresTestServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LinksCrashChild",
            dependencies: [
                "SpotifyLinkSQLite",
                "PlaylistLinks", "SpotifyWebAPI",
            ],
            path: "Tests/Helpers/LinksCrashChild",
            swiftSettings: strictSettings
        ),
        // Writes extension snapshots in a loop until killed (SpotifyLinkExtensionsTests).
        .executableTarget(
            name: "SnapshotWriterChild",
            dependencies: ["SpotifyLinkExtensions"],
            path: "Tests/Helpers/SnapshotWriterChild",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyLinkExtensionsTests",
            dependencies: [
                "SpotifyLinkExtensions", "SpotifyTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifySearchServiceTests",
            dependencies: [
                "SpotifySearchService", "AppAttest", "SpotifyTesting", "SpotifyEmulator", "SpotifyWebAPI",
                "SpotifyAuth", "SpotifyLinkSQLite", "LocalHTTPServer", "SpotifyLinkServices", "SpotifyLinkUI",
                "SpotifyLinkPostgres", "PostgresTestServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppAttestTests",
            dependencies: [
                "AppAttest", "SpotifyTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // Apple's sample attestation, read from the source tree by the tests.
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyLinkSupportTests",
            dependencies: ["SpotifyLinkSupport", "SpotifyTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotLinkTests",
            dependencies: [
                "SpotifyLinkSupport", .product(name: "GRDB", package: "GRDB.swift"),
                "SpotifyEmulator", "SpotifyTesting", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Snapshots"],  // read from the source tree by HelpSnapshotTests
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlaylistLinksTests",
            dependencies: [
                "SpotifyLinkSQLite",
                "SpotifyLinkSupport",
                "PlaylistLinks", "SpotifyWebAPI", "SpotifyEmulator", "SpotifyTesting", "SpotifyLinkPostgres",
                "PostgresTestServer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        // The device storage's own behaviours: its SQLite files (crash safety, earlier files, the
        // app's GRDB configuration, transactions, the request ledger's file).
        .testTarget(
            name: "SpotifyLinkSQLiteTests",
            dependencies: [
                "SpotifyLinkSQLite", "PlaylistLinks", "SpotifyWebAPI", "SpotifyLinkSupport", "SpotifyEmulator",
                "SpotifyTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // The server product's own behaviours: its link, ledger and sealed token stores in
        // PostgreSQL (the storage contracts' suites run it beside the other stores).
        .testTarget(
            name: "SpotifyLinkPostgresTests",
            dependencies: [
                "SpotifyLinkPostgres", "PostgresTestServer", "PlaylistLinks", "SpotifyAuth", "SpotifyWebAPI",
                "SpotifyLinkSupport", "SpotifyEmulator", "SpotifyTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyNowPlayingTests",
            dependencies: [
                "SpotifyNowPlaying", "SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyEmulator", "SpotifyTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyAuthTests",
            dependencies: [
                "SpotifyLinkSupport",
                "SpotifyAuth", "SpotifyAuthLoopback", "SpotifyWebAPI", "SpotifyEmulator", "SpotifyTesting",
                "SpotifyLinkPostgres", "PostgresTestServer",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyEmulatorTests",
            dependencies: [
                "SpotifyEmulator", "SpotifyWebAPI", "SpotifyTesting", "EmulatorCommandLine", "LocalHTTPServer",
                "SpotifyLinkSupport", "VirtualTime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyLinkServicesTests",
            dependencies: [
                "SpotifyLinkServices", "SpotifyAuth", "PlaylistLinks", "SpotifyWebAPI", "SpotifyEmulator",
                "SpotifyTesting", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyLinkUITests",
            dependencies: [
                "SpotifyLinkServices",
                "SpotifyLinkSQLite", "SpotifyNowPlaying",
                "SpotifyLinkSupport",
                "SpotifyLinkUI", "SpotifyAuth", "PlaylistLinks", "SpotifyWebAPI",
                "SpotifyEmulator", "SpotifyTesting", "SpotifyLinkExtensions",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "SpotifyLinkSQLite",
                "PlaylistLinks", "SpotifyAuth", "SpotifyWebAPI", "SpotifyEmulator", "SpotifyLinkUI",
                "SpotifyTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["SpotLinkFuzzTargets"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SpotifyWebAPITests",
            dependencies: [
                "SpotifyLinkSupport",
                "JSONReading",
                "SpotifyWebAPI", "SpotifyEmulator", "SpotifyTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
