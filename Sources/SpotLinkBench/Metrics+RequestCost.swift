import Foundation
import HTTPTypes
import MallocInterposerSwift
import PlaylistLinksSQLite
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI

/// What one request costs on its way through the client (coalescing, admission and the ledger,
/// the token, the stages, the decode), measured over a transport that answers at once, beside the
/// same request through a real transport alone (async-http-client over loopback).
///
/// The measuring runs in a worker process (this binary with `--request-cost-worker`) with the
/// allocation counter preloaded (`LD_PRELOAD` of malloc-interposer's library, built beside this
/// binary), so every allocation of the process is counted; the parent reports what it printed.
extension Metrics {
    static func requestCost(_ report: Report, quick: Bool) async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0])
        let library = binary.deletingLastPathComponent().appendingPathComponent("libMallocInterposerSwift.so")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--request-cost-worker", quick ? "500" : "3000"]
        var environment = ProcessInfo.processInfo.environment
        let counted = FileManager.default.fileExists(atPath: library.path)
        if counted { environment["LD_PRELOAD"] = library.path }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var rows: [String: [String: Double]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["name"] as? String
            else { continue }
            rows[name] = object.compactMapValues { $0 as? Double }
        }
        guard process.terminationStatus == 0, let memory = rows["path_memory_ledger"],
            let sqlite = rows["path_sqlite_ledger"], let instant = rows["transport_instant"],
            let loopback = rows["transport_loopback"]
        else {
            throw BenchFailure("the request-cost worker failed (status \(process.terminationStatus))")
        }
        func extra(_ row: [String: Double]) -> [String: Any] {
            var extra: [String: Any] = ["p99_us": row["p99", default: 0]]
            if counted, let allocations = row["allocations"] { extra["allocations_per_request"] = allocations }
            if !counted { extra["allocations"] = "not counted: libMallocInterposerSwift.so is not beside the binary" }
            return extra
        }
        report.metric(
            "request_transport_loopback_p50", loopback["p50", default: 0], "µs", floor: nil, target: .contrast(),
            extra: extra(loopback).merging(["note": "async-http-client to the emulator on 127.0.0.1, GET /me"]) { $1 })
        report.metric(
            "request_path_memory_ledger_p50", memory["p50", default: 0], "µs", floor: nil, target: .contrast(),
            extra: extra(memory).merging(["note": "the whole client path over a transport that answers at once"]) {
                $1
            })
        report.metric(
            "request_path_sqlite_ledger_p50", sqlite["p50", default: 0], "µs", floor: nil, target: .contrast(),
            extra: extra(sqlite).merging(["note": "the same with the app's SQLite ledger (WAL, one file)"]) { $1 })
        // What the path adds, beyond the instant transport itself, as a share of the real one.
        let added = max(0, memory["p50", default: 0] - instant["p50", default: 0])
        report.metric(
            "request_path_overhead", added / max(loopback["p50", default: 1], 0.001), "ratio", floor: nil,
            target: .machine(.atMost(0.25), "of the transport alone: the path adds at most 25 %"),
            extra: [
                "path_us": memory["p50", default: 0], "transport_us": loopback["p50", default: 0],
                "sqlite_added_ratio": max(0, sqlite["p50", default: 0] - instant["p50", default: 0])
                    / max(loopback["p50", default: 1], 0.001),
            ])
    }

    /// `spotlink-bench --request-cost-worker N`: measures N requests of each kind and prints one
    /// JSON line per kind: `p50` and `p99` in microseconds, `allocations` per request.
    static func requestCostWorker(iterations: Int) async throws {
        MallocInterposerSwift.initialize()
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

    /// Times each of `iterations` calls of `body` (after a warm-up) and counts the allocations of
    /// all of them; prints the JSON line.
    private static func measure(_ name: String, _ iterations: Int, _ body: () async throws -> Void) async throws {
        for _ in 0..<50 { try await body() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            try await body()
            samples.append((ContinuousClock.now - start).seconds * 1_000_000)
        }
        MallocInterposerSwift.unhook()
        let allocations = Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(iterations)
        let line: [String: Any] = [
            "name": name, "p50": percentile(samples, 0.5), "p99": percentile(samples, 0.99),
            "allocations": (allocations * 10).rounded() / 10,
        ]
        let data = try JSONSerialization.data(withJSONObject: line)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
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
