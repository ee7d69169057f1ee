package import Foundation
import SpotifyLinkSupport

/// One HTTP exchange as the emulator sees it.
package struct EmulatorRequest: Sendable {
    package var method: String
    package var path: String
    /// Query parameters in order; duplicates kept so they can be refused.
    package var query: [(String, String)]
    package var headers: [String: String]
    package var body: Data

    package init(method: String, path: String, query: [(String, String)], headers: [String: String], body: Data) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    package func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// The form fields of an `application/x-www-form-urlencoded` body.
    package var form: [(String, String)] { Self.parseQuery(String(decoding: body, as: UTF8.self)) }

    package static func parseQuery(_ text: String) -> [(String, String)] { FormEncoding.decodeLeniently(text) }
}

/// What the emulator answers, or the fault it plays instead.
package struct EmulatorResponse: Sendable {
    package enum Delivery: Sendable { case normal, truncated, reset }
    package var status: Int
    package var headers: [(String, String)]
    package var body: Data
    package var delivery: Delivery = .normal
    /// A body still to be built, off the emulator's actor (see ``rendered()``).
    var pending: (@Sendable () -> JSONValue)?

    /// A JSON answer built later, away from the actor, from values taken on it.
    static func deferredJSON(_ make: @escaping @Sendable () -> JSONValue) -> EmulatorResponse {
        EmulatorResponse(status: 200, headers: [jsonContentType], body: Data(), pending: make)
    }

    private static let jsonContentType = ("Content-Type", "application/json; charset=utf-8")

    /// The answer with its body built.
    func rendered() -> EmulatorResponse {
        guard let pending else { return self }
        var response = self
        response.body = pending().data
        response.pending = nil
        return response
    }

    package static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = [])
        -> EmulatorResponse
    {
        EmulatorResponse(
            status: status, headers: [jsonContentType] + headers, body: value.data)
    }

    package static func html(_ text: String, status: Int = 200) -> EmulatorResponse {
        EmulatorResponse(
            status: status,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action *"),
            ],
            body: Data(text.utf8))
    }

    /// Spotify's regular Web API error object.
    package static func apiError(_ status: Int, _ message: String, headers: [(String, String)] = []) -> EmulatorResponse
    {
        .json(
            .object([("error", .object([("status", .int(status)), ("message", .string(message))]))]), status: status,
            headers: headers)
    }

    /// The live rate-limit answer, to the byte: `{"error":{"status":429,"message":"API rate limit exceeded"}}`.
    package static func rateLimitExceeded(retryAfter: String?) -> EmulatorResponse {
        .apiError(429, "API rate limit exceeded", headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
    }

    /// The live quota answer, to the byte: `{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}`.
    package static func quotaExceeded(retryAfter: String?) -> EmulatorResponse {
        .json(
            .object([
                (
                    "error",
                    .object([
                        ("status", .int(429)), ("message", .string("Too many requests")),
                        ("reason", .string("QUOTA_EXCEEDED")),
                    ])
                )
            ]), status: 429, headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
    }

    /// `response` with a strong ETag of its body, or 304 with no body when the request's
    /// `If-None-Match` names it.
    package static func withETag(_ response: EmulatorResponse, _ request: EmulatorRequest) -> EmulatorResponse {
        let digest = response.body.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let etag = "\"\(String(digest, radix: 16))\""
        if request.headers["if-none-match"] == etag {
            return EmulatorResponse(status: 304, headers: [("ETag", etag)], body: Data())
        }
        var tagged = response
        tagged.headers.append(("ETag", etag))
        return tagged
    }

    package static func redirect(_ location: String) -> EmulatorResponse {
        EmulatorResponse(status: 302, headers: [("Location", location), ("Cache-Control", "no-store")], body: Data())
    }
}

/// The emulator's whole world, behind one actor: accounts, catalog, player, faults and counters.
package actor EmulatorState {
    package let configuration: EmulatorConfiguration
    package var catalog: Catalog
    package var baseURL = "http://127.0.0.1"
    /// What a control request must carry as `Authorization: Bearer …`.
    package nonisolated let controlToken: String
    var random: SeededGenerator
    var clockOffset: TimeInterval = 0
    let virtualStart: Date

    // Accounts
    var pendingAuthorizations: [String: PendingAuthorization] = [:]
    var codes: [String: CodeRecord] = [:]
    var accessTokens: [String: AccessRecord] = [:]
    var refreshTokens: [String: RefreshRecord] = [:]

    // Player, faults, counters
    var player = PlayerState()
    var faults: [FaultRule] = []
    var rateLimit: Int?
    var quota: Int?
    var quotaWindow: TimeInterval
    /// Web API request times per developer account within the quota window.
    var quotaTimes: [String: [Date]] = [:]
    var latency: Duration
    var serverErrorRate: Double
    var requestTimes: [String: [Date]] = [:]
    var stats: [String: [Int: Int]] = [:]
    /// Whether the request being answered may see episodes' `resume_point`: a user token with
    /// `user-read-playback-position`, as the Web API reference says.
    var readsPlaybackPosition = false
    var coverCache: [String: Data] = [:]

    package init(configuration: EmulatorConfiguration) throws {
        try self.init(configuration: configuration, catalog: nil)
    }

    /// The state `configuration` describes, on `catalog` when it was built already (the
    /// configuration's catalog file, or its generated catalog, otherwise).
    package init(configuration: EmulatorConfiguration, catalog: Catalog?) throws {
        self.configuration = configuration
        self.random = SeededGenerator(seed: configuration.seed)
        var system = SystemRandomNumberGenerator()
        self.controlToken =
            configuration.controlToken ?? "EMU_CONTROL_"
            + (0..<4).map { _ in String(system.next(), radix: 36) }.joined()
        self.catalog =
            try catalog ?? configuration.catalogFile.map { try Catalog.load(from: $0, seed: configuration.seed) }
            ?? Catalog.generated(seed: configuration.seed, extraLibraryPlaylists: configuration.extraLibraryPlaylists)
        self.rateLimit = configuration.rateLimit
        self.quota = configuration.quota
        self.quotaWindow = configuration.quotaWindow.seconds
        self.latency = configuration.latency
        self.serverErrorRate = configuration.serverErrorRate
        if case .virtual(let start) = configuration.time {
            virtualStart = start
        } else {
            virtualStart = Date()
        }
    }

    /// The emulator's current time.
    package var now: Date {
        let base: Date =
            switch configuration.time {
            case .system: Date()
            case .virtual: virtualStart
            case .external(let read): read()
            }
        return base.addingTimeInterval(clockOffset)
    }

    package func setBaseURL(_ url: String) { baseURL = url }

    /// The furthest the clock moves from its start, in seconds: a century.
    static let longestClockAdvance: TimeInterval = 100 * 365.25 * 86_400

    package func advanceClock(by seconds: TimeInterval) {
        guard seconds.isFinite else { return }
        clockOffset = min(clockOffset + max(0, seconds), Self.longestClockAdvance)
    }

    /// Routes one request and counts it, and builds its answer.
    package func handle(_ request: EmulatorRequest) async -> EmulatorResponse {
        await respond(to: request).rendered()
    }

    /// Routes one request and counts it; an answer may still have its body to build
    /// (``EmulatorResponse/rendered()``), which the HTTP responder does off the actor.
    func respond(to request: EmulatorRequest) async -> EmulatorResponse {
        let (route, response) = await dispatch(request)
        stats["\(request.method) \(route)", default: [:]][response.status, default: 0] += 1
        return response
    }

    private func dispatch(_ request: EmulatorRequest) async -> (String, EmulatorResponse) {
        let path = request.path
        if path == "/authorize" || path == "/authorize/decision" || path == "/api/token" {
            return (path, handleAccounts(request))
        }
        if path.hasPrefix("/emulator/images/") {
            return (Self.template(path), handleControl(request))
        }
        if path.hasPrefix("/emulator/") {
            // Covers are public, as Spotify's image CDN is; everything else changes the emulator's
            // world, so it needs the control token, and a browser page on another site (which can
            // send a form POST but never this header) is refused outright.
            guard request.headers["origin"] == nil else {
                return (
                    Self.template(path), .apiError(403, "The emulator's control API does not answer browser pages.")
                )
            }
            guard request.headers["authorization"] == "Bearer " + controlToken else {
                return (
                    Self.template(path),
                    .apiError(401, "The emulator's control API needs its control token (Authorization: Bearer …).")
                )
            }
            return (Self.template(path), handleControl(request))
        }
        if path.hasPrefix("/v1/") {
            let route = Self.template(path)
            if let fault = takeFault(for: request) { return (route, fault) }
            return (route, handleWebAPI(request))
        }
        return (path, .apiError(404, "Service not found"))
    }

    /// `/v1/playlists/ABC/items` → `/v1/playlists/{id}/items`, for counters.
    static func template(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.count == 22 && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                ? "{id}" : String(segment)
        }.joined(separator: "/")
    }
}
