import Foundation

/// Caps how many children the tests start at once, process-wide.
///
/// Every test runs in parallel, and a suite of the command-line tool's tests starts one child per
/// command: unbounded, a ThreadSanitizer run had twenty instrumented `spotlink` children starting
/// at once on two cores. The emulators in the test process then got so little of the processor
/// that other tests' connections were closed or timed out (seen twice in CI: "could not connect",
/// "the connection was lost"). A child waits here for a slot; the work is the same, the peak is not.
///
/// Only for children that run to their end on their own: a test whose children wait for each
/// other could wait for a slot that one of them holds.
package actor ChildSlots {
    /// The slots every test shares: four, or one per core on a larger machine (two children of
    /// one test must still run at the same time beside another test's).
    package static let shared = ChildSlots(count: max(4, ProcessInfo.processInfo.activeProcessorCount))

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The most slots ever taken at once.
    package private(set) var peak = 0
    private let count: Int

    /// `count` slots, all free.
    package init(count: Int) {
        precondition(count > 0, "a child needs at least one slot")
        self.count = count
        free = count
    }

    /// Runs `body` once a slot is free, and frees it after, however `body` ends.
    package nonisolated func running<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        peak = max(peak, count - free)
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            // The slot passes to the longest waiter.
            waiting.removeFirst().resume()
        }
    }
}
