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

        /// `command` ran past `deadline`, having written `output`.
        package init(command: String, deadline: Duration, output: String) {
            self.command = command
            self.deadline = deadline
            self.output = output
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
        let command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        let ended: Ended
        do {
            ended = try await Self.start(process, deadline: deadline)
        } catch {
            // The child never started, so nothing else holds the write ends: close them so the
            // readers see the end.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            _ = await (stdout, stderr)
            throw error
        }
        guard ended == .exited else {
            // Killed at the deadline: its pipes closed with it.
            throw TimedOut(command: command, deadline: deadline, output: String(decoding: await stdout, as: UTF8.self))
        }
        return Result(
            status: process.terminationStatus, reason: process.terminationReason, stdout: await stdout,
            stderr: await stderr)
    }

    /// How a child started by ``start(_:deadline:)`` ended.
    package enum Ended: Sendable, Equatable {
        /// It ended by itself (or by a signal the test sent).
        case exited
        /// It ran past the deadline and was killed; its end was then reported.
        case killed
        /// It ran past the deadline, was killed, and its end was still not reported five seconds
        /// later: the wait gives up rather than hold the run.
        case neverReported
    }

    /// Starts `process` and waits for its end through its `terminationHandler` (no thread of the
    /// cooperative pool blocked), for at most `deadline` of wall-clock time, which bounds a real
    /// process, never the logic under test. Past it the child is killed; should its end still not
    /// be reported, the wait ends anyway, so a child can never hold a test forever.
    /// - Throws: what `Process.run()` throws when the child cannot start.
    package static func start(_ process: Process, deadline: Duration) async throws -> Ended {
        let wait = ExitWait()
        defer { wait.cancelWatchdog() }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Ended, any Error>) in
            wait.begin(continuation)
            process.terminationHandler = { _ in wait.resume(.success(wait.wasKilled ? .killed : .exited)) }
            do { try process.run() } catch {
                wait.resume(.failure(error))
                return
            }
            let pid = process.processIdentifier
            wait.watch {
                guard (try? await Task.sleep(for: deadline)) != nil else { return }
                // Only a child whose end is not reported yet: never a process ID reused since.
                guard wait.killIfWaiting(pid), (try? await Task.sleep(for: .seconds(5))) != nil else { return }
                wait.resume(.success(.neverReported))
            }
        }
    }

    /// The wait for one child's end: resumed once, by its end or by the watchdog.
    private final class ExitWait: Sendable {
        private let continuation = Lock<CheckedContinuation<Ended, any Error>?>(nil)
        private let killed = Lock(false)
        private let watchdog = Lock<Task<Void, Never>?>(nil)

        var wasKilled: Bool { killed.withLock { $0 } }

        func begin(_ continuation: CheckedContinuation<Ended, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(_ result: Swift.Result<Ended, any Error>) {
            continuation.withLock { continuation in
                continuation?.resume(with: result)
                continuation = nil
            }
        }

        /// Kills `pid` when its end is not reported yet; whether it did.
        func killIfWaiting(_ pid: Int32) -> Bool {
            continuation.withLock { continuation in
                guard continuation != nil else { return false }
                killed.withLock { $0 = true }
                kill(pid, SIGKILL)
                return true
            }
        }

        func watch(_ body: @escaping @Sendable () async -> Void) {
            watchdog.withLock { $0 = Task.detached(operation: body) }
        }

        func cancelWatchdog() { watchdog.withLock { $0?.cancel() } }
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
