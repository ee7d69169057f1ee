package import Foundation
import SpotifyLinkSupport
import Synchronization

/// A program run as a real process, waited for without holding a thread of the cooperative pool.
///
/// `Process.waitUntilExit()` and `FileHandle.readDataToEndOfFile()` block the thread they run on.
/// In an async test that thread belongs to Swift's cooperative pool, which has one thread per
/// core: two tests blocked on children for twenty seconds on a two-core machine leave no thread
/// to start anything else, and every wall-clock wait in the run gives up. Here the child's end
/// arrives through `terminationHandler` and its pipes are read on threads of their own.
package struct ChildProcess: Sendable {
    /// How the child ended and what it wrote.
    package struct Result: Sendable {
        /// The exit status, or the signal's number when `reason` is `.uncaughtSignal`.
        package var status: Int32
        /// Whether it exited or was killed by a signal.
        package var reason: Process.TerminationReason
        /// Everything written to standard output.
        package var stdout: Data
        /// Everything written to standard error.
        package var stderr: Data

        /// Standard output as UTF-8 text.
        package var output: String { String(decoding: stdout, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        package var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// The program to run.
    package var executable: URL
    /// Its arguments.
    package var arguments: [String]
    /// Its environment; `nil` inherits this process's.
    package var environment: [String: String]?
    /// Whether standard error goes to the same pipe as standard output (and `stderr` stays empty).
    package var mergeErrors = false
    /// How long the child may run: past it, it is killed and ``run()`` throws ``TimedOut``, which
    /// names the command and what it wrote, so a child that hangs fails its test instead of
    /// holding the whole run.
    package var deadline: Duration = .seconds(600)

    /// A child that ran past its ``deadline`` and was killed.
    package struct TimedOut: Error, CustomStringConvertible {
        /// The command and its arguments.
        package var command: String
        /// The deadline it ran past.
        package var deadline: Duration
        /// What it wrote before it was killed.
        package var output: String
        package var description: String {
            "\(command) was still running after \(deadline) and was killed; it wrote: \(output.suffix(2000))"
        }
    }

    /// A child running `executable` with `arguments`.
    package init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// Starts the child, reads both pipes to their end and returns once it has exited.
    package func run() async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = mergeErrors ? out : Pipe()
        process.standardOutput = out
        process.standardError = err
        async let stdout = Self.readToEnd(out.fileHandleForReading)
        async let stderr = mergeErrors ? Data() : Self.readToEnd(err.fileHandleForReading)
        let killed = Lock(false)
        let deadline = deadline
        // A wall-clock deadline, on purpose: it bounds a real process, never the logic under test.
        let watchdog = Task.detached {
            try await Task.sleep(for: deadline)
            killed.withLock { $0 = true }
            kill(process.processIdentifier, SIGKILL)
        }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in continuation.resume() }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
        } catch {
            watchdog.cancel()
            // The child never started, so nothing else holds the write ends: close them so the
            // readers see the end.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            _ = await (stdout, stderr)
            throw error
        }
        watchdog.cancel()
        let result = Result(
            status: process.terminationStatus, reason: process.terminationReason, stdout: await stdout,
            stderr: await stderr)
        if killed.withLock({ $0 }) {
            throw TimedOut(
                command: ([executable.lastPathComponent] + arguments).joined(separator: " "), deadline: deadline,
                output: result.output + result.errors)
        }
        return result
    }

    /// Reads `handle` to its end on a thread of its own, handing each chunk to `chunk` as it
    /// arrives, then closes it.
    ///
    /// Closed here, not left to the pipe's deallocation: a `Process` whose end came through its
    /// `terminationHandler` keeps its pipes, so every child run that way kept its read end open
    /// (seen on Linux: one descriptor per child, 647 of them midway through a ThreadSanitizer run,
    /// where the connections of later tests failed).
    package static func readToEnd(_ handle: FileHandle, _ chunk: @escaping @Sendable (Data) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                while case let data = handle.availableData, !data.isEmpty { chunk(data) }
                try? handle.close()
                continuation.resume()
            }.start()
        }
    }

    /// Reads `handle` to its end on a thread of its own, then closes it.
    package static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
            Thread {
                let data = handle.readDataToEndOfFile()
                try? handle.close()
                continuation.resume(returning: data)
            }.start()
        }
    }
}
