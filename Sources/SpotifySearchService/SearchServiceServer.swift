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
import SpotifyWebAPI
import UnixSignals

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
    /// Opens the database `configuration` names (the ledger and the service's tables in one file)
    /// and makes the service: what the `spotlink-search` command runs.
    package static func open(
        _ configuration: SearchServiceConfiguration, roots: [AppAttestRoot] = [.apple], logger: Logger
    ) throws -> SearchService {
        let store = try SearchServiceStore(url: configuration.database)
        let ledger = try RequestLedger(
            key: SpotifyAppKey(issuer: configuration.spotify.issuer, clientID: configuration.clientID),
            writer: store.writer, dailyBudget: configuration.dailyShare)
        return SearchService(configuration: configuration, store: store, ledger: ledger, roots: roots, logger: logger)
    }

    /// Runs until SIGTERM or SIGINT, then stops gracefully: the answers in flight are finished.
    /// Says at start where it listens, its share and whether the development key is taken.
    package func run(onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }) async throws {
        logger.info(
            "spotlink-search starting",
            metadata: [
                "address": "\(configuration.host):\(configuration.port)", "dailyShare": "\(configuration.dailyShare)",
                "apps": "\(configuration.appIDs.map(\.description).joined(separator: ","))",
                "environments": "\(configuration.environments.map(\.rawValue).sorted().joined(separator: ","))",
            ])
        if configuration.allowDevelopmentKey {
            logger.warning(
                "the development key is ACCEPTED: any holder of it can search as a device. Never run so in production.")
        }
        let group = ServiceGroup(
            services: [application(onServerRunning: onServerRunning)], gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [], logger: logger)
        try await group.run()
    }
}
