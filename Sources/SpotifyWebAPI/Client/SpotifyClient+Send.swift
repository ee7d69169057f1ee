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

    /// Method and path with IDs folded, as the ledger counts it: `GET /playlists/{id}/items`.
    var route: String {
        let folded = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let isID = segment.count == 22 && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            return isID ? "{id}" : String(segment)
        }
        return "\(method) " + folded.joined(separator: "/")
    }
}

/// What a quota 429 imposes.
enum TooManyRequests {
    /// The cooldown a quota 429 imposes: its `Retry-After`, capped at a day; an hour when the
    /// header is missing or unreadable (retrying sooner would only lengthen the penalty).
    static func quotaCooldown(retryAfter: Duration?, now: Date) -> Cooldown {
        let asked = retryAfter.flatMap { $0 > .zero ? $0 : nil } ?? RequestLedger.quotaCooldownWithoutRetryAfter
        let wait = min(asked, RequestLedger.maximumCooldown)
        return Cooldown(kind: .quota, until: now.addingTimeInterval(wait.seconds), learnedAt: now)
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
        let priority = Self.requestPriority
        return try await inFlight.run(key: "\(priority.rawValue) \(url.absoluteString)") {
            try await self.perform(endpoint, url: url)
        }
    }

    /// Refuses to put a bearer token on the wire unencrypted (plain `http` to anything but this
    /// machine) or toward an API its tokens do not belong to.
    private func checkDestination(_ url: URL) async throws {
        let host = (url.host ?? "").lowercased()
        let loopback = host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
        guard url.scheme == "https" || (url.scheme == "http" && loopback) else {
            throw SpotifyAPIError.invalid(
                "apiBaseURL",
                "An access token is sent only over https (or plain http to this machine, for an emulator); "
                    + "\(url.scheme ?? "?")://\(host) was refused. Fix the API base URL.")
        }
        guard await tokens.issues(for: configuration.apiBaseURL) else {
            throw SpotifyAPIError.invalid(
                "apiBaseURL",
                "These tokens belong to another Spotify service than \(host); none was sent. "
                    + "Use the API of the accounts service you signed in with.")
        }
    }

    private func perform(_ endpoint: Endpoint, url: URL) async throws -> (HTTPResponse, Data) {
        try await checkDestination(url)
        let idempotent = endpoint.method == .get || endpoint.method == .head
        let route = endpoint.route
        let background = Self.requestPriority == .background
        if !endpoint.scopes.isEmpty, let granted = await tokens.grantedScopes(),
            granted.isDisjoint(with: endpoint.scopes)
        {
            throw SpotifyAPIError.missingScope(endpoint.scopes[0], granted: granted)
        }
        // Fetched only once the request may leave: a refresh is a request too, and none is owed
        // for a call that fails for a missing scope or waits out a cooldown.
        var token: AccessToken?
        var machine = ExchangeStateMachine(
            idempotent: idempotent, maxAttempts: configuration.maxAttempts,
            maxRateLimitRetries: configuration.maxRateLimitRetries)
        while true {
            try Task.checkCancellation()
            try await admit()
            let current: AccessToken
            if let token {
                current = token
            } else {
                current = try await tokens.accessToken()
                token = current
            }
            var request = HTTPRequest(method: endpoint.method, url: url)
            request.headerFields[.authorization] = "Bearer \(current.unredactedValue)"
            request.headerFields[.accept] = "application/json"
            let validator = idempotent ? await validators.validator(for: url) : nil
            if let validator { request.headerFields[.ifNoneMatch] = validator.etag }
            logger?.debug(
                "spotify request", metadata: ["method": "\(endpoint.method)", "path": "\(endpoint.path)"])
            let response: HTTPResponse
            let data: Data
            let sentAt = clock.now
            do {
                (response, data) = try await transport.send(
                    request, body: nil, timeout: configuration.requestTimeout,
                    maxBodyBytes: configuration.maxResponseBytes)
            } catch let error as SpotifyAPIError {
                await ledger.record(LedgerEntry(sentAt: sentAt, endpoint: route, status: nil, background: background))
                logger?.debug("spotify transport error", metadata: ["error": "\(error)"])
                switch machine.transportFailed(error) {
                case .failTooLarge:
                    throw SpotifyAPIError(
                        code: .responseTooLarge,
                        message:
                            "Spotify's answer was larger than \(configuration.maxResponseBytes) bytes and was not read.",
                        underlying: error)
                case .backOffThenRetry(let attempt):
                    try await backOff(after: attempt)
                    continue
                default:
                    throw SpotifyAPIError(
                        code: .transport,
                        message:
                            "Could not reach Spotify: \(error.message). Check the network connection and try again.",
                        underlying: error)
                }
            }
            let status = response.status.code
            await ledger.record(LedgerEntry(sentAt: sentAt, endpoint: route, status: status, background: background))
            logger?.debug("spotify response", metadata: ["path": "\(endpoint.path)", "status": "\(status)"])
            let now = clock.now
            let retryAfter = status == 429 ? RetryAfter.parse(response.headerFields[.retryAfter], now: now) : nil
            var action = machine.received(
                status: status, body: data, retryAfter: retryAfter, sentValidator: validator != nil)
            if case .consultGate(let retryAfter) = action {
                let decision = await gate.rateLimited(
                    retryAfter: retryAfter.map { min($0, RequestLedger.maximumCooldown) })
                if let until = await gate.closedUntil() {
                    await ledger.learn(Cooldown(kind: .rateLimit, until: until, learnedAt: now))
                }
                action = machine.gateDecided(decision)
            }
            switch action {
            case .useCachedBody:
                await gate.succeeded()
                return (HTTPResponse(status: .ok, headerFields: response.headerFields), validator?.body ?? data)
            case .succeed:
                await gate.succeeded()
                if idempotent, let etag = response.headerFields[.eTag] {
                    await validators.remember(etag: etag, body: data, for: url)
                }
                return (response, data)
            case .retry, .consultGate:
                continue
            case .pauseThenRetry(let pause):
                try await clock.sleep(for: pause)
            case .refreshThenRetry:
                token = try await tokens.refreshedAccessToken(replacing: current)
            case .backOffThenRetry(let attempt):
                try await backOff(after: attempt)
            case .failWithQuotaCooldown(let retryAfter):
                let cooldown = TooManyRequests.quotaCooldown(retryAfter: retryAfter, now: now)
                await ledger.learn(cooldown)
                await gate.close(until: cooldown.until)
                throw SpotifyAPIError.cooldown(cooldown, now: now)
            case .failRateLimited(let wait):
                throw SpotifyAPIError.cooldown(
                    Cooldown(kind: .rateLimit, until: now.addingTimeInterval(wait.seconds), learnedAt: now), now: now)
            case .failWithStatus, .failTransport, .failTooLarge:
                throw SpotifyAPIError.from(status: status, body: data, endpoint: endpoint)
            }
        }
    }

    /// Waits for the gate, or fails before sending: during a cooldown any process learned, and for
    /// background work past the daily budget.
    private func admit() async throws {
        let now = clock.now
        if let cooldown = await ledger.activeCooldown(at: now) {
            // Sending during a quota cooldown lengthens it: fail at once, whatever the wait.
            if cooldown.kind == .quota { throw SpotifyAPIError.cooldown(cooldown, now: now) }
            await gate.close(until: cooldown.until)
        }
        if Self.requestPriority == .background, let budget = ledger.dailyBudget,
            let reopens = await ledger.budgetReopens(at: now)
        {
            throw SpotifyAPIError.budgetExhausted(budget: budget, reopens: reopens, now: now)
        }
        try await gate.waitForTurn()
    }

    private func backOff(after failures: Int) async throws {
        let step = min(0.5 * Double(1 << min(failures - 1, 8)), 8)
        try await clock.sleep(for: .clampedSeconds(step * Double.random(in: 0.75...1.25)))
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
