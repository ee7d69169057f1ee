import Foundation
import MallocInterposerSwift

/// The measuring loop of spotlink-bench's cost workers (`SpotLinkRequestCost`,
/// `SpotLinkSearchCost`): each prints one JSON line per kind of request, `p50` and `p99` in
/// microseconds and `allocations` per request, the allocations counted by malloc-interposer's
/// library, which the bench preloads.
package enum CostMeasure {
    /// Starts the allocation counter; call once, before the first ``measure(_:_:make:_:check:)``.
    package static func start() {
        MallocInterposerSwift.initialize()
    }

    /// After 50 warm-ups, runs `make` then `measured` `iterations` times: only `measured` is timed
    /// and has its allocations counted, and each of its results must pass `check`. Prints the line.
    package static func measure<Input, Output>(
        _ name: String, _ iterations: Int, make: () throws -> Input, _ measured: (Input) async throws -> Output,
        check: (Output) throws -> Void
    ) async throws {
        for _ in 0..<50 { try check(try await measured(try make())) }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        MallocInterposerSwift.reset()
        for _ in 0..<iterations {
            let input = try make()
            MallocInterposerSwift.hook()
            let start = ContinuousClock.now
            let output = try await measured(input)
            let elapsed = ContinuousClock.now - start
            MallocInterposerSwift.unhook()
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
            try check(output)
        }
        let allocations = Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(iterations)
        let line: [String: Any] = [
            "name": name, "p50": percentile(samples, 0.5), "p99": percentile(samples, 0.99),
            "allocations": (allocations * 10).rounded() / 10,
        ]
        FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: line) + Data("\n".utf8))
    }

    /// The value at `p` (0…1) of `values`, nearest rank.
    package static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}
