public import Foundation
public import HTTPTypes

/// Sends one HTTP request and returns the whole response.
///
/// The client's only door to the network. ``platformDefaultTransport()`` is the real one (async-http-client
/// on Linux, `URLSession` on Apple platforms); tests use a scripted transport (`SpotifyTesting`) or
/// real HTTP against the emulator.
public protocol Transport: Sendable {
    /// Sends `request` to `url` and collects the response body.
    ///
    /// - Parameters:
    ///   - request: the method, URL and headers.
    ///   - body: the request body, if any.
    ///   - timeout: how long the exchange may take from start to last byte.
    ///   - maxBodyBytes: a larger body ends the exchange with ``TransportError/bodyTooLarge(limit:)``
    ///     before more than that is held in memory.
    /// - Throws: ``TransportError``, or `CancellationError`.
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws
        -> (HTTPResponse, Data)
}

/// The real transport of this platform: ``AsyncHTTPClientTransport`` on Linux, whose reads have
/// backpressure, and ``URLSessionTransport`` where `URLSession` is the system's own.
public func platformDefaultTransport() -> any Transport {
    #if canImport(AsyncHTTPClient)
        AsyncHTTPClientTransport()
    #else
        URLSessionTransport()
    #endif
}

/// Why an exchange did not produce a response.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The exchange took longer than its timeout.
    case timedOut
    /// No connection could be made; the text says why.
    case cannotConnect(String)
    /// The connection broke before the answer was complete.
    case connectionLost(String)
    /// The body was larger than `limit` bytes; reading stopped there.
    case bodyTooLarge(limit: Int)
    /// The request's URL cannot be sent.
    case invalidURL
    /// Another failure; the text says what.
    case other(String)

    public var description: String {
        switch self {
        case .timedOut: "the request timed out"
        case .cannotConnect(let detail): "could not connect (\(detail))"
        case .connectionLost(let detail): "the connection was lost (\(detail))"
        case .bodyTooLarge(let limit): "the response was larger than \(limit) bytes"
        case .invalidURL: "the URL is not valid"
        case .other(let detail): detail
        }
    }
}
