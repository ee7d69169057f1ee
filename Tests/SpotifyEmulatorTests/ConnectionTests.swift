import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyTesting
import Testing

/// The emulator's connections, as Spotify's front end treats them: an oversized body is answered
/// 413, an oversized request line is refused, and a connection that never finishes its request head
/// is closed; each is closed by the idle timeout at the latest (a second here), never kept.
@Suite("The emulator's connections")
struct ConnectionTests {
    static func port(_ emulator: EmulatorServer) -> Int { emulator.baseURL.port! }

    static var configuration: EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.connectionIdleTimeout = .seconds(1)
        return configuration
    }

    /// A form body past the limit (a quarter of a megabyte: the red team's 200 KB got a 500) is
    /// answered 413, as live answers an oversized body. Under the product's idle timeout: with this
    /// suite's one second, a process held back a second while the body was being read lost the
    /// connection before the answer (the server closes a connection idle mid-request).
    @Test func anOversizedFormToTheTokenEndpointIs413() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let (status, _, body) = try await http.send(
                .post, emulator.url("api/token"),
                form: [("grant_type", "refresh_token"), ("refresh_token", String(repeating: "A", count: 256 << 10))])
            #expect(status == 413, "\(String(decoding: body.prefix(200), as: UTF8.self))")
            #expect(String(decoding: body, as: UTF8.self).contains("Request body too large"))
        }
    }

    /// The 413 says `Connection: close`, and the emulator closes: a client that reads to the end
    /// is not kept until the idle timeout (issue 66 item 13: ten seconds, Hummingbird keeps the
    /// connection whatever the answer says). The idle timeout here is far beyond the wait.
    @Test func anOversizedBodyIsAnsweredAndTheConnectionClosed() async throws {
        var configuration = EmulatorConfiguration()
        configuration.connectionIdleTimeout = .seconds(600)
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let connection = try RawConnection(port: Self.port(emulator))
            let body = String(repeating: "a", count: 200_000)
            let head = "POST /api/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            await connection.sendIgnoringClose(Array((head + body).utf8))
            let answer = await connection.readUntilClosed(timeout: .seconds(120))
            #expect(answer.text.hasPrefix("HTTP/1.1 413"), "\(answer.text.prefix(200))")
            #expect(answer.closed, "the connection was kept after the 413")
            // The emulator still serves whole requests.
            let (status, _, _) = try await TestHTTP().send(.get, emulator.baseURL.appendingPathComponent("v1/me"))
            #expect(status == 401)
        }
    }

    /// Stopping the emulator ends answers still waiting out their latency: a client that gave up
    /// on a ten-minute latency no longer holds the stop for the rest of it (the CLI's command
    /// deadline test hung here for ten minutes).
    @Test func stoppingEndsAnswersWaitingOutTheirLatency() async throws {
        var configuration = EmulatorConfiguration()
        configuration.latency = .seconds(600)
        let emulator = try await EmulatorServer.start(configuration)
        let waiting = Task { try? await TestHTTP().send(.get, emulator.baseURL.appendingPathComponent("v1/me")) }
        try await waitUntil("the request counted by the emulator") { await emulator.requestCount("GET /v1/me") == 1 }
        let (stopped, done) = AsyncStream.makeStream(of: Void.self)
        Task {
            await emulator.stop()
            done.yield()
        }
        try await nextElement(of: stopped, "the emulator's stop, with an answer waiting out ten minutes of latency")
        waiting.cancel()
    }

    @Test func aTenMegabyteQueryIsRefusedAndClosed() async throws {
        try await withEmulator(Self.configuration) { (emulator: EmulatorServer) async throws in
            let connection = try RawConnection(port: Self.port(emulator))
            let line = "GET /v1/search?q=" + String(repeating: "a", count: 10 << 20) + "&type=track HTTP/1.1\r\n"
            await connection.sendIgnoringClose(Array((line + "Host: 127.0.0.1\r\n\r\n").utf8))
            let answer = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(answer.closed, "the connection was kept after the refusal")
            #expect(!answer.text.contains("200 OK"))
        }
    }

    @Test func aRequestHeadThatNeverEndsIsClosedAfterTheIdleTimeout() async throws {
        var configuration = EmulatorConfiguration()
        // Long enough that the whole request below, sent at once, never meets it on a loaded run
        // (500 ms did, under ThreadSanitizer); short beside the 20 s the test waits for the close.
        configuration.connectionIdleTimeout = .seconds(3)
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let connection = try RawConnection(port: Self.port(emulator))
            await connection.sendIgnoringClose(Array("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            #expect(await connection.readUntilClosed(timeout: .seconds(20)).closed, "a half-open head stayed open")
            // The emulator still serves whole requests.
            let (status, _, _) = try await TestHTTP().send(.get, emulator.baseURL.appendingPathComponent("v1/me"))
            #expect(status == 401)
        }
    }
}
