public import Foundation
import HTTPTypes
import Hummingbird
import LocalHTTPServer
import Logging
import NIOCore
import SpotifyLinkSupport
import Synchronization

/// A running emulator: a Hummingbird server on a loopback port over an ``EmulatorConfiguration``'s
/// world.
///
/// ```swift
/// let emulator = try await EmulatorServer.start(configuration)
/// defer { Task { await emulator.stop() } }
/// let client = SpotifyClient(configuration: .emulator(url: emulator.baseURL), ...)
/// ```
public final class EmulatorServer: Sendable {
    /// `http://HOST:PORT`, the accounts service and the Web API base (add `/v1`).
    public let baseURL: URL
    package let state: EmulatorState
    /// The token `/emulator/...` control requests carry as `Authorization: Bearer …` (covers under
    /// `/emulator/images/` need none).
    package var controlToken: String { state.controlToken }
    private let server: LocalHTTPServer
    private let stopping: StopSignal

    private init(baseURL: URL, state: EmulatorState, server: LocalHTTPServer, stopping: StopSignal) {
        self.baseURL = baseURL
        self.state = state
        self.server = server
        self.stopping = stopping
    }

    /// Binds `configuration.host:configuration.port` (port 0 = any free port) and serves until ``stop()``.
    public static func start(_ configuration: EmulatorConfiguration = .init()) async throws -> EmulatorServer {
        // A generated catalog is built once per process, off the caller's thread (`Catalog.shared`).
        let catalog =
            configuration.catalogFile == nil
            ? await Catalog.shared(seed: configuration.seed, extraLibraryPlaylists: configuration.extraLibraryPlaylists)
            : nil
        return try await start(configuration, state: EmulatorState(configuration: configuration, catalog: catalog))
    }

    /// Starts again on the same address after ``stop()``, with the same accounts, catalog and
    /// player: as when the live service comes back after an outage.
    public func restarted() async throws -> EmulatorServer {
        var configuration = state.configuration
        configuration.host = baseURL.host ?? configuration.host
        configuration.port = baseURL.port ?? configuration.port
        return try await Self.start(configuration, state: state)
    }

    private static func start(_ configuration: EmulatorConfiguration, state: EmulatorState) async throws
        -> EmulatorServer
    {
        let stopping = StopSignal()
        guard
            let server = await LocalHTTPServer.start(
                responder: EmulatorResponder(state: state, stopping: stopping), host: configuration.host,
                port: configuration.port,
                // Request heads are bounded: a 10 MB query is refused and its connection closed.
                server: LocalHTTPServer.boundedHTTP1(
                    idleTimeout: configuration.connectionIdleTimeout, maxHeadBytes: 64 * 1024),
                serverName: "spotify-emulator", logLevel: .error)
        else {
            throw EmulatorError(
                code: .couldNotBind,
                message:
                    "The emulator could not listen on \(configuration.host):\(configuration.port). Pick another port, or 0 for any free one."
            )
        }
        let port = server.port
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let baseURL = URL(string: "http://\(host):\(port)")!
        await state.setBaseURL(baseURL.absoluteString)
        return EmulatorServer(baseURL: baseURL, state: state, server: server, stopping: stopping)
    }

    /// Stops accepting connections and waits until the server has shut down.
    public func stop() async {
        stopping.stop()
        await server.stop()
    }

    /// The emulator's clock now.
    public var now: Date { get async { await state.now } }

    /// Moves the emulator's clock forward (its clock, not the caller's).
    public func advanceClock(by duration: Duration) async { await state.advanceClock(by: duration.seconds) }

    /// Request counts as JSON: `{"total": N, "requests": {"GET /v1/me": {"200": 3}}}`.
    package func statisticsJSON() async -> Data { await state.statistics().data }

    /// Requests counted for a route such as `GET /v1/me/player/currently-playing`.
    public func requestCount(_ route: String, status: Int? = nil) async -> Int {
        await state.count(route, status: status)
    }

    /// Requests counted on every route starting with `prefix` (as `GET /v1/`), all statuses.
    public func totalRequests(prefix: String) async -> Int { await state.total(prefix: prefix) }

    /// Forgets the request counts.
    public func resetStatistics() async { await state.resetStatistics() }
}

/// The one error of the emulator: it could not start.
public struct EmulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, to match on: `catch EmulatorError.Code.couldNotBind`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package init(name: String) { self.name = name }
        /// The address could not be bound (the port is taken, or the host is not local).
        public static let couldNotBind = Code(name: "couldNotBind")

        /// The code's name, as its static property is spelled.
        public var description: String { name }

        /// Matches an ``EmulatorError`` of this code in `catch` and `case`.
        public static func ~= (code: Self, error: any Error) -> Bool { code.matches(error) }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people saying what to do.
    public var message: String

    init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The type, the code and the message.
    public var description: String { codedDescription }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}

extension EmulatorError: CodedError {}

extension EmulatorError.Code: ErrorCode {
    package typealias Failure = EmulatorError
}

/// Turns Hummingbird requests into ``EmulatorRequest``s and plays latency and delivery faults.
struct EmulatorResponder: HTTPResponder {
    typealias Context = EmulatorRequestContext
    let state: EmulatorState
    let stopping: StopSignal
    /// The largest request body read; a larger one is answered 413.
    static let maxBody = 64 * 1024
    /// How much of an oversized body is read and dropped before its connection is closed.
    static let maxDropped = 16 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        // The body is read here rather than by `collectBody(upTo:)`, which leaves nothing to read
        // the rest with: an oversized body is read on, bounded, and dropped, so that the connection
        // can be closed with nothing unread for the system to answer with a reset (which could
        // lose the 413).
        var chunks = request.body.makeAsyncIterator()
        var body = ByteBuffer()
        var dropped = 0
        while dropped < Self.maxDropped, let chunk = try await chunks.next() {
            if dropped == 0 && body.readableBytes + chunk.readableBytes <= Self.maxBody {
                body.writeImmutableBuffer(chunk)
            } else {
                dropped += chunk.readableBytes
            }
        }
        if dropped > 0 {
            // Live answers an oversized body with 413 and closes; a 500 (or a stalled sender)
            // would tell a client something else went wrong. Hummingbird keeps a connection open
            // whatever the answer says, so the emulator closes its input: Hummingbird writes the
            // answer and, finding no next request, closes the connection.
            context.channel.close(mode: .input, promise: nil)
            return Response(
                status: .contentTooLarge, headers: [.contentType: "application/json", .connection: "close"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: #"{"error":{"status":413,"message":"Request body too large"}}"#)))
        }
        let target = request.head.path ?? "/"
        let (path, query) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let emulated = EmulatorRequest(
            method: request.method.rawValue, path: path.removingPercentEncoding ?? path,
            query: EmulatorRequest.parseQuery(query), headers: headers, body: Data(body.readableBytesView))
        // The latency is the time an answer takes, the emulator's own work included, as a client
        // sees a server's: the request is handled when it arrives and answered when the latency has
        // passed. (Waiting first and working after made every answer take the latency plus the
        // emulator's time, which no client could beat and a fetch's floor does not count.)
        let latency = path.hasPrefix("/v1/") ? await state.currentLatency() : .zero
        let arrived = ContinuousClock.now
        let response = await state.respond(to: emulated).rendered()
        let remaining = latency - (ContinuousClock.now - arrived)
        if remaining > .zero { try await stopping.wait(remaining) }
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        let bytes = response.body
        switch response.delivery {
        case .normal:
            return Response(
                status: .init(code: response.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes))
            )
        case .truncated:
            return Response(
                status: .init(code: response.status), headers: fields,
                body: ResponseBody(contentLength: bytes.count) { writer in
                    try await writer.write(ByteBuffer(bytes: bytes.prefix(bytes.count / 2)))
                    throw EmulatedFault.truncated
                })
        case .reset:
            // Close the connection without a response, as a reset by a proxy would.
            context.channel.close(mode: .all, promise: nil)
            throw EmulatedFault.reset
        }
    }
}

/// Told once, when the server stops: answers still waiting out their latency end at once, so
/// stopping is not held for the rest of a long latency by requests nobody will read.
final class StopSignal: Sendable {
    private let state = Lock<(stopped: Bool, waiters: [UUID: AsyncStream<Void>.Continuation])>((false, [:]))

    func stop() {
        let waiters = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        waiters.forEach { $0.finish() }
    }

    /// Waits `latency`, or throws `EmulatedFault.stopping` when the server stops first.
    func wait(_ latency: Duration) async throws {
        let id = UUID()
        let (stopped, continuation) = AsyncStream.makeStream(of: Void.self)
        let already = state.withLock { state in
            if !state.stopped { state.waiters[id] = continuation }
            return state.stopped
        }
        if already { throw EmulatedFault.stopping }
        defer { state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await Task.sleep(for: latency)
                return true
            }
            group.addTask {
                for await _ in stopped {}
                return false
            }
            defer { group.cancelAll() }
            guard try await group.next() == true else { throw EmulatedFault.stopping }
        }
    }
}

enum EmulatedFault: Error { case truncated, reset, stopping }

/// A request context that keeps the connection, so a fault can close it without answering.
struct EmulatorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

extension EmulatorServer {
    /// The scopes SpotifyLink asks for.
    public static let allScopes = [
        "playlist-read-private", "playlist-read-collaborative", "user-read-currently-playing",
        "user-read-playback-state",
    ]

    /// The scopes a learning app adds: saved tracks and top items.
    public static let learningScopes = ["user-library-read", "user-top-read"]

    /// Issues an access token for the signed-in user without the browser flow: a shortcut for tests
    /// that are not about sign-in.
    public func issueAccessToken(clientID: String = "spotlink-demo", scopes: [String] = EmulatorServer.allScopes) async
        -> String
    {
        await state.issueTestToken(clientID: clientID, scopes: scopes)
    }

    /// Sends a control request (`/emulator/...`) in process, e.g. `control("player/play", ["context_uri": uri])`.
    @discardableResult
    public func control(_ path: String, _ parameters: [String: String] = [:], method: String = "POST") async -> Int {
        let request = EmulatorRequest(
            method: method, path: "/emulator/" + path,
            query: parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            headers: ["authorization": "Bearer " + state.controlToken], body: Data())
        return await state.handle(request).status
    }

    /// The IDs and names of the catalog's playlists, in catalog order.
    public func playlists() async -> [(id: String, name: String, entries: Int)] {
        await state.playlistSummaries()
    }
}

extension EmulatorState {
    func issueTestToken(clientID: String, scopes: [String]) -> String {
        let access = random.token("EMU_AT_")
        accessTokens[access] = AccessRecord(
            clientID: clientID, userID: catalog.userID, scopes: Set(scopes),
            expiresAt: now.addingTimeInterval(configuration.accessTokenTTL.seconds), family: nil)
        return access
    }

    func playlistSummaries() -> [(id: String, name: String, entries: Int)] {
        catalog.allOrder.compactMap { catalog.playlists[$0] }.map { ($0.id, $0.name, $0.entries.count) }
    }
}
