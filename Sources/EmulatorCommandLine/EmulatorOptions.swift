public import ArgumentParser
import Dispatch
import Foundation
public import SpotifyEmulator

/// The emulator's flags, shared by `spotify-emulator` and `spotlink emulator`.
public struct EmulatorOptions: ParsableArguments {
    @Option(help: "Address to bind. Loopback by default; anything else exposes the emulator to the network.")
    var host = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks any free port.")
    var port = 0
    @Option(help: "Seed of the generated catalog and of injected faults.")
    var seed: UInt64 = 1
    @Flag(help: "Approve the consent page at once.")
    var autoApprove = false
    @Option(name: .customLong("client-id"), help: "A registered client ID (repeatable). Default: spotlink-demo.")
    var clientIDs: [String] = []
    @Option(name: .customLong("redirect-uri"), help: "A redirect URI registered for the clients (repeatable).")
    var redirectURIs: [String] = []
    @Option(help: "Client secret, enabling the client-credentials flow.")
    var clientSecret: String?
    @Option(help: "Access-token lifetime in seconds.")
    var accessTokenTTL = 3600
    @Option(help: "Refresh-token rotation: none (live since mid 2026) or rotate.")
    var refreshRotation: EmulatorConfiguration.RefreshRotation = .none
    @Option(help: "Latency added to every Web API response, in milliseconds.")
    var latencyMs = 0
    @Option(help: "Web API requests per rolling 30 s per client before 429s.")
    var rateLimit: Int?
    @Option(help: "Web API requests per developer account in the quota window before 429 QUOTA_EXCEEDED.")
    var quota: Int?
    @Option(help: "The quota's rolling window in seconds.")
    var quotaWindow = 86_400
    @Option(
        name: .customLong("developer"),
        help:
            "CLIENT_ID=DEVELOPER: the developer account owning a client ID (repeatable); clients of one developer share a quota."
    )
    var developers: [String] = []
    @Option(help: "Small playlists added to the user's library after the generated ones.")
    var extraPlaylists = 0
    @Flag(
        help:
            "Screenshot mode: every image a plain grey placeholder of the same size, names kept (App Store screenshots must not show album art)."
    )
    var placeholderImages = false
    @Option(help: "A JSON catalog file instead of the generated catalog.")
    var catalog: String?
    @Option(help: "Response shape: 2026 (new keys) or transition (old and new keys together).")
    var shape: EmulatorConfiguration.Shape = .current
    @Option(
        help: """
            When the client IDs were created (YYYY-MM-DD). Before 2026-02-11 they still get what Spotify \
            postponed removing for them: the plan, email and country on /me, /users/{id}, /tracks?ids=, /markets.
            """)
    var clientCreated: String?
    @Option(
        help:
            "The bearer token the control API (/emulator/...) asks for. Default: a random one, printed on the second line."
    )
    var controlToken: String?

    public init() {}

    /// The configuration these flags describe.
    public func configuration() throws -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.seed = seed
        configuration.autoApprove = autoApprove
        configuration.controlToken = controlToken
        configuration.placeholderImages = placeholderImages
        do {
            try configuration.apply(
                clientIDs: clientIDs, redirectURIs: redirectURIs, clientSecret: clientSecret,
                accessTokenTTL: accessTokenTTL, refreshRotation: refreshRotation, latencyMs: latencyMs,
                rateLimit: rateLimit, catalog: catalog, shape: shape, quota: quota, quotaWindow: quotaWindow,
                developers: developers, extraPlaylists: extraPlaylists, clientCreated: clientCreated)
        } catch let error as EmulatorError {
            throw ValidationError(error.description)
        }
        return configuration
    }

    /// Serves until SIGINT or SIGTERM. The first line on stdout is `listening on http://HOST:PORT`,
    /// the second `control token: TOKEN`.
    public func serve() async throws {
        let server = try await EmulatorServer.start(configuration())
        // Written unbuffered: a parent process reads these lines to find the port and the token.
        FileHandle.standardOutput.write(
            Data("listening on \(server.baseURL.absoluteString)\ncontrol token: \(server.controlToken)\n".utf8))
        await Self.waitForTerminationSignal()
        await server.stop()
    }

    private static func waitForTerminationSignal() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        for await _ in stream { break }
        sources.forEach { $0.cancel() }
    }
}

// The emulator's choices parse as themselves: ArgumentParser lists them in the help and refuses
// anything else with the usage, before the emulator is built.
extension EmulatorConfiguration.RefreshRotation: ExpressibleByArgument {}
extension EmulatorConfiguration.Shape: ExpressibleByArgument {}
