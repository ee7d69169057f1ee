import Foundation
import HTTPTypes
import Logging

/// One step of a request's way to the network and back, shaped like swift-openapi-runtime's
/// `ClientMiddleware`: it may change the request, passes it on with `next`, and may change or look
/// at the answer. Each stage is tested alone with a `next` of the test's own.
///
/// An attempt goes through the conditional-request stage (ETags), the ledger (every request
/// counted), the log, then the transport. The stages before them run once per request (the
/// destination and scope checks) or between attempts (admission, the token): see
/// `SpotifyClient.perform(_:url:)`. The chain is built once per client; what differs between
/// requests travels with each in its ``ExchangeContext``.
protocol ExchangeStage: Sendable {
    /// Handles `request`, calling `next` to send it on.
    func send(
        _ request: HTTPRequest, _ context: ExchangeContext, next: (HTTPRequest) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data)
}

/// What the stages know of a request beyond its HTTP form.
struct ExchangeContext: Sendable {
    /// Method and folded path, as `GET /playlists/{id}`.
    let route: String
    /// Whether background work sent it (the daily budget applies).
    let background: Bool
}

extension Collection where Element == any ExchangeStage {
    /// Sends `request` through the stages in order, and the last one's `next` to `terminal`.
    func send(
        _ request: HTTPRequest, _ context: ExchangeContext,
        to terminal: (HTTPRequest) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        guard let first else { return try await terminal(request) }
        return try await first.send(request, context) { try await dropFirst().send($0, context, to: terminal) }
    }
}

/// Sends back the ETag of an answer Spotify gave one, and answers a `304 Not Modified` with the
/// body it stands for: the rest of the client never sees a 304. GET and HEAD only.
struct ConditionalRequestStage: ExchangeStage {
    let cache: ValidatorCache

    func send(
        _ request: HTTPRequest, _ context: ExchangeContext, next: (HTTPRequest) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        guard request.method == .get || request.method == .head, let url = request.url else {
            return try await next(request)
        }
        let validator = await cache.validator(for: url)
        var request = request
        if let validator { request.headerFields[.ifNoneMatch] = validator.etag }
        let (response, data) = try await next(request)
        if response.status.code == 304, let validator {
            return (HTTPResponse(status: .ok, headerFields: response.headerFields), validator.body)
        }
        if (200..<300).contains(response.status.code), let etag = response.headerFields[.eTag] {
            await cache.remember(etag: etag, body: data, for: url)
        }
        return (response, data)
    }
}

/// Counts every request in the ledger as it leaves: its route, the status (or none, when no answer
/// came) and whether background work sent it. What the quota economy is measured by. A background
/// request past the daily budget is refused in the same step as the count, and never sent; so is
/// any request the ledger cannot count.
struct LedgerStage: ExchangeStage {
    let ledger: RequestLedger
    let clock: any SpotifyClock

    func send(
        _ request: HTTPRequest, _ context: ExchangeContext, next: (HTTPRequest) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        // Counted before it leaves, so processes sharing the ledger cannot together pass the
        // budget; an entry whose answer never comes keeps no status ("no answer").
        let id = try await ledger.reserve(route: context.route, background: context.background, at: clock.now)
        let (response, data) = try await next(request)
        await ledger.settle(id, status: response.status.code)
        return (response, data)
    }
}

/// Logs each request and its outcome at debug level, when the client was given a logger. The
/// path and the status only: never a token or a body.
struct LoggingStage: ExchangeStage {
    let logger: Logger

    func send(
        _ request: HTTPRequest, _ context: ExchangeContext, next: (HTTPRequest) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        let path = request.url?.path ?? ""
        logger.debug("spotify request", metadata: ["method": "\(request.method)", "path": "\(path)"])
        do {
            let (response, data) = try await next(request)
            logger.debug("spotify response", metadata: ["path": "\(path)", "status": "\(response.status.code)"])
            return (response, data)
        } catch let error as SpotifyAPIError {
            logger.debug("spotify transport error", metadata: ["error": "\(error)"])
            throw error
        }
    }
}
