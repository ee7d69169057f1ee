import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

/// Stops a running child when a step the test takes beside it fails, and keeps that step's error.
final class ChildControl: Sendable {
    private let state = Lock<(process: Process?, failure: (any Error)?)>((nil, nil))

    /// The error of the step that failed, if one did.
    var failure: (any Error)? { state.withLock { $0.failure } }

    func attach(_ process: Process) { state.withLock { $0.process = process } }

    /// Keeps `error` and ends the child (it would otherwise wait for what the step never did).
    func fail(_ error: any Error) {
        let process = state.withLock { state in
            state.failure = state.failure ?? error
            return state.process
        }
        if process?.isRunning == true { process?.terminate() }
    }
}

/// Runs the built `spotlink` binary with a private HOME and XDG folders.
struct SpotLinkBinary {
    let home: URL
    /// Variables added to the child's otherwise minimal environment.
    var extraEnvironment: [String: String] = [:]
    /// The child's umask, as octal text (`"000"`), when the test sets one.
    var umask: String?
    /// The child's working directory, when the test sets one.
    var workingDirectory: URL?
    /// The user the child runs as (`runuser -u`), when the test (run as root) sets one.
    var user: String?
    /// Where the child's stdout goes in place of the test's pipe (`/dev/full`), when the test sets it.
    var stdoutPath: String?

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// `spotlink login --no-browser`, with the test acting as the browser on the printed URL.
    /// Tokens go to the file store unless `arguments` choose one: the child has no keyring. A visit
    /// that fails stops the child at once and is thrown, instead of the login waiting out its deadline.
    func login(_ arguments: [String], choosingStore: Bool = true) async throws -> Result {
        let store = arguments.contains("--store") || !choosingStore ? [] : ["--store", "file"]
        let child = ChildControl()
        let result = try await run(["login", "--no-browser"] + store + arguments, control: child) { line in
            guard let range = line.range(of: "Open this URL to sign in: ") else { return }
            let authorize = URL(string: String(line[range.upperBound...]))!
            Task {
                do { _ = try await ConsentBrowser().visit(authorize) } catch { child.fail(error) }
            }
        }
        if let failure = child.failure { throw failure }
        return result
    }

    var environment: [String: String] {
        // Under ThreadSanitizer the child is instrumented too: it keeps the run's options, so a
        // race in it halts it with its report on stderr, as in the test process.
        let sanitizer = ProcessInfo.processInfo.environment["TSAN_OPTIONS"].map { ["TSAN_OPTIONS": $0] } ?? [:]
        // The PostgreSQL stores' deadline that scripts/with-postgres.sh sets for a loaded machine,
        // and the transports' answer deadline and the commands' deadline that scripts/tsan.sh sets.
        let deadline = ProcessInfo.processInfo.environment.filter {
            ["SPOTLINK_POSTGRES_DEADLINE", "SPOTLINK_ANSWER_DEADLINE", "SPOTLINK_COMMAND_DEADLINE"].contains($0.key)
        }
        return [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
        ].merging(sanitizer) { $1 }.merging(deadline) { $1 }.merging(extraEnvironment) { $1 }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments`; `onStderrLine` sees stderr as it arrives (to act as the user's browser).
    /// The child waits for one of the run's shared slots (``ChildSlots``) before it starts.
    func run(
        _ arguments: [String], input: String? = nil, control: ChildControl? = nil,
        onStderrLine: (@Sendable (String) -> Void)? = nil
    ) async throws -> Result {
        try await ChildSlots.shared.running {
            try await runNow(arguments, input: input, control: control, onStderrLine: onStderrLine)
        }
    }

    private func runNow(
        _ arguments: [String], input: String?, control: ChildControl?, onStderrLine: (@Sendable (String) -> Void)?
    ) async throws -> Result {
        let process = Process()
        control?.attach(process)
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "umask \(umask); exec \"$0\" \"$@\"", builtExecutable(named: "spotlink").path] + arguments
        } else if let stdoutPath {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "exec \"$0\" \"$@\" > '\(stdoutPath)'", builtExecutable(named: "spotlink").path] + arguments
        } else if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user, "--", builtExecutable(named: "spotlink").path] + arguments
        } else {
            process.executableURL = builtExecutable(named: "spotlink")
            process.arguments = arguments
        }
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let input {
            let stdin = Pipe()
            process.standardInput = stdin
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        // Nothing here blocks a thread of the cooperative pool: an emulator in this process
        // needs those threads to answer the child. The pipes are read on threads of their own, not
        // through `readabilityHandler`: on Linux that is a dispatch source, and one still being
        // cancelled when its pipe closes crashed libdispatch's event loop (1 run in 3 under load).
        let outData = Lock(Data())
        let errText = Lock("")
        async let outRead: Void = ChildProcess.readToEnd(out.fileHandleForReading) { chunk in
            outData.withLock { $0.append(chunk) }
        }
        async let errRead: Void = ChildProcess.readToEnd(err.fileHandleForReading) { chunk in
            let text = String(decoding: chunk, as: UTF8.self)
            errText.withLock { $0 += text }
            for line in text.split(separator: "\n") { onStderrLine?(String(line)) }
        }
        let ended: ChildProcess.Ended
        do {
            // Bounded: a child that hangs, or whose end is never reported, fails its test with what
            // it wrote instead of holding the whole run.
            ended = try await ChildProcess.start(process, deadline: .seconds(600))
        } catch {
            // No child holds the write ends: close them so the readers see the end.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            await outRead
            await errRead
            throw error
        }
        await outRead
        await errRead
        let stdout = outData.withLock { $0 }
        guard ended == .exited else {
            throw ChildProcess.TimedOut(
                command: (["spotlink"] + arguments).joined(separator: " "), deadline: .seconds(600),
                output: String(decoding: stdout, as: UTF8.self) + errText.withLock { $0 })
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: errText.withLock { $0 })
    }

}

/// The command-line binary's tests that share one sequence: each starts its own emulator and
/// processes, and they run one at a time so that their children never crowd the machine (the
/// other command suites run beside them).
@Suite("spotlink as a binary", .serialized)
struct SpotLinkCommandTests {}
