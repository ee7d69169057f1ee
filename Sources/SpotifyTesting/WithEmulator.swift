package import Foundation
package import HTTPTypes
public import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyWebAPI

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
    let server = try await EmulatorServer.start(configuration)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Plain HTTP for tests that act as a browser or a third-party client: no redirects followed,
/// whole bodies returned.
package struct TestHTTP: Sendable {
    let transport = platformDefaultTransport()

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
        let (response, data) = try await transport.send(
            request, body: body, timeout: .seconds(30), maxBodyBytes: 64 << 20)
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
