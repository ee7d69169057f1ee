import AppAttest
import Crypto
import Foundation
import HTTPTypes
import LocalHTTPServer
import Logging
import ServiceLifecycle
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkSQLite
import SpotifySearchService
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Testing

/// An emulator, the search service in front of it on a loopback port, and a virtual clock both
/// read: what every test of the service runs against.
struct SearchServiceWorld: Sendable {
    let emulator: EmulatorServer
    let service: SearchService
    let baseURL: URL
    let clock: VirtualClock
    let http = TestHTTP()
    static let secret = "SENTINEL_SECRET_search-service"
    static let developmentKey = Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()

    /// A request as a device sends it, with what it answered.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    func send(
        _ method: HTTPRequest.Method, _ pathAndQuery: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Answer {
        var request = HTTPRequest(method: method, url: URL(string: baseURL.absoluteString + pathAndQuery)!)
        for (name, value) in headers { request.headerFields[HTTPField.Name(name)!] = value }
        if body != nil { request.headerFields[.contentType] = "application/json" }
        let (response, data) = try await PatientTransport().send(
            request, body: body, timeout: TestHTTP.timeout, maxBodyBytes: 1 << 20)
        var fields: [String: String] = [:]
        for field in response.headerFields { fields[field.name.canonicalName] = field.value }
        return Answer(status: response.status.code, headers: fields, body: data)
    }

    /// A fresh challenge from `POST /v1/attest/challenge`.
    func challenge() async throws -> String {
        let answer = try await send(.post, "/v1/attest/challenge")
        try #require(
            answer.status == 200, "challenge: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        return try #require(answer.json["challenge"] as? String)
    }

    /// Attests `device`'s key (with `spec` changed as given) and returns the answer.
    func attest(_ device: TestAttester, _ change: (inout TestAttester.Attestation) -> Void = { _ in }) async throws
        -> Answer
    {
        let challenge = try await challenge()
        var spec = TestAttester.Attestation()
        spec.challenge = Array(challenge.utf8)
        change(&spec)
        let object: [String: String] = [
            "keyID": Data(device.keyID).base64EncodedString(),
            "attestation": Data(try device.attestation(spec)).base64EncodedString(), "challenge": challenge,
        ]
        return try await send(.post, "/v1/attest", body: try JSONSerialization.data(withJSONObject: object))
    }
}

/// A device of the learning app as the tests drive it: attested once, then signing each request
/// with the challenge the last answer gave and a counter that only goes up.
final class TestDevice: @unchecked Sendable {
    let attester = TestAttester()
    var counter: UInt32 = 0
    var challenge: String?
    /// The instance the device sends to: a load balancer may pick another for each request.
    var world: SearchServiceWorld

    init(_ world: SearchServiceWorld) { self.world = world }

    func attest() async throws {
        let answer = try await world.attest(attester)
        try #require(answer.status == 201, "attest: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        challenge = answer.headers["spotifylink-next-challenge"]
    }

    /// The headers that sign `GET path?query`, counting up (or as told).
    func signature(
        _ path: String, _ query: [(name: String, value: String)], counter explicit: UInt32? = nil,
        challenge given: String? = nil, clientData change: ((inout [UInt8]) -> Void)? = nil
    ) async throws -> [String: String] {
        let challenge: String
        if let given {
            challenge = given
        } else if let kept = self.challenge {
            challenge = kept
        } else {
            challenge = try await world.challenge()
        }
        self.challenge = nil
        var data = SearchServiceSignature.clientData(method: "GET", path: path, query: query, challenge: challenge)
        change?(&data)
        if let explicit { counter = explicit } else { counter += 1 }
        return [
            "SpotifyLink-Key-ID": Data(attester.keyID).base64EncodedString(),
            "SpotifyLink-Assertion": Data(try attester.assertion(data, counter: counter)).base64EncodedString(),
            "SpotifyLink-Challenge": challenge,
        ]
    }

    /// A signed `GET /v1/search`.
    func search(_ text: String, limit: Int = 10) async throws -> SearchServiceWorld.Answer {
        let query = [(name: "q", value: text), (name: "limit", value: "\(limit)")]
        let headers = try await signature("/v1/search", query)
        let answer = try await world.send(.get, "/v1/search?" + Self.encode(query), headers: headers)
        challenge = answer.headers["spotifylink-next-challenge"]
        return answer
    }

    static func encode(_ query: [(name: String, value: String)]) -> String {
        query.map {
            "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        }.joined(separator: "&")
    }
}

/// Where a test's service keeps its state: the SQLite file beside it, or a PostgreSQL database
/// (its URL), each instance with a pool of its own as separate processes would have.
enum TestServiceStorage {
    case sqlite
    case postgres(url: String)
}

/// Runs `body` against an emulator and a search service with the test App Attestation root.
func withSearchService<T>(
    _ change: (inout SearchServiceConfiguration) -> Void = { _ in },
    emulator emulatorChange: (inout EmulatorConfiguration) -> Void = { _ in },
    logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
    transport: any Transport = PatientTransport(), idleTimeout: Duration = .seconds(10),
    _ body: (SearchServiceWorld) async throws -> T
) async throws -> T {
    try await withSearchServices(
        1, storage: .sqlite, change, emulator: emulatorChange, logger: logger, transport: transport,
        idleTimeout: idleTimeout
    ) { worlds in try await body(worlds[0]) }
}

/// Runs `body` against one emulator and `count` instances of the search service in front of it,
/// sharing `storage` and one virtual clock: what several servers behind a load balancer are.
func withSearchServices<T>(
    _ count: Int, storage: TestServiceStorage,
    _ change: (inout SearchServiceConfiguration) -> Void = { _ in },
    emulator emulatorChange: (inout EmulatorConfiguration) -> Void = { _ in },
    logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
    transport: any Transport = PatientTransport(), idleTimeout: Duration = .seconds(10),
    _ body: ([SearchServiceWorld]) async throws -> T
) async throws -> T {
    let clock = VirtualClock(now: TestAttester.issued.addingTimeInterval(86_400), mode: .automatic)
    var emulatorConfiguration = EmulatorConfiguration()
    emulatorConfiguration.clients.append(
        .init(id: "search-service", redirectURIs: [], secret: SearchServiceWorld.secret))
    emulatorConfiguration.accessTokenTTL = .seconds(3600)
    emulatorChange(&emulatorConfiguration)
    return try await withEmulator(emulatorConfiguration) { emulator in
        let folder = temporaryFile("search-service")
        var configuration = SearchServiceConfiguration(
            clientID: "search-service", clientSecret: ClientSecret(SearchServiceWorld.secret),
            database: folder.appendingPathComponent("search.sqlite"), appIDs: [TestAttester.appID])
        configuration.spotify = .emulator(url: emulator.baseURL)
        configuration.market = "JP"
        configuration.developmentKey = DevelopmentKey(base64: SearchServiceWorld.developmentKey)
        if case .postgres(let url) = storage { configuration.postgresURL = url }
        change(&configuration)
        var worlds: [SearchServiceWorld] = []
        var servers: [LocalHTTPServer] = []
        defer { for server in servers { Task { await server.stop() } } }
        for _ in 0..<count {
            // What `spotlink-search` opens; a pool of its own for each instance, run for the process.
            let storage = try await SearchService.Storage.open(configuration, logger: logger)
            for companion in storage.companions { Task.detached { try await companion.run() } }
            let service = SearchService(
                configuration: configuration, store: storage.store, ledger: storage.ledger,
                roots: [AppAttestRoot(TestAttester.root)], transport: transport, clock: clock, logger: logger)
            let server = try #require(
                await service.start(host: "127.0.0.1", port: 0, idleTimeout: idleTimeout), "the service did not bind")
            servers.append(server)
            worlds.append(
                SearchServiceWorld(
                    emulator: emulator, service: service, baseURL: URL(string: "http://127.0.0.1:\(server.port)")!,
                    clock: clock))
        }
        do {
            let result = try await body(worlds)
            for server in servers { await server.stop() }
            servers = []
            return result
        } catch {
            for server in servers { await server.stop() }
            servers = []
            throw error
        }
    }
}

/// Every line logged at `level` or above, with its metadata.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var all: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }

    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "search-test", factory: { _ in Handler(lines: self) })
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let lines: LogLines
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.append("\(event.level) \(event.message) \(event.metadata ?? [:])") }
    }
}
