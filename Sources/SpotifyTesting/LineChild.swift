import Foundation
import SpotifyLinkSupport
import Synchronization

/// A child process that speaks in lines: the test reads what it prints and writes what it waits
/// for. Its pipe is read on a thread of its own, never on the cooperative pool.
package final class LineChild: Sendable {
    /// What ``waitFor(_:)`` throws when the child never printed the line: what it waited for, and
    /// what the child printed instead.
    package struct NeverPrinted: Error, CustomStringConvertible {
        package let description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines = Lock<[String]>([])
    private let name: String

    /// Starts the package's built executable `executable` with `arguments`.
    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        name = executable
        process.executableURL = builtExecutable(named: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let handle = output.fileHandleForReading
        Thread { [self] in
            var buffer = Data()
            while case let chunk = handle.availableData, !chunk.isEmpty {
                buffer.append(chunk)
                while let end = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self)
                    lines.withLock { $0.append(line) }
                    buffer.removeSubrange(...end)
                }
            }
            try? handle.close()  // the Process keeps its pipes: closed here, not at its deallocation
        }.start()
    }

    /// Every line it printed so far.
    package var printed: [String] { lines.withLock { $0 } }

    /// Waits (real time: a process's start-up, never a timing rule) until it printed `line`;
    /// throws ``NeverPrinted`` after a minute, or at once when it printed a line starting with
    /// "failed" or ended without printing `line`.
    package func waitFor(_ line: String) async throws {
        for _ in 0..<6_000 {
            if printed.contains(line) { return }
            if printed.contains(where: { $0.hasPrefix("failed") }) || !process.isRunning && !printed.contains(line) {
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw NeverPrinted(description: "\(name) never printed \(line); it printed \(printed)")
    }

    /// Waits as ``waitFor(_:)`` does for a line starting with `prefix`, and returns it.
    package func waitFor(prefix: String) async throws -> String {
        for _ in 0..<6_000 {
            if let line = printed.first(where: { $0.hasPrefix(prefix) }) { return line }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw NeverPrinted(description: "\(name) never printed a line starting \(prefix); it printed \(printed)")
    }

    /// Sends it SIGTERM, as a service manager stopping it does.
    package func terminate() { process.terminate() }

    /// Writes `line` to its standard input.
    package func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Its exit status, once it ended; after a minute still running, it is killed and
    /// ``NeverPrinted`` says so, with what it printed.
    package func exitStatus() async throws -> Int32 {
        for _ in 0..<6_000 where process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        try? input.fileHandleForWriting.close()
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            throw NeverPrinted(description: "\(name) did not exit within a minute (killed); it printed \(printed)")
        }
        return process.terminationStatus
    }

    /// Kills it if it still runs: for a test's way out on failure, so no child outlives its test.
    package func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
