import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyAuth
@testable import SpotifyAuthLoopback
@testable import SpotifyWebAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the loopback listener sends back to hostile and broken callbacks (rows 5, 7 and 13), read
/// over real sockets.
@Suite("Loopback callback pages and connections (rows 5, 7, 13)")
struct CallbackPageTests {
    let http = TestHTTP()

    /// Signs in against the emulator; `attack` runs with the listener's base URL and the flow's
    /// state before the browser agrees.
    func signIn(attack: @escaping @Sendable (_ base: String, _ state: String) async throws -> Void) async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let session = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: MemoryTokenStore())
            let failure = Lock<(any Error)?>(nil)
            // A browser that fails leaves the sign-in waiting, so the browser's error is the one
            // reported. The wait outlasts one of the browser's exchanges (TestHTTP.timeout), which
            // under ThreadSanitizer's load can each take long.
            let signIn = LoopbackSignIn(timeout: TestHTTP.timeout + .seconds(60))
            do {
                _ = try await signIn.run(session: session) { url in
                    let redirect = url.queryValue("redirect_uri").flatMap(URL.init(string:))
                    let state = url.queryValue("state") ?? ""
                    do { try await attack("http://127.0.0.1:\(redirect?.port ?? 0)", state) } catch {
                        failure.withLock { $0 = $0 ?? error }
                    }
                    do { _ = try await ConsentBrowser().visit(url) } catch {
                        failure.withLock { $0 = $0 ?? error }
                    }
                }
            } catch {
                throw failure.withLock({ $0 }) ?? error
            }
            if let error = failure.withLock({ $0 }) { throw error }
            #expect(try await session.tokens() != nil, "the real callback after the attack must still sign in")
        }
    }

    @Test func aForgedCallbackGetsA400ThatEchoesNothing() async throws {
        let http = self.http
        try await signIn { base, _ in
            let (status, _, body) = try await http.send(
                .get,
                URL(
                    string: base
                        + "/callback?code=SENTINEL_CODE_forged&state=SENTINEL_STATE_forged&error_description=ECHO_ME")!)
            let page = String(decoding: body, as: UTF8.self)
            #expect(status == 400)
            for echoed in ["SENTINEL_CODE_forged", "SENTINEL_STATE_forged", "ECHO_ME"] {
                #expect(!page.contains(echoed))
            }
        }
    }

    @Test func aHostileErrorDescriptionIsShownEscapedOnOneLine() async throws {
        // The error ends the sign-in, so this one is driven without the consent page.
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let session = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: MemoryTokenStore())
            let page = Lock<(Int, String)>((0, ""))
            let http = self.http
            await #expect {
                try await LoopbackSignIn().run(session: session) { url in
                    let redirect = url.queryValue("redirect_uri").flatMap(URL.init(string:))
                    let state = url.queryValue("state") ?? ""
                    let iss = server.issuer.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                    let hostile = "%3Cscript%3Ealert(1)%3C%2Fscript%3E%0D%0ASet-Cookie%3A%20x%3D1%E2%80%AE"
                    let target =
                        "http://127.0.0.1:\(redirect?.port ?? 0)/callback?error=server_error&error_description=\(hostile)&state=\(state)&iss=\(iss)"
                    if let (status, _, body) = try? await http.send(.get, URL(string: target)!) {
                        page.withLock { $0 = (status, String(decoding: body, as: UTF8.self)) }
                    }
                }
            } throws: { error in
                (error as? OAuthError)?.code == .authorizationFailed
            }
            let (status, html) = page.withLock { $0 }
            #expect(status == 400)
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!html.contains("<script"))
            #expect(!html.contains("\u{202E}"))
            #expect(!html.contains("Set-Cookie: x=1\r") && !html.contains("\r\nSet-Cookie"))
        }
    }

    @Test func aHugeRequestLineIsRefusedAndTheSignInGoesOn() async throws {
        try await signIn { base, state in
            let port = Int(base.split(separator: ":").last!)!
            let connection = try RawConnection(port: port)
            let line =
                "GET /callback?code=" + String(repeating: "A", count: 1 << 20)
                + "&state=\(state) HTTP/1.1\r\nHost: x\r\n\r\n"
            await connection.sendIgnoringClose(Array(line.utf8))
            let answer = await connection.readUntilClosed(timeout: .seconds(10))
            #expect(answer.closed, "the listener kept a connection with a 1 MiB request line open")
            #expect(!answer.text.contains("200 OK"))
        }
    }

    @Test func aConnectionThatDribblesItsRequestIsClosedAtTheDeadline() async throws {
        let handled = Lock(0)
        let receiver = try await LoopbackReceiver.start(path: "/callback", idleTimeout: .milliseconds(500)) { _ in
            handled.withLock { $0 += 1 }
            return .init(status: 200, title: "ok", message: "")
        }
        defer { Task { await receiver.stop() } }
        let slow = try RawConnection(port: receiver.port)
        let idle = try RawConnection(port: receiver.port)
        // One byte every 100 ms would take 3 s for this head; the listener must hang up long before.
        let head = Array("GET /callback?state=s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let sent = try await slow.dribble(Array(head.prefix(30)), every: .milliseconds(100))
        #expect(sent < 30, "the dribbling connection was still open after 3 s")
        #expect(await idle.readUntilClosed(timeout: .seconds(5)).closed, "the idle connection was never closed")
        #expect(handled.withLock { $0 } == 0)
        // The listener still serves a whole request.
        let (status, _, _) = try await http.send(
            .get, URL(string: "http://127.0.0.1:\(receiver.port)/callback?state=s")!)
        #expect(status == 200)
    }
}
