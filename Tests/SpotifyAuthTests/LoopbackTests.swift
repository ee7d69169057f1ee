import Foundation
import HTTPTypes
import Logging
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyAuthLoopback
@testable import SpotifyWebAPI

@Suite("Loopback sign-in against the emulator (rows 4, 10, 13–15, 25, 35)")
struct LoopbackTests {
    let http = TestHTTP()

    func signIn(
        _ emulator: EmulatorServer, store: any TokenStore = MemoryTokenStore(), clock: any SpotifyClock = SystemClock(),
        agree: Bool = true, timeout: Duration = .seconds(30), browser: (@Sendable (URL) async throws -> Void)? = nil
    ) async throws -> (SpotifySession, StoredTokens) {
        let server = AuthorizationServer.emulator(url: emulator.baseURL)
        let endpoint = TokenEndpoint(server: server, clientID: "spotlink-demo", clock: clock)
        let session = SpotifySession(endpoint: endpoint, store: store, clock: clock)
        let signIn = LoopbackSignIn(timeout: timeout)
        let tokens = try await signIn.run(session: session, clock: clock) { url in
            if let browser {
                try await browser(url)
            } else {
                // A visit that fails ends the sign-in at once with its own error.
                let visit = try await ConsentBrowser(agree: agree).visit(url)
                #expect(!visit.finalPage.contains("SENTINEL"))
            }
        }
        return (session, tokens)
    }

    /// A browser that could not be shown ends the sign-in at once with its own error, instead of
    /// the sign-in waiting out its deadline and reporting `.timedOut`.
    @Test func aBrowserThatFailsEndsTheSignInWithItsError() async throws {
        struct NoBrowser: Error {}
        try await withEmulator { (emulator: EmulatorServer) async throws in
            await #expect(throws: NoBrowser.self) {
                _ = try await signIn(emulator, timeout: .seconds(20)) { _ in throw NoBrowser() }
            }
        }
    }

    @Test func endToEndSignInThenTheClientCallsMe() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let (session, tokens) = try await signIn(emulator)
            #expect(tokens.refreshToken != nil)
            #expect(Set(tokens.scopes) == Set(SpotifyScope.all))
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport())
            #expect(try await client.currentUser().id == "emu-user")
        }
    }

    /// The sign-in is the session's own app at the session's own accounts service: there is no
    /// second client ID to disagree with the key the tokens are saved under.
    @Test func itSignsInTheSessionsOwnAppAndSavesUnderItsKey() async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients.append(.init(id: "second-app", redirectURIs: ["http://127.0.0.1/callback"]))
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let store = MemoryTokenStore()
            let session = SpotifySession(endpoint: TokenEndpoint(server: server, clientID: "second-app"), store: store)
            let asked = Lock<URL?>(nil)
            let tokens = try await LoopbackSignIn(timeout: .seconds(30)).run(session: session) { url in
                asked.withLock { $0 = url }
                _ = try await ConsentBrowser().visit(url)
            }
            let authorize = try #require(asked.withLock { $0 })
            #expect(authorize.queryValue("client_id") == "second-app")
            #expect(authorize.host == emulator.baseURL.host && authorize.port == emulator.baseURL.port)
            #expect(tokens.clientID == "second-app")
            #expect(try await store.load(SpotifyAppKey(issuer: server.issuer, clientID: "second-app")) == tokens)
            #expect(try await store.load(SpotifyAppKey(issuer: server.issuer, clientID: "spotlink-demo")) == nil)
        }
    }

    @Test func theResultPageShowsNoSecretsAndIsNotCached() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let seen = Lock<(URL?, String)>((nil, ""))
            _ = try await signIn(emulator) { url in
                let visit = try await ConsentBrowser().visit(url)
                seen.withLock { $0 = (visit.redirect, visit.finalPage) }
            }
            let (redirect, page) = seen.withLock { $0 }
            let callback = try #require(redirect)
            #expect(callback.host == "127.0.0.1")
            #expect(page.contains("Spotify is connected"))
            for secret in [callback.queryValue("code"), callback.queryValue("state")].compactMap({ $0 }) {
                #expect(!page.contains(secret))
            }
            #expect(!page.contains("<script") && !page.contains("http"))
        }
    }

    @Test func cancelOnTheConsentPageIsAccessDenied() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            await #expect {
                try await signIn(emulator, agree: false)
            } throws: { error in
                (error as? OAuthError)?.code == .accessDenied
            }
        }
    }

    @Test func strayRequestsGet404Or405AndTheFlowKeepsWaiting() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let http = self.http
            let (session, _) = try await signIn(emulator) { url in
                let redirect = url.queryValue("redirect_uri").flatMap(URL.init(string:))
                guard let redirect, let port = redirect.port else { return }
                let base = "http://127.0.0.1:\(port)"
                #expect((try? await http.send(.get, URL(string: base + "/favicon.ico")!))?.status == 404)
                #expect((try? await http.send(.get, URL(string: base + "/")!))?.status == 404)
                #expect(
                    (try? await http.send(.post, URL(string: base + "/callback")!, form: [("code", "x")]))?.status
                        == 405)
                #expect(
                    (try? await http.send(.get, URL(string: base + "/callback?code=SENTINEL_CODE_forged&state=forged")!))?
                        .status == 400)
                #expect(
                    (try? await http.send(.get, URL(string: base + "/callback?code=%ZZ&state=%00")!))?.status == 400)
                var many: [String: String] = [:]
                for index in 0..<200 { many["X-Header-\(index)"] = "v" }
                _ = try? await http.send(.get, URL(string: base + "/callback")!, headers: many)
                _ = try await ConsentBrowser().visit(url)
            }
            #expect(try await session.tokens() != nil)
        }
    }

    @Test func theDeadlineFailsTheSignInAndClosesThePort() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let clock = VirtualClock()
            let port = Lock<Int?>(nil)
            let task = Task {
                try await signIn(emulator, clock: clock, timeout: .seconds(120)) { url in
                    port.withLock { $0 = url.queryValue("redirect_uri").flatMap(URL.init(string:))?.port }
                }
            }
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(120))
            await #expect {
                try await task.value
            } throws: { error in
                (error as? OAuthError)?.code == .timedOut
            }
            let closed = try #require(port.withLock { $0 })
            await #expect(throws: (any Error).self) {
                try await http.send(.get, URL(string: "http://127.0.0.1:\(closed)/callback")!)
            }
        }
    }

    @Test func theListenerBindsOnlyLoopback() async throws {
        await #expect(throws: OAuthError(code: .listenerUnavailable, message: "")) {
            try await LoopbackReceiver.start(host: "0.0.0.0", path: "/callback") { _ in
                .init(status: 200, title: "", message: "")
            }
        }
        let receiver = try await LoopbackReceiver.start(path: "/callback") { _ in
            .init(status: 200, title: "ok", message: "")
        }
        #expect(receiver.host == "127.0.0.1" && receiver.port > 0)
        let (status, headers, _) = try await http.send(.get, URL(string: "http://127.0.0.1:\(receiver.port)/callback")!)
        #expect(status == 200)
        #expect(headers[.cacheControl] == "no-store")
        #expect(headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
        await receiver.stop()
    }

    @Test(arguments: [EmulatorConfiguration.RefreshRotation.none, .rotate])
    func expiryOnTheVirtualClockRefreshesOnceForFiftyCalls(rotation: EmulatorConfiguration.RefreshRotation)
        async throws
    {
        let clock = VirtualClock()
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        configuration.refreshRotation = rotation
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let store = MemoryTokenStore()
            let (session, first) = try await signIn(emulator, store: store, clock: clock)
            try await expireAndCallFiftyTimes(emulator, session: session, clock: clock)
            let stored = try await #require(try store.load(session.key))
            #expect(stored.accessToken != first.accessToken)
            #expect((stored.refreshToken == first.refreshToken) == (rotation == .none))
        }
    }

    /// Lets the access token expire on the virtual clock, then makes 50 concurrent calls: they
    /// must all succeed on one refresh (the sign-in's code exchange plus one refresh).
    func expireAndCallFiftyTimes(_ emulator: EmulatorServer, session: SpotifySession, clock: VirtualClock) async throws
    {
        clock.advance(by: .seconds(3600))
        let client = SpotifyClient(
            configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport(),
            clock: clock)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await client.currentUser().id } }
            for try await id in group { #expect(id == "emu-user") }
        }
        #expect(await emulator.requestCount("POST /api/token") == 2)
    }

    @Test func sixMonthsLaterTheSessionNeedsSignIn() async throws {
        let clock = VirtualClock()
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let store = MemoryTokenStore()
            let (session, _) = try await signIn(emulator, store: store, clock: clock)
            clock.advance(by: .seconds(184 * 86400))
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport(),
                clock: clock)
            await #expect {
                try await client.currentUser()
            } throws: { error in
                (error as? OAuthError)?.code == .needsSignIn
                    && (error as? OAuthError)?.message.contains("Refresh token expired") == true
            }
            await #expect(try store.load(session.key) == nil)
        }
    }

    @Test func noSecretReachesLogsErrorsOrDescriptions() async throws {
        let lines = LogSink()
        let clock = VirtualClock()
        var configuration = EmulatorConfiguration()
        configuration.time = .external { clock.now }
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let logger = Logger(label: "leak-sweep") { _ in CapturingHandler(lines: lines) }
            let store = MemoryTokenStore()
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let session = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo", clock: clock), store: store,
                clock: clock,
                logger: logger)
            let random = RecordingRandomSource()
            let code = Lock<String?>(nil)
            let tokens = try await LoopbackSignIn().run(
                session: session, random: random, clock: clock
            ) { url in
                let visit = try await ConsentBrowser().visit(url)
                code.withLock { $0 = visit.redirect?.queryValue("code") }
            }
            // The verifier is the base64url of the 48 random bytes drawn for it.
            let verifier = try #require(random.draws.first { $0.count == 48 }.map { PKCE.base64URL($0) })
            let issuedCode = try #require(code.withLock { $0 })
            clock.advance(by: .seconds(3600))
            // Backoff sleeps on its own clock that moves by itself; expiry follows the shared one.
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport(),
                clock: VirtualClock(mode: .automatic),
                logger: logger)
            _ = try await client.currentUser()
            await emulator.control("faults", ["kind": "502-html", "count": "5"])
            let failure = await #expect(throws: SpotifyAPIError.self) { try await client.currentUser() }
            let current = try await #require(try store.load(session.key))
            let secrets = [
                tokens.accessToken.unredactedValue, tokens.refreshToken!.unredactedValue,
                current.accessToken.unredactedValue,
                issuedCode, verifier,
            ]
            #expect(current.accessToken != tokens.accessToken, "the sweep must cover a refresh")
            var texts = lines.lines
            var dumped = ""
            dump(current, to: &dumped)
            texts += [
                dumped, String(reflecting: current), "\(current)", "\(tokens)", failure.map { "\($0)" } ?? "",
                String(reflecting: failure),
            ]
            #expect(!texts.isEmpty)
            for text in texts {
                for secret in secrets { #expect(!text.contains(secret), "secret in: \(text.prefix(120))") }
            }
        }
    }
}

final class LogSink: Sendable {
    private let storage = Lock<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ line: String) { storage.withLock { $0.append(line) } }
}

struct CapturingHandler: LogHandler {
    let lines: LogSink
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    init(lines: LogSink) { self.lines = lines }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.message) \(event.metadata ?? [:])")
    }
}

/// The system's random source, keeping what it handed out so a test knows the verifier it made.
final class RecordingRandomSource: RandomSource {
    private let recorded = Lock<[[UInt8]]>([])
    var draws: [[UInt8]] { recorded.withLock { $0 } }

    func bytes(_ count: Int) throws -> [UInt8] {
        let bytes = try SystemRandomSource().bytes(count)
        recorded.withLock { $0.append(bytes) }
        return bytes
    }
}
