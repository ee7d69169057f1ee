import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

/// A child process that speaks in lines: the test reads what it prints and writes what it waits for.
final class LineChild: Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines = Lock<[String]>([])

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = builtExecutable(named: executable)
        process.arguments = arguments
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

    var printed: [String] { lines.withLock { $0 } }

    /// Waits (real time: a process's start-up, never a timing rule) until it printed `line`; fails
    /// loudly after a minute.
    func waitFor(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for _ in 0..<6_000 {
            if printed.contains(line) { return }
            if printed.contains(where: { $0.hasPrefix("failed") }) || !process.isRunning && !printed.contains(line) {
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the child never printed \(line): \(printed)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Its exit status, once it ended.
    func exitStatus() async -> Int32 {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        try? input.fileHandleForWriting.close()
        return process.terminationStatus
    }
}

@Suite("An app and its extension refreshing one sign-in, as two real processes", .serialized)
struct CrossProcessRefreshTests {
    /// Two processes hold the same sign-in in a shared token folder and refresh at the same moment,
    /// with Spotify's pre-2026 rotation on (a replayed refresh token revokes the sign-in). The
    /// folder's lock lets one refresh; the other re-reads under the lock and takes its tokens. No
    /// sign-in is lost, and one refresh is sent.
    @Test func twoProcessesRacingARefreshLoseNoSignIn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = EmulatorConfiguration()
        configuration.refreshRotation = .rotate
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let app = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"),
                store: FileTokenStore(directory: folder))
            try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: app) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            let before = await emulator.requestCount("POST /api/token")
            let children = try (0..<2).map { _ in
                try LineChild("RefreshRaceChild", [folder.path, emulator.baseURL.absoluteString])
            }
            for child in children { try await child.waitFor("ready") }
            for child in children { child.send("go") }
            for child in children {
                #expect(await child.exitStatus() == 0, "\(child.printed)")
                #expect(child.printed.contains("refreshed"))
            }
            #expect(await emulator.requestCount("POST /api/token") - before == 1)
            // The sign-in lives on: a third process refreshes what the folder holds, and calls Spotify.
            let later = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"),
                store: FileTokenStore(directory: folder))
            let stored = try #require(try await later.tokens())
            _ = try await later.refreshedAccessToken(replacing: stored.accessToken)
            let client = SpotifyClient(configuration: .emulator(url: emulator.baseURL), tokens: later)
            #expect(try await client.currentUser().id == "emu-user")
        }
    }
}
