import Dispatch
import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@Suite("The package's lock")
struct LockTests {
    @Test func contendedUpdatesAreNeverLost() {
        let counter = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
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
        @Test(.timeLimit(.minutes(2))) func threadSanitizerSeesEveryHandOverOfTheLock() throws {
            let raw = try runStress("mutex")
            #expect(raw.status == 66, "a raw Mutex under contention should be reported: \(raw.errors)")
            #expect(raw.errors.contains("WARNING: ThreadSanitizer:"))
            let lock = try runStress("lock")
            #expect(lock.status == 0, "the package's lock was reported: \(lock.errors)")
            #expect(!lock.errors.contains("WARNING: ThreadSanitizer:"))
            #expect(lock.output.contains("total 800000"))
        }

        private func runStress(_ mode: String) throws -> (status: Int32, output: String, errors: String) {
            let process = Process()
            process.executableURL = builtExecutable(named: "LockStressChild")
            process.arguments = [mode, "200000"]
            var environment = ProcessInfo.processInfo.environment
            environment["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
            process.environment = environment
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Read both pipes before waiting: a report larger than a pipe's buffer would block the child.
            let errorData = Lock(Data())
            let reader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
            reader.start()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            while reader.isExecuting || !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
            return (
                process.terminationStatus, String(decoding: outputData, as: UTF8.self),
                String(decoding: errorData.withLock { $0 }, as: UTF8.self)
            )
        }
    #endif
}
