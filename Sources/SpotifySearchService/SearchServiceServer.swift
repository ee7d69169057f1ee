import AppAttest
import Foundation
import HTTPTypes
package import Hummingbird
import HummingbirdCore
package import LocalHTTPServer
package import Logging
package import NIOCore
package import ServiceLifecycle
import SpotifyAuth
import SpotifyLinkSQLite
package import SpotifyWebAPI
import UnixSignals

#if PostgreSQL
    import PostgresNIO
    import SpotifyLinkPostgres
#endif

/// Carries Hummingbird's requests to a ``SearchService`` and its answers back.
package struct SearchServiceResponder: HTTPResponder {
    package typealias Context = SearchRequestContext
    let service: SearchService

    package init(service: SearchService) { self.service = service }

    package func respond(to request: Request, context: Context) async throws -> Response {
        // Read on past the limit, bounded, and drop, so the 413 is not lost to a reset (as the emulator does).
        var chunks = request.body.makeAsyncIterator()
        var body: [UInt8] = []
        var dropped = 0
        while dropped < 1 << 20, let chunk = try await chunks.next() {
            if dropped == 0 && body.count + chunk.readableBytes <= SearchService.maxBody {
                body.append(contentsOf: chunk.readableBytesView)
            } else {
                dropped += chunk.readableBytes
            }
        }
        if dropped > 0 { context.channel.close(mode: .input, promise: nil) }
        let target = request.head.path ?? "/"
        let (path, query) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        var address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        if service.configuration.trustForwardedFor, let forwarded = headers["x-forwarded-for"],
            let last = forwarded.split(separator: ",").last
        {
            address = last.trimmingCharacters(in: .whitespaces)
        }
        let answer: ServiceResponse
        if dropped > 0 {
            answer = .error(413, "too_large", "A request body is at most \(SearchService.maxBody) bytes.")
        } else if path.utf8.count > 256 || query.utf8.count > 2048 {
            answer = .error(414, "too_long", "The address is too long: search text is at most 200 characters.")
        } else {
            answer = await service.respond(
                to: ServiceRequest(
                    method: request.method.rawValue, path: path.removingPercentEncoding ?? path,
                    query: Self.parseQuery(query), headers: headers, body: body, address: address))
        }
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        if dropped > 0 { fields[.connection] = "close" }
        return Response(
            status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }

    /// `a=1&b=%E3%81%82` as items, percent-decoded; `+` is kept as `+` (clients encode it as `%2B`).
    package static func parseQuery(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            return (name, value)
        }
    }
}

/// A request context that keeps the connection: its peer's address, and the close of an oversized body.
package struct SearchRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

extension SearchService {
    /// The HTTP/1 server the service runs on: idle connections and slow request heads are cut
    /// after 10 seconds, heads bounded to 16 KB.
    package static let server = LocalHTTPServer.boundedHTTP1(idleTimeout: .seconds(10))

    /// Serves the service at `host:port` in this process until stopped (tests, the bench, the demo).
    /// - Parameter idleTimeout: how long a connection may send nothing before it is closed.
    /// - Returns: `nil` when the address could not be bound.
    package func start(host: String, port: Int, idleTimeout: Duration = .seconds(10)) async -> LocalHTTPServer? {
        await LocalHTTPServer.start(
            responder: SearchServiceResponder(service: self), host: host, port: port,
            server: LocalHTTPServer.boundedHTTP1(idleTimeout: idleTimeout),
            serverName: "spotlink-search", logLevel: .warning)
    }

    /// The service as a Hummingbird application, for a `ServiceGroup` that stops it gracefully on
    /// SIGTERM or SIGINT (answers in flight end; new connections are refused).
    package func application(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in })
        -> some ServiceLifecycle.Service
    {
        Application(
            responder: SearchServiceResponder(service: self), server: Self.server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "spotlink-search"),
            onServerRunning: onServerRunning, logger: logger)
    }
}

extension SearchService {
    /// Opens the database `configuration` names and makes the service: what the `spotlink-search`
    /// command runs. SQLite keeps the ledger and the service's tables in one file; with
    /// ``SearchServiceConfiguration/postgresURL`` PostgreSQL keeps both, migrated here, for
    /// instances on several machines.
    /// - Throws: ``SearchServiceConfigurationError`` for a PostgreSQL URL in a build without the
    ///   `PostgreSQL` trait; the database's error when it cannot be opened or migrated.
    package static func open(
        _ configuration: SearchServiceConfiguration, roots: [AppAttestRoot] = [.apple], logger: Logger
    ) async throws -> SearchService {
        let storage = try await Storage.open(configuration, logger: logger)
        return SearchService(
            configuration: configuration, store: storage.store, ledger: storage.ledger, roots: roots, logger: logger,
            companions: storage.companions)
    }

    /// Where an instance keeps its state and counts its requests, as its configuration says.
    package struct Storage: Sendable {
        package var store: any SearchServiceStore
        package var ledger: RequestLedger
        /// What must run while the service does (the PostgreSQL pool), stopped after it.
        package var companions: [any ServiceLifecycle.Service]

        /// SQLite's file (tables made) or PostgreSQL's database (migrated) for `configuration`.
        package static func open(_ configuration: SearchServiceConfiguration, logger: Logger) async throws -> Storage {
            let appKey = SpotifyAppKey(issuer: configuration.spotify.issuer, clientID: configuration.clientID)
            if let url = configuration.postgresURL {
                #if PostgreSQL
                    try await PostgresSchema.migrate(url, logger: logger)
                    let client = PostgresClient(
                        configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
                    return Storage(
                        store: PostgresSearchServiceStore(client: client, logger: logger),
                        ledger: RequestLedger(key: appKey, postgres: client, dailyBudget: configuration.dailyShare),
                        companions: [client])
                #else
                    _ = url
                    throw SearchServiceConfigurationError(
                        setting: "SPOTLINK_SEARCH_POSTGRES_URL",
                        message: "needs a spotlink-search built with PostgreSQL: swift build --traits PostgreSQL")
                #endif
            }
            let store = try SQLiteSearchServiceStore(url: configuration.database)
            return Storage(
                store: store,
                ledger: try RequestLedger(key: appKey, writer: store.writer, dailyBudget: configuration.dailyShare),
                companions: [])
        }
    }

    /// Runs until SIGTERM or SIGINT, then stops gracefully: the answers in flight are finished.
    /// Says at start where it listens, its share and whether the development key is taken.
    package func run(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        logger.info(
            "spotlink-search starting",
            metadata: [
                "address": "\(configuration.host):\(configuration.port)", "dailyShare": "\(configuration.dailyShare)",
                "store": "\(configuration.postgresURL == nil ? "SQLite \(configuration.database.path)" : "PostgreSQL")",
                "apps": "\(configuration.appIDs.map(\.description).joined(separator: ","))",
                "environments": "\(configuration.environments.map(\.rawValue).sorted().joined(separator: ","))",
            ])
        if configuration.allowDevelopmentKey {
            logger.warning(
                "the development key is ACCEPTED: any holder of it can search as a device. Never run so in production.")
        }
        let group = ServiceGroup(
            services: companions + [application(onServerRunning: onServerRunning)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [], logger: logger)
        try await group.run()
    }
}
