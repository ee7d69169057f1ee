package import Foundation
package import HTTPTypes
import LocalHTTPServer
public import SpotifyEmulator
import SpotifyLinkSupport
@_spi(Transport) import SpotifyWebAPI

/// Runs `body` against a fresh emulator on `127.0.0.1:0` and always shuts it down.
///
/// The host and port of `configuration` are overridden: tests bind loopback and any free port.
@discardableResult
public func withEmulator<T>(
    _ configuration: EmulatorConfiguration = .init(),
    _ body: (EmulatorServer) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = try await EmulatorServer.startForTest(configuration)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

extension EmulatorServer {
    /// How long a test's emulator keeps a connection without a byte from the client: two minutes,
    /// where the emulator's own default is ten seconds.
    ///
    /// Under ThreadSanitizer on a loaded two-core machine, the event loop that reads a waiting
    /// request was held back past ten seconds, and the idle timer then closed connections whose
    /// requests had already arrived: CI saw "the connection was lost" and "Connection reset by
    /// peer" on sign-ins and token exchanges of tests that had nothing to do with the timeout. The
    /// tests of the timeout itself set their own.
    package static let testIdleTimeout: Duration = .seconds(120)

    /// Starts an emulator for a test: `configuration` as given, but with ``testIdleTimeout`` unless
    /// the test set an idle timeout of its own.
    package static func startForTest(_ configuration: EmulatorConfiguration = .init()) async throws
        -> EmulatorServer
    {
        LoopLagProbe.start()
        var configuration = configuration
        if configuration.connectionIdleTimeout == EmulatorConfiguration().connectionIdleTimeout {
            configuration.connectionIdleTimeout = testIdleTimeout
        }
        return try await start(configuration)
    }
}

/// Plain HTTP for tests that act as a browser or a third-party client: no redirects followed,
/// whole bodies returned.
package struct TestHTTP: Sendable {
    let transport = platformDefaultTransport()

    /// How long one exchange may take before it fails as timed out.
    package static let timeout: Duration = .seconds(180)

    /// A client with a fresh session configuration.
    package init() {}

    /// One exchange; `form` fields become an `application/x-www-form-urlencoded` body.
    package func send(
        _ method: HTTPRequest.Method = .get, _ url: URL, headers: [String: String] = [:],
        form: [(String, String)]? = nil
    ) async throws -> (status: Int, headers: HTTPFields, body: Data) {
        var request = HTTPRequest(method: method, url: url)
        for (name, value) in headers { if let field = HTTPField.Name(name) { request.headerFields[field] = value } }
        var body: Data?
        if let form {
            request.headerFields[.contentType] = "application/x-www-form-urlencoded"
            body = Data(Self.formEncode(form).utf8)
        }
        // A guard against a hang, not timing logic: under ThreadSanitizer, with every test in flight
        // on two cores, one exchange with the in-process emulator or listener has taken more than
        // 30 s (two loopback page tests of a 2026-11-27 rehearsal failed so, and one of them in an
        // earlier rehearsal), though nothing hung.
        let (response, data) = try await transport.send(
            request, body: body, timeout: Self.timeout, maxBodyBytes: 64 << 20)
        return (response.status.code, response.headerFields, data)
    }

    /// JSON of an exchange, as a dictionary.
    package func json(_ url: URL, token: String? = nil) async throws -> (status: Int, object: [String: Any]) {
        let (status, _, data) = try await send(
            .get, url, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return (status, object ?? [:])
    }

    /// `fields` as an `application/x-www-form-urlencoded` body.
    package static func formEncode(_ fields: [(String, String)]) -> String {
        FormEncoding.encode(fields)
    }
}

extension URL {
    /// The value of a query parameter.
    package func queryValue(_ name: String) -> String? {
        URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}
