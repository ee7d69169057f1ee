import AppAttest
import ArgumentParser
import Foundation
import Logging
import NIOCore
import SpotifyEmulator
import SpotifySearchService

/// `spotlink-search`: the search service for signed-out apps.
@main
struct SpotLinkSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotlink-search",
        abstract: "Track search for signed-out apps, proven genuine by App Attest, inside a share of the quota.",
        discussion: """
            Settings come from --config (a JSON file) and the environment, which wins: SPOTIFY_CLIENT_ID,
            SPOTIFY_CLIENT_SECRET (or SPOTIFY_CLIENT_SECRET_FILE), SPOTLINK_SEARCH_APP_IDS (TEAMID.bundle.id, …),
            SPOTLINK_SEARCH_DAILY_SHARE, SPOTLINK_SEARCH_DATABASE, SPOTLINK_SEARCH_PORT and the rest in the README.
            Several instances share one PostgreSQL database with SPOTLINK_SEARCH_POSTGRES_URL (a build with
            --traits PostgreSQL). Stops gracefully on SIGTERM or SIGINT.

            Try it with no Spotify account: spotlink-search --emulator
            """)

    @Option(help: "A JSON file of settings; the environment overrides it.")
    var config: String?

    @Flag(
        help: """
            Run against an emulator started in this process, with its own client and secret, the app \
            ID ABCDE12345.dev.spotifylink.learning and a development key written beside the database.
            """)
    var emulator = false

    func run() async throws {
        var environment = ProcessInfo.processInfo.environment
        var emulatorServer: EmulatorServer?
        if emulator {
            let secret = UUID().uuidString
            var emulatorConfiguration = EmulatorConfiguration()
            emulatorConfiguration.clients.append(
                .init(id: "spotlink-search", name: "SpotifyLink search", redirectURIs: [], secret: secret))
            let server = try await EmulatorServer.start(emulatorConfiguration)
            emulatorServer = server
            environment["SPOTIFY_CLIENT_ID"] = "spotlink-search"
            environment["SPOTIFY_CLIENT_SECRET"] = secret
            environment["SPOTLINK_SEARCH_SPOTIFY_URL"] = server.baseURL.absoluteString
            if environment["SPOTLINK_SEARCH_APP_IDS"] == nil {
                environment["SPOTLINK_SEARCH_APP_IDS"] = "ABCDE12345.dev.spotifylink.learning"
            }
            let database = environment["SPOTLINK_SEARCH_DATABASE"] ?? "spotlink-search.sqlite"
            let keyFile = URL(fileURLWithPath: database).deletingLastPathComponent()
                .appendingPathComponent("spotlink-search-development.key")
            if !FileManager.default.fileExists(atPath: keyFile.path) {
                let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
                _ = FileManager.default.createFile(
                    atPath: keyFile.path, contents: Data(key.utf8), attributes: [.posixPermissions: 0o600])
            }
            environment["SPOTLINK_SEARCH_DEVELOPMENT_KEY_FILE"] = keyFile.path
            environment["SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY"] = "1"
            say("Emulator at \(server.baseURL.absoluteString); development key in \(keyFile.path)")
        }
        let configuration: SearchServiceConfiguration
        do {
            configuration = try SearchServiceConfiguration.load(
                file: config.map { URL(fileURLWithPath: $0) }, environment: environment)
        } catch {
            throw ValidationError("\(error)")
        }
        var logger = Logger(label: "spotlink-search")
        logger.logLevel = configuration.logLevel
        let service = try await SearchService.open(configuration, logger: logger)
        try await service.run { channel in
            let port = channel.localAddress?.port.map(String.init) ?? "?"
            say("spotlink-search listening on http://\(configuration.host):\(port)")
        }
        await emulatorServer?.stop()
        say("spotlink-search stopped")
    }
}

/// A line on standard output, written at once (not held in a buffer while the service runs).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
