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
    /// Starts an emulator for a test, with the event-loop lag probe running in the process
    /// (`LoopLagProbe`): a loop held back two seconds or more is reported on standard error, with
    /// every thread's stack when `SPOTLINK_LOOP_LAG_DUMP=1`. The emulator keeps its own idle
    /// timeout (ten seconds), as it does outside tests.
    package static func startForTest(_ configuration: EmulatorConfiguration = .init()) async throws
        -> EmulatorServer
    {
        LoopLagProbe.start()
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
