import Dispatch
import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@Suite("The package's lock")
struct LockTests {
    @Test func contendedUpdatesAreNeverLost() async {
        let counter = Lock(0)
        // Off the concurrency pool: under ThreadSanitizer the contended updates take seconds, and
        // the pool's threads are the other tests'.
        await onThreadOfItsOwn(named: #function) {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func aThrowingBodyReleasesTheLock() {
        struct Refused: Error {}
        let lock = Lock([Int]())
        #expect(throws: Refused.self) { try lock.withLock { (_: inout [Int]) throws(Refused) in throw Refused() } }
        lock.withLock { $0.append(1) }
        #expect(lock.withLock { $0 } == [1])
    }

    #if SPOTLINK_TSAN
        /// ThreadSanitizer follows the package's lock under contention, and the same stress over a raw
        /// `Mutex` is reported: the control shows the stress reaches the contended path, so a clean
        /// run of the lock means its hand-over is seen, not that nothing was contended.
        @Test(.timeLimit(.minutes(2))) func threadSanitizerSeesEveryHandOverOfTheLock() async throws {
            let raw = try await runStress("mutex")
            #expect(raw.status == 66, "a raw Mutex under contention should be reported: \(raw.errors)")
            #expect(raw.errors.contains("WARNING: ThreadSanitizer:"))
            let lock = try await runStress("lock")
            #expect(lock.status == 0, "the package's lock was reported: \(lock.errors)")
            #expect(!lock.errors.contains("WARNING: ThreadSanitizer:"))
            #expect(lock.output.contains("total 800000"))
        }

        private func runStress(_ mode: String) async throws -> ChildProcess.Result {
            var environment = ProcessInfo.processInfo.environment
            environment["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
            return try await ChildProcess(
                builtExecutable(named: "LockStressChild"), [mode, "200000"], environment: environment
            ).run()
        }
    #endif
}
