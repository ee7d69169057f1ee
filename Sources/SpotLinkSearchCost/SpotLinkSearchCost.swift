import AppAttest
import CostMeasure
import Foundation
import HTTPTypes
import Logging
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifySearchService
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Synchronization

/// `SpotLinkSearchCost N`: the worker of spotlink-bench's search-service group for what one
/// request costs the service itself. It answers N requests of each kind through
/// `SearchService.respond(to:)` (no socket: the service's own work) and prints one JSON line per
/// kind: `p50` and `p99` in microseconds and `allocations` per request, counted only while the
/// service answers (the device's signing is not counted). Spotify's answers are recorded once from
/// the emulator and replayed at once. Run it with malloc-interposer's library preloaded; the bench does.
@main
enum SpotLinkSearchCost {
    static func main() async throws {
        let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 1000
        try await run(iterations: iterations)
    }

    static func run(iterations: Int) async throws {
        CostMeasure.start()
        var emulatorConfiguration = EmulatorConfiguration()
        emulatorConfiguration.clients.append(.init(id: "search-cost", redirectURIs: [], secret: "cost-secret"))
        let emulator = try await EmulatorServer.start(emulatorConfiguration)
        defer { Task { await emulator.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("search-cost-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        var configuration = SearchServiceConfiguration(
            clientID: "search-cost", clientSecret: ClientSecret("cost-secret"),
            database: folder.appendingPathComponent("search.sqlite"), appIDs: [TestAttester.appID])
        configuration.spotify = .emulator(url: emulator.baseURL)
        configuration.dailyShare = 1_000_000
        configuration.deviceLimit = 10_000
        configuration.addressLimit = 1_000_000
        let storage = try await SearchService.Storage.open(
            configuration, logger: Logger(label: "cost", factory: { _ in SwiftLogNoOpLogHandler() }))
        let service = SearchService(
            configuration: configuration, store: storage.store, ledger: storage.ledger,
            roots: [AppAttestRoot(TestAttester.root)], transport: ReplayTransport(platformDefaultTransport()),
            clock: AttestationTimeClock(), logger: Logger(label: "cost", factory: { _ in SwiftLogNoOpLogHandler() }))

        // The device attests once.
        let device = TestAttester()
        let first = try await challenge(service)
        var spec = TestAttester.Attestation()
        spec.challenge = Array(first.utf8)
        let attestation = try JSONSerialization.data(withJSONObject: [
            "keyID": Data(device.keyID).base64EncodedString(),
            "attestation": Data(try device.attestation(spec)).base64EncodedString(), "challenge": first,
        ])
        let attested = await service.respond(
            to: ServiceRequest(method: "POST", path: "/v1/attest", body: Array(attestation), address: "10.0.0.1"))
        guard attested.status == 201, var next = header(attested, "SpotifyLink-Next-Challenge") else {
            throw Failure("the device was not attested (\(attested.status))")
        }
        var counter: UInt32 = 0

        /// A search signed by the device, for `text`, with the challenge the last answer gave.
        func signed(_ text: String) throws -> ServiceRequest {
            counter += 1
            let query = [(name: "q", value: text)]
            let data = SearchServiceSignature.clientData(
                method: "GET", path: "/v1/search", query: query, challenge: next)
            return ServiceRequest(
                method: "GET", path: "/v1/search", query: query,
                headers: [
                    "spotifylink-key-id": Data(device.keyID).base64EncodedString(),
                    "spotifylink-assertion": Data(try device.assertion(data, counter: counter)).base64EncodedString(),
                    "spotifylink-challenge": next,
                ], address: "10.0.0.1")
        }

        // A new text each time: signature, challenge, counter, limits, the ledger, the client.
        var index = 0
        try await measure("search_to_spotify", iterations, service) {
            index += 1
            return try signed("さくら \(index)")
        } check: { answer in
            next = header(answer, "SpotifyLink-Next-Challenge") ?? next
            return answer.status == 200
        }
        // The same text: the kept answer, no request to Spotify.
        try await measure("search_kept_answer", iterations, service) {
            try signed("さくら 1")
        } check: { answer in
            next = header(answer, "SpotifyLink-Next-Challenge") ?? next
            return answer.status == 200
        }
        // An unsigned request: what a flood costs before any crypto.
        try await measure("refused_unsigned", iterations, service) {
            ServiceRequest(method: "GET", path: "/v1/search", query: [("q", "a")], address: "10.0.0.2")
        } check: { answer in
            answer.status == 401
        }
        _ = storage
    }

    static func challenge(_ service: SearchService) async throws -> String {
        let answer = await service.respond(
            to: ServiceRequest(method: "POST", path: "/v1/attest/challenge", address: "10.0.0.1"))
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
            let value = object["challenge"] as? String
        else { throw Failure("no challenge (\(answer.status))") }
        return value
    }

    static func header(_ answer: ServiceResponse, _ name: String) -> String? {
        answer.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Answers `iterations` requests made by `make` (after a warm-up), timing and counting the
    /// allocations of the service's answers only; every answer must pass `check`.
    private static func measure(
        _ name: String, _ iterations: Int, _ service: SearchService, make: () throws -> ServiceRequest,
        check: (ServiceResponse) -> Bool
    ) async throws {
        try await CostMeasure.measure(name, iterations, make: make, { await service.respond(to: $0) }) { answer in
            guard check(answer) else { throw Failure("\(name): answered \(answer.status)") }
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Sends each distinct request once to the emulator and answers it again at once from then on,
/// as no network can: what is left is the service's own work.
final class ReplayTransport: Transport {
    let base: any Transport
    private let recorded = Lock<[String: (HTTPResponse, Data)]>([:])

    init(_ base: any Transport) { self.base = base }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws
        -> (HTTPResponse, Data)
    {
        // Every search answers with the first search's tracks: the path, not the text, is the key.
        let key = "\(request.method) \(request.path?.split(separator: "?").first ?? "")"
        if let answer = recorded.withLock({ $0[key] }) { return answer }
        let answer = try await base.send(request, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes)
        recorded.withLock { $0[key] = answer }
        return answer
    }
}
