import Foundation
import HTTPTypes
import Logging
import SpotifyLinkSupport

/// One Web API request, before the token and the base URL are added.
struct Endpoint: Sendable {
    var method: HTTPRequest.Method = .get
    var path: String
    var query: [URLQueryItem] = []
    /// Said when the service answers 403, in place of its terse "Forbidden".
    var forbiddenHint: String?
    /// Scopes of which the sign-in needs one; checked before sending when the token provider
    /// knows what was granted.
    var scopes: [String] = []

    /// Whether the request may be sent twice (GET and HEAD).
    var isIdempotent: Bool { method.maySendTwice }

    /// Method and path with IDs folded, as the ledger counts it: `GET /playlists/{id}/items`.
    var route: String {
        let folded = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let isID = segment.count == 22 && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            return isID ? "{id}" : String(segment)
        }
        return "\(method) " + folded.joined(separator: "/")
    }
}

extension SpotifyClient {
    /// Sends `endpoint` and decodes the body as `T`; `nil` for 204 No Content.
    func sendOptional<T: Decodable>(_ endpoint: Endpoint, as type: T.Type) async throws -> T? {
        let (response, data) = try await exchange(endpoint)
        if response.status.code == 204 || data.isEmpty { return nil }
        return try decode(T.self, from: data)
    }

    func send<T: Decodable>(_ endpoint: Endpoint, as type: T.Type) async throws -> T {
        let (_, data) = try await exchange(endpoint)
        return try decode(T.self, from: data)
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try decodeSpotifyResponse(T.self, from: data)
        } catch let error as DecodingError {
            throw SpotifyAPIError.decoding(error, body: data)
        }
    }

    func url(for endpoint: Endpoint) throws -> URL {
        var components = URLComponents(url: configuration.apiBaseURL, resolvingAgainstBaseURL: false)
        components?.path += endpoint.path
        if !endpoint.query.isEmpty { components?.queryItems = endpoint.query }
        // `+` is legal in a query but servers read it as a space: encode it.
        if let encoded = components?.percentEncodedQuery {
            components?.percentEncodedQuery = encoded.replacingOccurrences(of: "+", with: "%2B")
        }
        guard let url = components?.url else {
            throw SpotifyAPIError.invalid("path", "The request URL could not be formed from \(endpoint.path).")
        }
        return url
    }

    /// Runs the request through the ledger, the gate, the token provider and the retry rules.
    ///
    /// Identical GETs in flight at once share one request (two views asking for the same playlist).
    func exchange(_ endpoint: Endpoint) async throws -> (HTTPResponse, Data) {
        let url = try url(for: endpoint)
        guard endpoint.method == .get else { return try await perform(endpoint, url: url) }
        let origin = Self.requestOrigin
        return try await inFlight.run(key: "\(origin.rawValue) \(url.absoluteString)") {
            try await self.perform(endpoint, url: url)
        }
    }

    /// Runs one request as the state machine directs: each try admitted, authorized and sent
    /// through the stages. This shell only carries out actions and reports what came of them;
    /// what the request owns (its token, its tries, the answer) is in the machine's state.
    func perform(_ endpoint: Endpoint, url: URL) async throws -> (HTTPResponse, Data) {
        let context = ExchangeContext(route: endpoint.route, background: Self.requestOrigin == .backgroundWork)
        var machine = ExchangeStateMachine(
            idempotent: endpoint.isIdempotent, maxAttempts: configuration.maxAttempts,
            maxRateLimitRetries: configuration.maxRateLimitRetries)
        var action = machine.start(destination: url)
        while true {
            switch action {
            case .admit:
                try Task.checkCancellation()
                action = machine.admission(await admission.admit())
            case .fetchToken:
                // Asked only once a request may leave: a refresh is a request too, and none is owed
                // for a call that waits out a cooldown. The provider refuses a foreign API or a
                // scope the sign-in lacks, before anything is sent.
                action = machine.tokenFetched(
                    try await tokens.accessToken(for: configuration.apiBaseURL, scopes: endpoint.scopes))
            case .send(let token):
                action = report(try await attempt(authorized(endpoint, url, token), context), to: &machine)
            case .refreshToken(let refused):
                action = machine.refreshed(try await tokens.refreshedAccessToken(replacing: refused))
            case .reportRateLimit(let retryAfter):
                action = machine.rateLimitReported(await admission.rateLimited(retryAfter: retryAfter))
            case .sleep(let duration):
                try await clock.sleep(for: duration)
                action = machine.woke()
            case .succeed(let response, let body):
                await admission.succeeded()
                return (response, body)
            case .failQuota(let retryAfter): throw await admission.quotaExceeded(retryAfter: retryAfter)
            case .failRateLimited(let wait): throw SpotifyAPIError.rateLimitedFor(wait, now: clock.now)
            case .failAnswer(let response, let body):
                throw SpotifyAPIError.from(status: response.status.code, body: body, endpoint: endpoint)
            case .failTransport(let error): throw transportFailure(error)
            case .refuse(let error): throw error
            }
        }
    }

    /// A try's outcome as the machine's event, and the machine's next action.
    func report(
        _ outcome: Result<(HTTPResponse, Data), SpotifyAPIError>, to machine: inout ExchangeStateMachine
    ) -> ExchangeStateMachine.Action {
        switch outcome {
        case .success(let (response, body)):
            let retryAfter = RetryAfter.parse(response.headerFields[.retryAfter], now: clock.now)
            return machine.answered(response, body: body, retryAfter: retryAfter, jitter: jitter())
        case .failure(let error):
            return machine.transportFailed(error, jitter: jitter())
        }
    }

    /// One try through the stages to the transport. A failure there (the transport's, or the
    /// ledger's refusal past the daily budget) is an outcome for the machine, not a throw.
    func attempt(_ request: HTTPRequest, _ context: ExchangeContext) async throws
        -> Result<(HTTPResponse, Data), SpotifyAPIError>
    {
        do {
            return .success(try await stages.send(request, context) { try await transmit($0) })
        } catch let error as SpotifyAPIError {
            return .failure(error)
        }
    }

    /// The token stage: the request with the bearer token, as JSON.
    func authorized(_ endpoint: Endpoint, _ url: URL, _ token: AccessToken) -> HTTPRequest {
        var request = HTTPRequest(method: endpoint.method, url: url)
        request.headerFields[.authorization] = "Bearer \(token.unredactedValue)"
        request.headerFields[.accept] = "application/json"
        return request
    }

    /// The transport, with the client's time and size limits.
    func transmit(_ request: HTTPRequest) async throws -> (HTTPResponse, Data) {
        try await transport.send(
            request, body: nil, timeout: configuration.requestTimeout, maxBodyBytes: configuration.maxResponseBytes)
    }

    /// A transport failure worded for people: a body over the size limit, or Spotify out of reach.
    func transportFailure(_ error: SpotifyAPIError) -> SpotifyAPIError {
        if error.code == .responseTooLarge {
            return SpotifyAPIError(
                code: .responseTooLarge,
                message: "Spotify's answer was larger than \(configuration.maxResponseBytes) bytes and was not read.",
                underlying: error)
        }
        let message =
            error.notAnswering
            ? "Spotify is not answering: \(error.message) of sending. A captive portal or a stalled proxy can "
                + "hold a connection this way: check the network connection (sign in to the Wi-Fi, or try "
                + "another network), then try again."
            : "Could not reach Spotify: \(error.message). Check the network connection and try again."
        var unreachable = SpotifyAPIError(code: .transport, message: message, underlying: error)
        unreachable.nothingAnswered = error.nothingAnswered
        unreachable.notAnswering = error.notAnswering
        return unreachable
    }
}

extension SpotifyAPIError {
    /// Spotify's regular error object.
    private struct Envelope: Decodable {
        struct Body: Decodable {
            var status: Int?
            var message: String?
            var reason: String?
        }
        var error: Body
    }

    static func from(status: Int, body: Data, endpoint: Endpoint) -> SpotifyAPIError {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: body)
        let said = envelope?.error.message.map { sanitized($0) }
        let code: Code
        var message: String
        switch status {
        case 400:
            code = .badRequest
            message = "Spotify rejected the request" + (said.map { ": \($0)." } ?? ".")
        case 401:
            code = .unauthorized
            message =
                "Spotify did not accept the access token even after a refresh" + (said.map { " (\($0))" } ?? "")
                + ". The sign-in is kept: try again in a moment."
        case 403:
            return refusal(body: body, endpoint: endpoint)
        case 404 where endpoint.path.hasPrefix("/playlists/37i9dQZ"):
            // Spotify's editorial and algorithmic playlists: 404 to every Development Mode app,
            // though they exist and open in Spotify (the contract).
            code = .notFound
            message =
                "This is one of Spotify's own playlists (such as Today's Top Hits or Discover Weekly): Spotify "
                + "does not share their details with apps like this one. It still opens in Spotify."
        case 404:
            code = .notFound
            message = "Spotify has no such object (it may have been deleted)."
        case 429:
            code = envelope?.error.reason == "QUOTA_EXCEEDED" ? .quotaExceeded : .rateLimited
            message = "Spotify's rate limit was reached."
        case 500...599:
            code = .server
            message = "Spotify had a server error (HTTP \(status)). Try again later."
        default:
            code = .badRequest
            message = "Spotify answered HTTP \(status)" + (said.map { ": \($0)" } ?? "") + "."
        }
        return SpotifyAPIError(code: code, status: status, message: message)
    }

    /// The `reason` of an error body's JSON envelope (`QUOTA_EXCEEDED`, `PREMIUM_REQUIRED`), if any.
    static func reason(_ body: Data) -> String? {
        (try? JSONDecoder().decode(Envelope.self, from: body))?.error.reason
    }

    /// The message of an error body: the JSON envelope's, or the text itself (a 403 for a user
    /// not on the allow list is plain text).
    static func bodyText(_ body: Data) -> String? {
        if let message = (try? JSONDecoder().decode(Envelope.self, from: body))?.error.message { return message }
        let text = String(decoding: body.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text.hasPrefix("{") ? nil : text
    }

    static func decoding(_ error: DecodingError, body: Data) -> SpotifyAPIError {
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                context
            @unknown default: nil
            }
        let path = context?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        let excerpt = sanitized(String(decoding: body.prefix(120), as: UTF8.self), limit: 120)
        return SpotifyAPIError(
            code: .decoding,
            message: "Spotify's answer could not be read at '\(path ?? "")' "
                + "(\(body.count) bytes, starting \(excerpt)). Update SpotifyLink or report this.",
            underlying: error)
    }
}
