public import Foundation
public import HTTPTypes
import SpotifyLinkSupport

/// Sends one HTTP request and returns the whole response.
///
/// The client's only door to the network. ``platformDefaultTransport()`` is the real one (async-http-client
/// on Linux, `URLSession` on Apple platforms); tests use a scripted transport (`SpotifyTesting`) or
/// real HTTP against the emulator. Apps pass one along and never send through it: `send(_:body:timeout:maxBodyBytes:)`
/// and the two platform transports are the transport interface, for implementers
/// (`@_spi(Transport) import SpotifyWebAPI`).
public protocol Transport: Sendable {
    /// Sends `request` to `url` and collects the response body.
    ///
    /// - Parameters:
    ///   - request: the method, URL and headers.
    ///   - body: the request body, if any.
    ///   - timeout: how long the exchange may take from start to last byte.
    ///   - maxBodyBytes: a larger body ends the exchange with
    ///     ``SpotifyAPIError/responseTooLarge(limit:)`` before more than that is held in memory.
    /// - Throws: a ``SpotifyAPIError`` made by ``SpotifyAPIError/transport(_:)``,
    ///   ``SpotifyAPIError/timedOut`` or ``SpotifyAPIError/responseTooLarge(limit:)`` when no whole
    ///   answer arrived (the layer above words it for people), or `CancellationError`.
    @_spi(Transport) func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws
        -> (HTTPResponse, Data)
}

/// The real transport of this platform, one for the process so connections are reused:
/// ``URLSessionTransport/shared`` where `URLSession` is the system's own (Apple platforms), and
/// `AsyncHTTPClientTransport.shared` on Linux, whose reads have backpressure.
public func platformDefaultTransport() -> any Transport {
    #if os(Linux) && canImport(AsyncHTTPClient)
        AsyncHTTPClientTransport.shared
    #else
        URLSessionTransport.shared
    #endif
}

extension HTTPRequest.Method {
    /// Whether a request with this method may be sent a second time when the first was lost:
    /// GET and HEAD, which read only. (PUT and DELETE are idempotent by RFC 9110, but some of
    /// Spotify's, such as starting playback, are not worth repeating unasked.)
    var maySendTwice: Bool { self == .get || self == .head }
}

/// How long the package's transports wait for the first of an answer (connection, request and
/// the status line) before they give up on the request: 10 s, which Spotify's answers (well under
/// a second) never come near, so a stalled proxy or a captive portal is said in seconds instead
/// of after every retry of a 30 s timeout. The whole seconds in `SPOTLINK_ANSWER_DEADLINE` set it
/// for an environment known to be slow (the test suite under ThreadSanitizer sets 120).
package enum AnswerDeadline {
    /// 10 s, or what the environment sets.
    package static let `default`: Duration = fromEnvironment(ProcessInfo.processInfo.environment) ?? .seconds(10)

    /// `SPOTLINK_ANSWER_DEADLINE`: the default in whole seconds.
    package static let environmentVariable = "SPOTLINK_ANSWER_DEADLINE"

    /// The deadline `environment` sets, or `nil` when it sets none or not a positive whole number.
    package static func fromEnvironment(_ environment: [String: String]) -> Duration? {
        .wholeSeconds(in: environment, environmentVariable)
    }
}
