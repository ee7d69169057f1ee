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

    /// The configuration these flags describe, after checking them.
    ///
    /// - Throws: `ValidationError` naming the flag at fault, as `--quota must be positive`.
    public func configuration() throws -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.seed = seed
        configuration.autoApprove = autoApprove
        configuration.controlToken = controlToken
        configuration.placeholderImages = placeholderImages
        try Self.require(accessTokenTTL > 0, "--access-token-ttl", "must be positive")
        try Self.require(latencyMs >= 0, "--latency-ms", "must not be negative")
        try Self.require(rateLimit.map { $0 > 0 } ?? true, "--rate-limit", "must be positive")
        try Self.require(quota.map { $0 > 0 } ?? true, "--quota", "must be positive")
        try Self.require(quotaWindow > 0, "--quota-window", "must be positive")
        try Self.require((0...10_000).contains(extraPlaylists), "--extra-playlists", "must be between 0 and 10000")
        configuration.clients = try clients()
        configuration.quota = quota
        configuration.quotaWindow = .seconds(quotaWindow)
        configuration.extraLibraryPlaylists = extraPlaylists
        configuration.accessTokenTTL = .seconds(accessTokenTTL)
        configuration.refreshRotation = refreshRotation
        configuration.latency = .milliseconds(latencyMs)
        configuration.rateLimit = rateLimit
        configuration.catalogFile = catalog.map { URL(fileURLWithPath: $0) }
        configuration.shape = shape
        return configuration
    }

    /// The registered clients: `--client-id`'s (or `spotlink-demo`), each with every
    /// `--redirect-uri`, the secret, its `--developer` and the `--client-created` date.
    private func clients() throws -> [EmulatorConfiguration.Client] {
        var created = EmulatorConfiguration.Client.newClientCreated
        if let clientCreated {
            let date = try? Date.ISO8601FormatStyle().year().month().day().parse(clientCreated)
            try Self.require(date != nil, "--client-created", "takes a date as YYYY-MM-DD, as 2025-06-01")
            created = date ?? created
        }
        var owners: [String: String] = [:]
        for pair in developers {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            try Self.require(
                parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty, "--developer",
                "takes CLIENT_ID=DEVELOPER, as app-2=alice")
            owners[parts[0]] = parts[1]
        }
        let ids = clientIDs.isEmpty ? ["spotlink-demo"] : clientIDs
        if let unknown = owners.keys.sorted().first(where: { !ids.contains($0) }) {
            throw ValidationError("--developer names \(unknown), which is not a --client-id")
        }
        let uris = redirectURIs.isEmpty ? ["http://127.0.0.1/callback"] : redirectURIs
        return ids.map {
            var client = EmulatorConfiguration.Client(
                id: $0, redirectURIs: uris, secret: clientSecret, developer: owners[$0] ?? "developer")
            client.created = created
            return client
        }
    }

    /// Whether `host` is this machine alone: `localhost`, `::1` or an address of 127.0.0.0/8.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]"
            || (host.hasPrefix("127.") && host.split(separator: ".").count == 4)
    }

    /// Throws the error naming `flag` unless `condition` holds.
    private static func require(_ condition: Bool, _ flag: String, _ rule: String) throws {
        guard condition else { throw ValidationError("\(flag) \(rule)") }
    }

    /// Serves until SIGINT or SIGTERM. The first line on stdout is `listening on http://HOST:PORT`,
    /// the second `control token: TOKEN`.
    public func serve() async throws {
        // The signals are caught before the first line is written: a parent that stops the emulator
        // as soon as it has read the port gets a graceful stop, never a kill by the default action.
        let termination = await Self.catchTerminationSignals()
        let server = try await EmulatorServer.start(configuration())
        // Written unbuffered: a parent process reads these lines to find the port and the token.
        FileHandle.standardOutput.write(
            Data("listening on \(server.baseURL.absoluteString)\ncontrol token: \(server.controlToken)\n".utf8))
        if !Self.isLoopback(host) {
            FileHandle.standardError.write(
                Data(
                    ("warning: listening on \(host), beyond this machine: anyone who reaches it can sign in as "
                        + "its users and read their data. Use --host 127.0.0.1 (the default) unless others "
                        + "must reach it.\n").utf8))
        }
        await termination.wait()
        await server.stop()
    }

    /// SIGINT and SIGTERM, caught from now on; `wait()` returns at the first.
    private struct TerminationSignals {
        let stream: AsyncStream<Int32>
        let sources: [any DispatchSourceSignal]

        func wait() async {
            for await _ in stream { break }
            sources.forEach { $0.cancel() }
        }
    }

    /// Returns once both sources are registered with the system: a signal sent after this is
    /// caught, where one sent between `SIG_IGN` and the registration would be lost.
    private static func catchTerminationSignals() async -> TerminationSignals {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let registered = AsyncStream.makeStream(of: Void.self)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.setRegistrationHandler { registered.continuation.yield() }
            source.resume()
            return source
        }
        var registrations = registered.stream.makeAsyncIterator()
        for _ in sources { await registrations.next() }
        return TerminationSignals(stream: stream, sources: sources)
    }
}

// The emulator's choices parse as themselves: ArgumentParser lists them in the help and refuses
// anything else with the usage, before the emulator is built.
extension EmulatorConfiguration.RefreshRotation: ExpressibleByArgument {}
extension EmulatorConfiguration.Shape: ExpressibleByArgument {}
