import CostMeasure
import Foundation
import HTTPTypes
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
@_spi(Transport) import SpotifyWebAPI

/// `SpotLinkRequestCost N`: the worker of spotlink-bench's request-cost group. It measures N
/// requests of each kind and prints one JSON line per kind: `p50` and `p99` in microseconds,
/// `allocations` per request. Run it with malloc-interposer's library preloaded
/// (`LD_PRELOAD=.build/release/libMallocInterposerSwift.so`); the bench does.
@main
enum SpotLinkRequestCost {
    static func main() async throws {
        let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
        try await run(iterations: iterations)
    }

    /// Measures `iterations` requests of each kind: through async-http-client to the emulator
    /// alone, through the instant transport alone, and through the client's whole path over the
    /// instant transport with an in-memory and with a SQLite ledger.
    static func run(iterations: Int) async throws {
        CostMeasure.start()
        let emulator = try await EmulatorServer.start(EmulatorConfiguration())
        defer { Task { await emulator.stop() } }
        let token = AccessToken(await emulator.issueAccessToken())
        let url = emulator.baseURL.appendingPathComponent("v1/me")
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields[.authorization] = "Bearer \(token.unredactedValue)"
        let real = AsyncHTTPClientTransport()
        let (response, body) = try await real.send(request, body: nil, timeout: .seconds(10), maxBodyBytes: 1 << 20)
        let instant = InstantTransport(response: response, body: body)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cost-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = SpotifyAppKey(issuer: "bench", clientID: "request-cost")
        func client(_ ledger: RequestLedger) -> SpotifyClient {
            SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: StaticAccessTokenProvider(token),
                transport: instant, ledger: ledger)
        }
        let memory = client(RequestLedger.inMemory())
        let sqlite = client(try RequestLedger(key: key, file: folder.appendingPathComponent("ledger.sqlite")))

        try await measure("transport_loopback", iterations) {
            _ = try await real.send(request, body: nil, timeout: .seconds(10), maxBodyBytes: 1 << 20)
        }
        try await measure("transport_instant", iterations) {
            _ = try await instant.send(request, body: nil, timeout: .seconds(10), maxBodyBytes: 1 << 20)
        }
        try await measure("path_memory_ledger", iterations) { _ = try await memory.currentUser() }
        try await measure("path_sqlite_ledger", iterations) { _ = try await sqlite.currentUser() }
    }

    /// Times each of `iterations` calls of `body` (after a warm-up) and counts their allocations;
    /// prints the JSON line.
    private static func measure(_ name: String, _ iterations: Int, _ body: () async throws -> Void) async throws {
        try await CostMeasure.measure(name, iterations, make: {}, { try await body() }, check: { _ in })
    }
}

/// A transport that answers every request at once with the same bytes, as no network can.
private struct InstantTransport: Transport {
    let response: HTTPResponse
    let body: Data

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws -> (
        HTTPResponse, Data
    ) {
        (response, self.body)
    }
}
