import Foundation

/// What one request costs on its way through the client (coalescing, admission and the ledger,
/// the token, the stages, the decode), measured over a transport that answers at once, beside the
/// same request through a real transport alone (async-http-client over loopback).
///
/// The measuring runs in a worker process of its own (`SpotLinkRequestCost`, built beside this
/// binary) with the allocation counter preloaded (`LD_PRELOAD` of malloc-interposer's library), so
/// every allocation of that process is counted; the bench reports what it printed. The bench
/// itself links no interposer: its memory and speed figures stay those of the plain allocator.
extension Metrics {
    static func requestCost(_ report: Report, quick: Bool) async throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = folder.appendingPathComponent("SpotLinkRequestCost")
        let library = folder.appendingPathComponent("libMallocInterposerSwift.so")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            for name in ["request_transport_loopback_p50", "request_path_memory_ledger_p50", "request_path_overhead"] {
                report.metric(
                    name, 0, name.hasSuffix("overhead") ? "ratio" : "µs", floor: nil, target: .contrast(),
                    extra: [
                        "skipped":
                            "SpotLinkRequestCost is not built beside spotlink-bench (swift build --product SpotLinkRequestCost)"
                    ])
            }
            return
        }
        let counted = FileManager.default.fileExists(atPath: library.path)
        let (status, rows) = try runCostWorker(
            binary, iterations: quick ? 500 : 3000, preloading: counted ? library : nil)
        guard status == 0, let memory = rows["path_memory_ledger"],
            let sqlite = rows["path_sqlite_ledger"], let instant = rows["transport_instant"],
            let loopback = rows["transport_loopback"]
        else {
            throw BenchFailure("the request-cost worker failed (status \(status))")
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
}

extension Metrics {
    /// Runs a cost worker built beside the bench (`SpotLinkRequestCost`, `SpotLinkSearchCost`) for
    /// `iterations`, with malloc-interposer's `library` preloaded when given, and reads the JSON
    /// line it prints for each kind: its exit status, and each kind's figures by name.
    static func runCostWorker(_ binary: URL, iterations: Int, preloading library: URL?) throws
        -> (status: Int32, rows: [String: [String: Double]])
    {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["\(iterations)"]
        var environment = ProcessInfo.processInfo.environment
        if let library { environment["LD_PRELOAD"] = library.path }
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
        return (process.terminationStatus, rows)
    }
}
