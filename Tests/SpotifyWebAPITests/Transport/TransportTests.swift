import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Transport) @testable import SpotifyWebAPI

/// A transport under test, made with the clock its deadlines run on.
struct TransportUnderTest: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable (any SpotifyClock) -> any Transport
    var testDescription: String { name }

    /// Both real transports, each run here on Linux: URLSession (Apple platforms' transport, on
    /// FoundationNetworking) and async-http-client (Linux's).
    static var all: [TransportUnderTest] {
        // The answer deadline is the default's 10 s, whatever the environment sets for a slow run.
        var transports = [
            TransportUnderTest(name: "URLSession") { URLSessionTransport(clock: $0, answerDeadline: .seconds(10)) }
        ]
        #if os(Linux) && canImport(AsyncHTTPClient)
            transports.append(
                TransportUnderTest(name: "async-http-client") {
                    AsyncHTTPClientTransport(clock: $0, answerDeadline: .seconds(10))
                })
        #endif
        return transports
    }
}

/// What the `Transport` protocol promises, against real sockets: the size cap, a deadline for the
/// whole exchange, cancellation at any point, and no redirect followed.
@Suite("The real transports against real sockets")
struct TransportTests {
    static func get(_ server: SocketServer, _ path: String = "/") -> HTTPRequest {
        HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
    }

    /// A server that would send 64 times the cap: the exchange ends with `responseTooLarge` once the
    /// cap is passed, whether or not the length was announced, holding no more than the cap.
    /// (URLSession on Linux may go on reading from the socket after that, into nothing: it has no
    /// backpressure. A gigabyte here kept two cores busy for the whole ThreadSanitizer run, and the
    /// other transport's exchange ran out of its deadline on CI; 64 MiB proves the same cap.) The
    /// deadline is generous because it is not what this test is about.
    @Test(arguments: TransportUnderTest.all, [true, false])
    func aBodyFarOverTheCapIsCutOffAtTheCap(_ transport: TransportUnderTest, announced: Bool) async throws {
        let cap = 1 << 20
        let server = try SocketServer(.body(total: 64 * cap, announced: announced))
        await #expect {
            try await transport.make(SystemClock()).send(
                Self.get(server, "/huge"), body: nil, timeout: .seconds(120), maxBodyBytes: cap)
        } throws: { error in
            let error = error as? SpotifyAPIError
            return error?.code == .responseTooLarge && error?.message.contains("\(cap) bytes") == true
        }
    }

    /// async-http-client reads with backpressure: the server manages to write only a small part.
    #if os(Linux) && canImport(AsyncHTTPClient)
        @Test(arguments: [true, false])
        func asyncHTTPClientStopsReadingAtTheCap(announced: Bool) async throws {
            let server = try SocketServer(.body(total: 1 << 30, announced: announced))
            _ = try? await AsyncHTTPClientTransport().send(
                Self.get(server, "/huge"), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
            let written = try await server.bytesWrittenWhenClosed(limit: .seconds(20))
            #expect(written < 64 << 20, "the server wrote \(written) bytes before the client hung up")
        }
    #endif

    @Test(arguments: TransportUnderTest.all)
    func aBodyUnderTheCapArrivesWhole(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.body(total: 300_000, announced: true))
        let (response, body) = try await transport.make(SystemClock()).send(
            Self.get(server, "/small"), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        #expect(response.status == .ok)
        #expect(body.count == 300_000)
    }

    /// A server that keeps a connection busy with a byte every 50 ms never trips an idle timeout;
    /// the deadline bounds the whole exchange, on the transport's clock.
    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.all)
    func aTricklingAnswerEndsAtTheDeadline(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.trickle)
        let clock = VirtualClock()
        let exchange = Task {
            try await transport.make(clock).send(
                Self.get(server), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        }
        try await server.wait("three trickled bytes") { $0.written >= 3 }
        // The answer began, so only the whole exchange's deadline is left.
        try await waitUntil("the answer deadline to end with the answer's head") {
            clock.sleeperCount == 1 && clock.nextDeadline == clock.now.addingTimeInterval(30)
        }
        clock.advance(by: .seconds(30))
        await #expect(throws: SpotifyAPIError.timedOut) { try await exchange.value }
    }

    /// A server that takes the connection and the request and never answers (a stalled proxy, a
    /// captive portal) is given up at the answer deadline, 10 s on the transport's clock, not at the
    /// whole exchange's 30 s (issue 66 item 2).
    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.all)
    func aServerThatNeverAnswersIsGivenUpAtTheAnswerDeadline(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.silence)
        let clock = VirtualClock()
        let exchange = Task {
            try await transport.make(clock).send(
                Self.get(server), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        }
        try await server.wait("the request") { $0.requests == 1 }
        try await waitUntil("the answer deadline") { clock.nextDeadline == clock.now.addingTimeInterval(10) }
        clock.advance(by: .seconds(10))
        let error = try await #require(throws: SpotifyAPIError.self) { try await exchange.value }
        #expect(error.notAnswering && error.nothingAnswered)
        #expect(error.message == "nothing came back within 10 s")
    }

    /// Through the client: one request, no retry, and a message that says Spotify is not answering
    /// and what to do, at the answer deadline (a stalled host used to cost three 30 s attempts).
    @Test(arguments: TransportUnderTest.all)
    func aClientSaysSpotifyIsNotAnsweringAfterOneRequest(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.silence)
        let clock = VirtualClock()
        let ledger = RequestLedger.inMemory()
        let client = SpotifyClient(
            configuration: SpotifyClient.Configuration(apiBaseURL: URL(string: "http://127.0.0.1:\(server.port)/v1")!),
            tokens: CountingTokenProvider(), transport: transport.make(clock), clock: clock, ledger: ledger)
        let ended = Lock(false)
        let call = Task {
            defer { ended.withLock { $0 = true } }
            return try await client.currentUser()
        }
        try await server.wait("the request") { $0.requests == 1 }
        try await waitUntil("the answer deadline") { clock.nextDeadline == clock.now.addingTimeInterval(10) }
        clock.advance(by: .seconds(10))
        // A retry would sleep its backoff on the virtual clock, and the call would not end.
        try await waitUntil("the call to end without a retry", within: .seconds(30)) { ended.withLock { $0 } }
        let error = try await #require(throws: SpotifyAPIError.self) { try await call.value }
        #expect(error.code == .transport)
        #expect(
            error.message.hasPrefix("Spotify is not answering: nothing came back within 10 s of sending."),
            "\(error.message)")
        #expect(error.message.contains("check the network connection"))
        #expect(server.requests == 1)
    }

    /// Cancelled before it starts: it ends at once, with nothing sent (URLSession never resumes
    /// its task).
    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.all)
    func aRequestCancelledBeforeItStartsEndsAtOnce(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.silence)
        let subject = transport.make(SystemClock())
        let exchange = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await subject.send(Self.get(server), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        }
        await #expect(throws: CancellationError.self) { try await exchange.value }
    }

    @Test(.timeLimit(.minutes(1)), arguments: TransportUnderTest.all)
    func aRequestCancelledWhileWaitingForTheAnswerEndsAtOnce(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.silence)
        let subject = transport.make(SystemClock())
        let exchange = Task {
            try await subject.send(Self.get(server), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        }
        try await server.wait("the request") { $0.requests == 1 }
        exchange.cancel()
        await #expect(throws: CancellationError.self) { try await exchange.value }
    }

    /// A redirect would carry the bearer token elsewhere: it is returned, never followed.
    @Test(arguments: TransportUnderTest.all)
    func aRedirectIsReturnedNotFollowed(_ transport: TransportUnderTest) async throws {
        let server = try SocketServer(.redirect(to: "http://127.0.0.1:9/elsewhere"))
        var request = Self.get(server)
        request.headerFields[.authorization] = "Bearer SENTINEL_AT"
        let (response, _) = try await transport.make(SystemClock()).send(
            request, body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        #expect(response.status.code == 302)
        #expect(response.headerFields[.location] == "http://127.0.0.1:9/elsewhere")
        #expect(server.requests == 1)
    }

    #if os(Linux) && canImport(AsyncHTTPClient)
        /// A kept-alive connection the server closes as the next request goes out on it: a GET is
        /// sent once more on a new connection and gets its answer, as RFC 9112 §9.3.1 asks; a
        /// POST is not repeated. The server's close reaches the client as an end of stream, or as
        /// a reset when the request arrived before the close (its kernel resets a socket closed
        /// with unread data). (This race failed a sign-in test under ThreadSanitizer: the
        /// browser's last request reused a connection the loopback listener was closing; and, as
        /// a reset, an emulator test whose process was stalled past the emulator's idle timeout.)
        ///
        /// The client closes a connection idle for ``AsyncHTTPClientTransport/idleTimeout`` itself;
        /// a process held back that long between the two requests sends the second on a new
        /// connection, and the race does not happen: the case is then played again, up to twenty
        /// times (five ran out once, in a rehearsal beside other builds and tests on two cores).
        @Test(arguments: [HTTPRequest.Method.get, .post], [false, true])
        func aLostKeptConnectionIsRetriedOnlyForAGet(_ method: HTTPRequest.Method, reset: Bool) async throws {
            for _ in 0..<20 {
                if try await loseKeptConnection(method, reset: reset) { return }
            }
            Issue.record("the client closed its idle connection before the second request in twenty tries")
        }

        /// One play of the race; false when the client closed the kept connection first.
        private func loseKeptConnection(_ method: HTTPRequest.Method, reset: Bool) async throws -> Bool {
            let server = try SocketServer(.losesKeptConnection(reset: reset))
            let transport = AsyncHTTPClientTransport(clock: SystemClock())
            let url = URL(string: "http://127.0.0.1:\(server.port)/kept")!
            let (first, _) = try await transport.send(
                HTTPRequest(method: .get, url: url), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
            #expect(first.status.code == 200)
            let second = HTTPRequest(method: method, url: url)
            let outcome: Result<(HTTPResponse, Data), any Error>
            do {
                outcome = .success(
                    try await transport.send(
                        second, body: method == .get ? nil : Data("a=1".utf8), timeout: .seconds(30),
                        maxBodyBytes: 1 << 20))
            } catch {
                outcome = .failure(error)
            }
            // The server saw the client's close before any second request: no race was played.
            if server.keptClosedByClient { return false }
            if method == .get {
                let (response, body) = try outcome.get()
                #expect(response.status.code == 200 && body == Data("ok".utf8))
                #expect(server.connections == 2 && server.requests == 3)
            } else {
                guard case .failure(let error) = outcome else {
                    Issue.record("the POST was sent again and answered")
                    return true
                }
                #expect((error as? SpotifyAPIError)?.code == .transport)
                #expect(server.connections == 1 && server.requests == 2)
            }
            return true
        }

        /// The client closes a kept-alive connection it has not used for a while before a server
        /// would (the emulator's idle timeout is 10 s; the pool's default, 60 s): a server's close
        /// can then never meet a request going out, which a POST would lose.
        @Test func anIdleKeptConnectionIsClosedByTheClientFirst() async throws {
            #expect(AsyncHTTPClientTransport.idleTimeout < EmulatorConfiguration().connectionIdleTimeout)
            let server = try SocketServer(.redirect(to: "http://127.0.0.1:9/elsewhere"))
            let transport = AsyncHTTPClientTransport(clock: SystemClock())
            let url = URL(string: "http://127.0.0.1:\(server.port)/kept")!
            let (response, _) = try await transport.send(
                HTTPRequest(method: .get, url: url), body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
            #expect(response.status.code == 302)
            // Real time: the pool's idle timer runs on SwiftNIO's clock, which no test can step.
            _ = try await server.bytesWrittenWhenClosed(limit: .seconds(30))
            #expect(server.requests == 1)
        }
    #endif

    /// One process-wide transport: every caller of the default shares its connections.
    @Test func theDefaultTransportIsOneForTheProcess() {
        #expect(platformDefaultTransport() as AnyObject === platformDefaultTransport() as AnyObject)
        #expect(URLSessionTransport.shared === URLSessionTransport.shared)
    }
}
