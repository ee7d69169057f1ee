import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@Suite("spotlink routine, picker and emulator", .serialized)
struct InteractiveCommandTests {
    /// A routine shorter than Spotify's first answer waits for that answer instead of reporting
    /// "no music" it never asked about (under ThreadSanitizer on a loaded machine, a 3 s routine
    /// ended before its first poll came back).
    @Test func aRoutineShorterThanTheFirstAnswerWaitsForIt() async throws {
        let cli = try SpotLinkBinary()
        var configuration = EmulatorConfiguration()
        configuration.latency = .milliseconds(1500)
        try await withEmulator(configuration) { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            _ = try await cli.login(common)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            #expect(try await cli.run(["session", "new", "Run", "--minutes", "20"] + common).status == 0)
            #expect(try await cli.run(["session", "attach", "1", "spotify:playlist:\(deep)"] + common).status == 0)
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            // 0.6 s of routine; every answer takes 1.5 s.
            let routine = try await cli.run(["routine", "1", "--minutes", "0.01", "--polling", "economical"] + common)
            #expect(routine.status == 0, "\(routine.stderr)")
            #expect(routine.stdout.contains("▶"), "\(routine.stdout)")
            #expect(!routine.stdout.contains("No music was playing"))
        }
    }

    @Test func pickerRoutineAndSummary() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            _ = try await cli.login(common)
            #expect(try await cli.run(["playlists"] + common).status == 0)
            #expect(try await cli.run(["session", "new", "Run", "--minutes", "20"] + common).status == 0)
            // Type a filter, then pick the first match.
            let pick = try await cli.run(["session", "attach", "1", "--pick"] + common, input: "deep\n1\n")
            #expect(pick.status == 0, "\(pick.stderr)")
            #expect(pick.stdout.contains("Deep Work"))

            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            let routine = try await cli.run(["routine", "1", "--minutes", "0.05", "--polling", "economical"] + common)
            #expect(routine.status == 0, "\(routine.stderr)")
            #expect(routine.stdout.contains("open.spotify.com/playlist/\(deep)"))
            #expect(routine.stdout.contains("▶"))
            #expect(routine.stdout.contains("You got through"))
            await emulator.control("player/stop")
            let silent = try await cli.run(["routine", "1", "--minutes", "0.02"] + common)
            #expect(silent.stdout.contains("No music was playing"))
        }
    }

    @Test func emulatorCommandPrintsItsURLAndControlTokenAndStopsOnSIGTERM() async throws {
        let process = Process()
        process.executableURL = builtExecutable(named: "spotlink")
        process.arguments = ["emulator", "--port", "0", "--auto-approve"]
        let out = Pipe()
        process.standardOutput = out
        let chunks = AsyncStream.makeStream(of: String.self)
        out.fileHandleForReading.readabilityHandler = { handle in
            chunks.continuation.yield(String(decoding: handle.availableData, as: UTF8.self))
        }
        let exited = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        var text = ""
        for await chunk in chunks.stream {
            text += chunk
            if text.filter({ $0 == "\n" }).count >= 2 || chunk.isEmpty { break }
        }
        out.fileHandleForReading.readabilityHandler = nil
        defer { try? out.fileHandleForReading.close() }
        let lines = text.split(separator: "\n").map(String.init)
        try #require(lines.count >= 2, "the emulator printed \(text.debugDescription)")
        #expect(lines[0].hasPrefix("listening on http://127.0.0.1:"))
        #expect(lines[1].hasPrefix("control token: EMU_CONTROL_"))
        let url = try #require(URL(string: String(lines[0].dropFirst("listening on ".count))))
        let token = String(lines[1].dropFirst("control token: ".count))
        let stats = url.appendingPathComponent("emulator/stats")
        #expect(try await TestHTTP().send(.get, stats).status == 401)
        #expect(try await TestHTTP().send(.get, stats, headers: ["Authorization": "Bearer \(token)"]).status == 200)
        kill(process.processIdentifier, SIGTERM)
        var codes = exited.stream.makeAsyncIterator()
        #expect(await codes.next() == 0)
    }

    /// An emulator bound beyond loopback says so on stderr (issue 66 item 13: it bound silently).
    @Test func anEmulatorBoundBeyondLoopbackWarns() async throws {
        let process = Process()
        process.executableURL = builtExecutable(named: "spotlink")
        process.arguments = ["emulator", "--host", "0.0.0.0", "--port", "0"]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let chunks = AsyncStream.makeStream(of: String.self)
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            chunks.continuation.yield(String(decoding: data, as: UTF8.self))
            if data.isEmpty { chunks.continuation.finish() }
        }
        let exited = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The warning's first line, or a loud failure after a minute (an emulator that says nothing
        // runs on until killed).
        let text = try await nextElement(
            of: AsyncStream { continuation in
                Task {
                    var text = ""
                    for await chunk in chunks.stream {
                        text += chunk
                        if text.contains("\n") { break }
                    }
                    continuation.yield(text)
                }
            }, "a line on the emulator's stderr")
        errors.fileHandleForReading.readabilityHandler = nil
        #expect(
            text.hasPrefix("warning: listening on 0.0.0.0, beyond this machine"), "stderr: \(text.debugDescription)")
        kill(process.processIdentifier, SIGTERM)
        var codes = exited.stream.makeAsyncIterator()
        #expect(await codes.next() == 0)
    }
}
