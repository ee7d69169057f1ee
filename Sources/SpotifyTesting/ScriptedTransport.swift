public import Foundation
public import HTTPTypes
import SpotifyLinkSupport
@_spi(Transport) public import SpotifyWebAPI
import Synchronization

/// A transport that answers from a script instead of the network, and records every request.
///
/// A request with no scripted answer left fails loudly with the request's method and path, so a
/// test never passes on an answer it did not mean to give.
public final class ScriptedTransport: Transport {
    /// What the transport answers to one request.
    public enum Reply: Sendable {
        /// An HTTP response.
        case response(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// A transport failure instead of a response.
        case failure(SpotifyAPIError)

        /// A JSON body with `status`.
        public static func json(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> Reply {
            var all = headers
            all["Content-Type"] = "application/json"
            return .response(status: status, headers: all, body: Data(body.utf8))
        }

        /// Spotify's regular error object.
        public static func apiError(_ status: Int, _ message: String, headers: [String: String] = [:]) -> Reply {
            .json(#"{"error":{"status":\#(status),"message":"\#(message)"}}"#, status: status, headers: headers)
        }
    }

    /// Answers the `index`th request (from 0).
    public typealias Handler = @Sendable (_ request: HTTPRequest, _ index: Int) async throws -> Reply

    private let handler: Handler
    private let log = Lock<[(request: HTTPRequest, body: Data?)]>([])

    /// Answers each request with `handler(request, index)`, where `index` counts from 0.
    public init(handler: @escaping Handler) {
        self.handler = handler
    }

    /// Answers requests in order with `replies`.
    public convenience init(_ replies: [Reply]) {
        self.init { request, index in
            guard index < replies.count else {
                throw SpotifyAPIError.transport(
                    "ScriptedTransport: no reply left for request \(index + 1): \(request.method) \(request.path ?? "")"
                )
            }
            return replies[index]
        }
    }

    /// Every request sent so far.
    public var requests: [HTTPRequest] { log.withLock { $0.map(\.request) } }

    /// The body of every request sent so far, as text (empty for a request without one), in order.
    public var requestBodies: [String] {
        log.withLock { $0.map { String(decoding: $0.body ?? Data(), as: UTF8.self) } }
    }

    public func send(
        _ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int
    ) async throws -> (HTTPResponse, Data) {
        let index = log.withLock { log in
            log.append((request, body))
            return log.count - 1
        }
        switch try await handler(request, index) {
        case .failure(let error):
            throw error
        case .response(let status, let headers, let body):
            guard body.count <= maxBodyBytes else { throw SpotifyAPIError.responseTooLarge(limit: maxBodyBytes) }
            var fields = HTTPFields()
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                if let field = HTTPField.Name(name) { fields[field] = value }
            }
            return (HTTPResponse(status: .init(code: status), headerFields: fields), body)
        }
    }
}

/// The platform's transport with a hang guard in place of the caller's timeout: for tests whose
/// client or token endpoint talks to the in-process emulator. Not timing logic: under
/// ThreadSanitizer, with every test in flight on two cores, one exchange has taken more than the
/// client's 30 s, and its retry found the fault the test had injected already spent (two
/// `PlayerAndFaultTests` and one `LearningAppTests` in a 2026-11-27 rehearsal; another
/// `LearningAppTests` token request in CI stop 72), so every test client of the emulator takes it.
public struct PatientTransport: Transport {
    private static let transport: any Transport = {
        // As patient for the answer's first byte as for the whole exchange.
        #if os(Linux) && canImport(AsyncHTTPClient)
            AsyncHTTPClientTransport(clock: SystemClock(), answerDeadline: TestHTTP.timeout)
        #else
            URLSessionTransport(clock: SystemClock(), answerDeadline: TestHTTP.timeout)
        #endif
    }()

    /// The platform's transport, patient.
    public init() {}

    public func send(
        _ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int
    ) async throws -> (HTTPResponse, Data) {
        try await Self.transport.send(request, body: body, timeout: TestHTTP.timeout, maxBodyBytes: maxBodyBytes)
    }
}
