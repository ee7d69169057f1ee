import AppAttest
import Crypto
import Foundation
import HTTPTypes
package import Logging
import Prometheus
package import ServiceLifecycle
import SpotifyAuth
@_spi(Transport) package import SpotifyWebAPI
package import X509

/// One request as the service reads it, whatever server carried it.
package struct ServiceRequest: Sendable {
    package var method: String
    package var path: String
    /// The query items, percent-decoded, in their order.
    package var query: [(name: String, value: String)]
    /// Header values by lowercased name.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The client's address (the last `X-Forwarded-For` hop when the configuration trusts it).
    package var address: String

    package init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:],
        body: [UInt8] = [], address: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.address = address
    }

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The signature's header `field` (one of ``Field``'s, lowercased once, not at each lookup).
    func header(_ field: Field) -> String? { headers[field.name] }

    /// The signature's headers, as `headers` keys them.
    struct Field {
        let name: String
        static let challenge = Field(name: SearchServiceSignature.challengeHeader.lowercased())
        static let keyID = Field(name: SearchServiceSignature.keyIDHeader.lowercased())
        static let assertion = Field(name: SearchServiceSignature.assertionHeader.lowercased())
        static let development = Field(name: SearchServiceSignature.developmentHeader.lowercased())
        static let device = Field(name: SearchServiceSignature.deviceHeader.lowercased())
    }
}

/// One answer: a status, headers and a body.
package struct ServiceResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]
    /// For a refusal, its error code (what the metrics count it under).
    package var code: String?

    /// A JSON error answer: `{"error": {"code": …, "message": …}}`.
    static func error(_ status: Int, _ code: String, _ message: String, retryAfter: Int? = nil) -> ServiceResponse {
        let object: [String: Any] = ["error": ["code": code, "message": message]]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        var headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
        if let retryAfter { headers.append(("Retry-After", "\(max(retryAfter, 1))")) }
        return ServiceResponse(status: status, headers: headers, body: Array(body), code: code)
    }

    static func json(_ status: Int, _ object: [String: Any]) -> ServiceResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return ServiceResponse(
            status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: Array(body))
    }
}

/// The search service: answers what a signed-out app needs (track search, a track) for devices of
/// the configured apps proven genuine by App Attest, with the developer's app token, inside the
/// service's daily share of the quota. It never hands out a token.
///
/// Routes: `POST /v1/attest/challenge`, `POST /v1/attest`, `GET /v1/search?q=&limit=&offset=`,
/// `GET /v1/tracks/{id}`, `GET /health/live`, `GET /health/ready`, `GET /metrics`.
package final class SearchService: Sendable {
    package let configuration: SearchServiceConfiguration
    package let store: any SearchServiceStore
    package let metrics: SearchServiceMetrics
    let client: SpotifyClient
    let verifiers: [AppAttestVerifier]
    let clock: any SpotifyClock
    let logger: Logger
    let inFlight = SearchesInFlight()
    /// What runs beside the HTTP server and stops after it: the PostgreSQL pool when there is one.
    let companions: [any ServiceLifecycle.Service]

    /// How long a challenge may be used: five minutes.
    static let challengeLifetime: TimeInterval = 300
    /// The largest body read (an attestation is 5–6 KB).
    package static let maxBody = 16 * 1024
    /// The limits' window.
    static let window: Duration = .seconds(60)

    /// A service with `configuration`, its state in `store`, counting in `ledger`.
    /// - Parameters:
    ///   - roots: the App Attestation roots chains must end at: Apple's, or a test's.
    ///   - transport: how requests reach Spotify.
    package init(
        configuration: SearchServiceConfiguration, store: any SearchServiceStore, ledger: RequestLedger,
        roots: [AppAttestRoot] = [.apple], transport: any Transport = platformDefaultTransport(),
        clock: any SpotifyClock = SystemClock(), logger: Logger, companions: [any ServiceLifecycle.Service] = []
    ) {
        self.configuration = configuration
        self.companions = companions
        self.store = store
        self.clock = clock
        self.logger = logger
        let metrics = SearchServiceMetrics()
        self.metrics = metrics
        verifiers = configuration.appIDs.map {
            AppAttestVerifier(appID: $0, environments: configuration.environments, roots: roots.map(\.certificate))
        }
        let tokens = ClientCredentialsProvider(
            endpoint: TokenEndpoint(
                server: configuration.spotify, clientID: configuration.clientID, transport: transport, clock: clock),
            secret: configuration.clientSecret, clock: clock)
        var clientConfiguration = SpotifyClient.Configuration(apiBaseURL: configuration.spotify.apiBaseURL)
        // A device waits for its answer: a long Retry-After is passed on to it, not waited out here.
        clientConfiguration.maxRateLimitWait = .seconds(2)
        client = SpotifyClient(
            configuration: clientConfiguration, tokens: tokens,
            transport: CountingTransport(transport, metrics.spotifyRequests),
            clock: clock, logger: logger, ledger: ledger)
    }

    /// Answers `request`. Never throws: every failure is an answer with a code and what to do.
    package func respond(to request: ServiceRequest) async -> ServiceResponse {
        let started = ContinuousClock.now
        let (route, response) = await route(request)
        metrics.answered(route, status: response.status)
        if let code = response.code { metrics.refused(code) }
        metrics.duration.record(ContinuousClock.now - started)
        return response
    }

    private func route(_ request: ServiceRequest) async -> (String, ServiceResponse) {
        switch (request.method, request.path) {
        case ("GET", "/health/live"): return ("live", .json(200, ["status": "live"]))
        case ("GET", "/health/ready"):
            let ready = await store.isReadable()
            return (
                "ready",
                ready ? .json(200, ["status": "ready"]) : .error(503, "not_ready", "The database does not answer.")
            )
        case ("GET", "/metrics"):
            return (
                "metrics",
                ServiceResponse(
                    status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: metrics.exposition())
            )
        case ("POST", "/v1/attest/challenge"): return ("challenge", await challenge(request))
        case ("POST", "/v1/attest"): return ("attest", await attest(request))
        case ("GET", "/v1/search"): return ("search", await signed(request) { try await self.search(request) })
        case ("GET", let path) where path.hasPrefix("/v1/tracks/"):
            return ("track", await signed(request) { try await self.track(request) })
        case (_, "/v1/attest"), (_, "/v1/attest/challenge"):
            return ("other", Self.methodNotAllowed(allow: "POST"))
        case (_, "/v1/search"), (_, "/health/live"), (_, "/health/ready"), (_, "/metrics"):
            return ("other", Self.methodNotAllowed(allow: "GET"))
        case (_, let path) where path.hasPrefix("/v1/tracks/"):
            return ("other", Self.methodNotAllowed(allow: "GET"))
        default:
            return ("other", .error(404, "not_found", "The service answers /v1/search and /v1/tracks/{id} only."))
        }
    }

    /// A 405 naming the one method the route takes, in words and in `Allow`; the request's own
    /// method is never echoed (it is the caller's text, and a message stays one line).
    static func methodNotAllowed(allow: String) -> ServiceResponse {
        var response = ServiceResponse.error(405, "method_not_allowed", "This route takes \(allow) only.")
        response.headers.append(("Allow", allow))
        return response
    }

    // MARK: Challenges and attestation

    private func challenge(_ request: ServiceRequest) async -> ServiceResponse {
        if let refusal = await admit(address: request.address) { return refusal }
        do {
            return .json(200, ["challenge": try await issueChallenge(), "expiresIn": Int(Self.challengeLifetime)])
        } catch {
            return storeFailure(error)
        }
    }

    /// 256 random bits, Base64URL: 43 characters.
    static func newChallenge() -> String {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URL
    }

    func issueChallenge() async throws -> String {
        let value = Self.newChallenge()
        let now = clock.now
        try await store.issueChallenge(value, expiresAt: now.addingTimeInterval(Self.challengeLifetime), now: now)
        return value
    }

    private func attest(_ request: ServiceRequest) async -> ServiceResponse {
        if let refusal = await admit(address: request.address) { return refusal }
        guard request.body.count <= Self.maxBody else {
            return .error(413, "too_large", "An attestation is at most \(Self.maxBody) bytes.")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any],
            let keyIDText = object["keyID"] as? String, let keyID = Data(base64Encoded: keyIDText),
            let attestationText = object["attestation"] as? String,
            let attestation = Data(base64Encoded: attestationText), let challenge = object["challenge"] as? String
        else {
            return .error(
                400, "bad_attestation_request",
                "Send JSON with keyID, attestation (both Base64) and the challenge from POST /v1/attest/challenge.")
        }
        do {
            guard try await store.consumeChallenge(challenge, now: clock.now) else {
                return .error(401, "challenge_unknown", "The challenge is unknown, used or expired: ask for a new one.")
            }
            var lastError: AppAttestError?
            for verifier in verifiers {
                do {
                    let key = try await verifier.verifyAttestation(
                        Array(attestation), keyID: Array(keyID), challenge: Array(challenge.utf8), at: clock.now)
                    guard
                        try await store.saveKey(
                            DeviceKey(key: key, appID: verifier.appID.description, counter: 0), at: clock.now)
                    else {
                        return .error(
                            409, "key_already_attested", "This key is attested already: make a new key to attest again."
                        )
                    }
                    logger.info(
                        "device key attested",
                        metadata: ["app": "\(verifier.appID)", "environment": "\(key.environment.rawValue)"])
                    var response = ServiceResponse.json(201, ["keyID": keyIDText])
                    response.headers.append((SearchServiceSignature.nextChallengeHeader, try await issueChallenge()))
                    return response
                } catch let error as AppAttestError {
                    lastError = error
                }
            }
            logger.notice("attestation refused", metadata: ["reason": "\(lastError?.code ?? .malformed)"])
            return .error(401, "attestation_refused", lastError?.message ?? "The attestation was refused.")
        } catch {
            return storeFailure(error)
        }
    }

    // MARK: Signed requests

    /// Runs `body` for a request whose signature, challenge and counter hold, inside the address's
    /// and the device's limits; adds the device's next challenge to the answer.
    private func signed(_ request: ServiceRequest, _ body: () async throws -> ServiceResponse) async -> ServiceResponse
    {
        // The key the request names is read in the transaction that counts its address: one trip
        // to the database before the signature is checked, and still none past the address's limit.
        let admission: SearchServiceAdmission
        do {
            admission = try await store.admit(
                "address:" + request.address, limit: configuration.addressLimit, window: Self.window, now: clock.now,
                readingKey: Self.namedKeyID(request))
        } catch {
            return storeFailure(error)
        }
        if let reopens = admission.reopens { return addressLimited(until: reopens) }
        let signer: Signer
        switch authenticate(request, kept: admission.key) {
        case .refused(let response): return response
        case .signed(let found): signer = found
        }
        let next = Self.newChallenge()
        var response: ServiceResponse
        do {
            let now = clock.now
            switch try await store.accept(
                challenge: signer.challenge, counter: signer.counter, device: "device:" + signer.device,
                limit: configuration.deviceLimit, window: Self.window, next: next,
                expiresAt: now.addingTimeInterval(Self.challengeLifetime), now: now)
            {
            case .challengeUnknown:
                return .error(401, "challenge_unknown", "The challenge is unknown, used or expired: ask for a new one.")
            case .replayed:
                return .error(401, "assertion_replayed", "This assertion's counter was used already.")
            case .accepted(let reopens?):
                response = .error(
                    429, "device_limit", "This device asked too often: try again shortly.",
                    retryAfter: Self.seconds(until: reopens, from: now))
            case .accepted(nil):
                response = try await body()
            }
        } catch {
            return storeFailure(error)
        }
        response.headers.append((SearchServiceSignature.nextChallengeHeader, next))
        return response
    }

    /// Who signed a request, and what the store must check and record for it.
    struct Signer {
        var device: String
        var challenge: String
        var counter: (keyID: [UInt8], value: UInt32)?
    }

    enum Authentication { case signed(Signer), refused(ServiceResponse) }

    /// The App Attest key ID a request names (not one signed with the development key), as
    /// ``authenticate(_:kept:)`` reads it.
    static func namedKeyID(_ request: ServiceRequest) -> [UInt8]? {
        guard request.header(.development) == nil,
            let text = request.header(.keyID), text.count <= 64,
            let keyID = Data(base64Encoded: text)
        else { return nil }
        return Array(keyID)
    }

    /// Checks `request`'s signature: the development key's HMAC, or App Attest's assertion against
    /// `kept`, the key it names as the store holds it (read with the address's count).
    private func authenticate(_ request: ServiceRequest, kept: DeviceKey?) -> Authentication {
        guard let challenge = request.header(.challenge), challenge.count <= 64 else {
            return .refused(
                .error(
                    401, "unsigned", "Sign each request with App Attest (SpotifyLink-Challenge, -Key-ID, -Assertion)."))
        }
        let clientData = SearchServiceSignature.clientData(
            method: request.method, path: request.path, query: request.query, challenge: challenge)
        if let mac = request.header(.development) {
            guard configuration.allowDevelopmentKey, let key = configuration.developmentKey else {
                return .refused(
                    .error(401, "development_key_refused", "This service does not take the development key."))
            }
            guard let code = Data(base64Encoded: mac),
                HMAC<SHA256>.isValidAuthenticationCode(
                    code, authenticating: clientData, using: SymmetricKey(data: key.bytes)),
                let name = request.header(.device), (1...64).contains(name.utf8.count)
            else {
                return .refused(
                    .error(401, "signature_refused", "The development signature does not match the request."))
            }
            return .signed(Signer(device: "development:" + name, challenge: challenge, counter: nil))
        } else {
            guard let keyIDText = request.header(.keyID), keyIDText.count <= 64,
                let keyID = Data(base64Encoded: keyIDText),
                let assertionText = request.header(.assertion), assertionText.count <= 4096,
                let assertion = Data(base64Encoded: assertionText)
            else {
                return .refused(
                    .error(
                        401, "unsigned",
                        "Sign each request with App Attest (SpotifyLink-Challenge, -Key-ID, -Assertion)."))
            }
            guard let kept, kept.key.keyID == Array(keyID),
                let verifier = verifiers.first(where: { $0.appID.description == kept.appID })
            else {
                return .refused(
                    .error(401, "key_unknown", "This key is not attested: attest it with POST /v1/attest."))
            }
            do {
                let counter = try verifier.verifyAssertion(
                    Array(assertion), clientData: clientData, key: kept.key, lastCounter: kept.counter)
                return .signed(Signer(device: keyIDText, challenge: challenge, counter: (Array(keyID), counter)))
            } catch {
                logger.notice("assertion refused", metadata: ["reason": "\(error.code)"])
                return .refused(.error(401, "assertion_refused", error.message))
            }
        }
    }

    // MARK: Spotify

    private func search(_ request: ServiceRequest) async throws -> ServiceResponse {
        var text: String?
        var limit = 10
        var offset = 0
        for (name, value) in request.query {
            switch name {
            case "q": text = value
            case "limit":
                guard let number = Int(value), (1...10).contains(number) else {
                    return .error(400, "bad_limit", "limit is a number from 1 to 10.")
                }
                limit = number
            case "offset":
                guard let number = Int(value), (0...990).contains(number) else {
                    return .error(400, "bad_offset", "offset is a number from 0 to 990.")
                }
                offset = number
            default: return .error(400, "bad_parameter", "The search takes q, limit and offset only.")
            }
        }
        guard let text, case let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
            trimmed.count <= 200
        else {
            return .error(400, "bad_query", "q is the search text: 1 to 200 characters.")
        }
        guard offset + limit <= 1000 else {
            return .error(400, "bad_offset", "Search reaches the first 1,000 results: offset + limit ≤ 1000.")
        }
        logger.debug("search", metadata: ["q": "\(trimmed)", "limit": "\(limit)", "offset": "\(offset)"])
        let (pageLimit, pageOffset) = (limit, offset)
        let key = "\(limit) \(offset) \(trimmed)"
        return await forward {
            try await self.inFlight.run(
                key, now: self.clock.now, keepFor: TimeInterval(self.configuration.cacheSeconds),
                coalesced: self.metrics.coalesced
            ) {
                try await SpotifyClient.withOrigin(.backgroundWork) {
                    try await self.client.searchTracksJSON(
                        trimmed, limit: pageLimit, offset: pageOffset, market: self.configuration.market)
                }
            }
        }
    }

    private func track(_ request: ServiceRequest) async throws -> ServiceResponse {
        guard request.query.isEmpty else { return .error(400, "bad_parameter", "A track takes no parameters.") }
        let text = String(request.path.dropFirst("/v1/tracks/".count))
        guard let id = try? SpotifyID(text) else {
            return .error(400, "bad_id", "A track's ID is 22 letters and digits.")
        }
        return await forward {
            try await self.inFlight.run(
                "track \(id.rawValue)", now: self.clock.now, keepFor: TimeInterval(self.configuration.cacheSeconds),
                coalesced: self.metrics.coalesced
            ) {
                try await SpotifyClient.withOrigin(.backgroundWork) {
                    try await self.client.trackJSON(id, market: self.configuration.market)
                }
            }
        }
    }

    /// Spotify's JSON as the answer, or the refusal that stands for Spotify's failure.
    private func forward(_ fetch: () async throws -> Data) async -> ServiceResponse {
        do {
            let data = try await fetch()
            return ServiceResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/json"),
                    ("Cache-Control", "private, max-age=\(configuration.cacheSeconds)"),
                ],
                body: Array(data))
        } catch let error as SpotifyAPIError {
            let now = clock.now
            let wait =
                error.retryAt.map { Self.seconds(until: $0, from: now) }
                ?? error.retryAfter.map { Int($0.components.seconds) }
            switch error.code {
            case .budgetExhausted:
                logger.warning("the service's daily share is spent", metadata: ["share": "\(configuration.dailyShare)"])
                return .error(
                    429, "share_spent", "The service's requests for today are spent: try again later.",
                    retryAfter: wait ?? 3600)
            case .rateLimited, .quotaExceeded:
                return .error(
                    429, "spotify_busy", "Spotify asked the service to wait: try again later.", retryAfter: wait ?? 60)
            case .notFound:
                return .error(404, "not_found", "Spotify has no such track.")
            case .ledgerUnavailable:
                logger.error("the request ledger cannot be used", metadata: ["error": "\(error.code)"])
                return .error(
                    503, "ledger_unavailable", "The service cannot count its requests now: try again later.",
                    retryAfter: 30)
            default:
                logger.error("Spotify failed", metadata: ["code": "\(error.code)", "status": "\(error.status ?? 0)"])
                return .error(502, "spotify_failed", "Spotify did not answer as expected: try again later.")
            }
        } catch is CancellationError {
            return .error(503, "cancelled", "The service is stopping: try again.")
        } catch {
            logger.error("Spotify failed", metadata: ["error": "\(type(of: error))"])
            return .error(502, "spotify_failed", "Spotify did not answer as expected: try again later.")
        }
    }

    // MARK: Limits and failures

    private func admit(address: String) async -> ServiceResponse? {
        do {
            guard
                let reopens = try await store.admit(
                    "address:" + address, limit: configuration.addressLimit, window: Self.window, now: clock.now)
            else { return nil }
            return addressLimited(until: reopens)
        } catch {
            return storeFailure(error)
        }
    }

    private func addressLimited(until reopens: Date) -> ServiceResponse {
        .error(
            429, "address_limit", "Too many requests from this address: try again shortly.",
            retryAfter: Self.seconds(until: reopens, from: clock.now))
    }

    private func storeFailure(_ error: any Error) -> ServiceResponse {
        logger.error("the service's database failed", metadata: ["error": "\(type(of: error))"])
        return .error(
            503, "database_unavailable", "The service's database does not answer: try again later.", retryAfter: 30)
    }

    static func seconds(until date: Date, from now: Date) -> Int {
        max(Int(date.timeIntervalSince(now).rounded(.up)), 1)
    }
}

/// Identical searches share one request to Spotify: those in flight wait for it, and those after
/// it, for as long as an app may keep the answer (`Cache-Control`), get the kept answer. A caller
/// that goes away does not cancel the request for the others. The kept answers are bounded in
/// bytes, the oldest dropped first, and live in memory alone: a temporary cache, as Spotify's
/// terms allow, gone with the process.
actor SearchesInFlight {
    private var running: [String: Task<Data, any Error>] = [:]
    private var kept: [String: (data: Data, until: Date)] = [:]
    private var order: [String] = []
    private var keptBytes = 0
    /// The most bytes of answers kept.
    static let maxBytes = 16 << 20

    func run(
        _ key: String, now: Date, keepFor lifetime: TimeInterval, coalesced: Counter,
        _ fetch: @escaping @Sendable () async throws -> Data
    ) async throws -> Data {
        if let answer = kept[key], answer.until > now {
            coalesced.increment()
            return answer.data
        }
        if let task = running[key] {
            coalesced.increment()
            return try await task.value
        }
        let task = Task { try await fetch() }
        running[key] = task
        defer { running[key] = nil }
        let data = try await task.value
        if lifetime > 0 { keep(data, for: key, until: now.addingTimeInterval(lifetime)) }
        return data
    }

    private func keep(_ data: Data, for key: String, until: Date) {
        if let old = kept.removeValue(forKey: key) {
            keptBytes -= old.data.count
            order.removeAll { $0 == key }
        }
        kept[key] = (data, until)
        order.append(key)
        keptBytes += data.count
        while keptBytes > Self.maxBytes, let oldest = order.first {
            order.removeFirst()
            keptBytes -= kept.removeValue(forKey: oldest)?.data.count ?? 0
        }
    }
}

/// The App Attestation root a credential's chain must end at.
package struct AppAttestRoot: Sendable {
    package let certificate: Certificate
    package init(_ certificate: Certificate) { self.certificate = certificate }
    /// Apple's App Attestation Root CA.
    package static let apple = AppAttestRoot(AppleAppAttestationRoot.certificate)
}

/// Counts each request that leaves for Spotify.
struct CountingTransport: Transport {
    let base: any Transport
    let counter: Counter

    init(_ base: any Transport, _ counter: Counter) {
        self.base = base
        self.counter = counter
    }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws
        -> (HTTPResponse, Data)
    {
        counter.increment()
        return try await base.send(request, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}

extension Data {
    /// Base64 with the URL-safe alphabet and no padding.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
