import Crypto
public import Foundation
import HTTPTypes
@_spi(Transport) public import SpotifyWebAPI

/// Track search before the user connects Spotify, through the developer's search service
/// (`spotlink-search`), which holds the client secret and answers only devices of the app that
/// App Attest proves genuine. The app ships no secret and gets no token: the service searches for
/// it, inside its share of the developer's quota.
///
/// The answers are Spotify's own, read as `SpotifyClient.searchTracks(_:limit:offset:)` reads
/// them, so a search screen shows them with the same code signed out and signed in
/// (`TrackSearchModel` picks the way by itself).
///
/// ```swift
/// let search = SignedOutSearch(service: URL(string: "https://search.example.com")!, proof: .appAttest())
/// let page = try await search.searchTracks("さくら")
/// ```
///
/// Requests take turns: each carries an assertion whose counter must be above the last one the
/// service saw, so two at once could arrive out of order and one be refused.
public actor SignedOutSearch {
    /// How this device proves it is the app.
    public struct Proof: Sendable {
        enum Kind: Sendable {
            case appAttest(any AppAttestDevice, KeyIDStore)
            case development(key: [UInt8], device: String)
        }

        let kind: Kind

        #if canImport(DeviceCheck) && canImport(Security)
            /// App Attest (`DCAppAttestService`): a key made once in the Secure Enclave, attested by
            /// Apple, its ID kept in the Keychain (`service`, shared through `accessGroup` with the
            /// app's extensions). Needs the App Attest capability; a simulator has none (use
            /// ``development(key:device:)`` there).
            public static func appAttest(service: String = "dev.spotifylink.appattest", accessGroup: String? = nil)
                -> Proof
            {
                Proof(
                    kind: .appAttest(
                        SystemAppAttest(),
                        KeyIDStore(keychain: SecurityFrameworkItems(), service: service, accessGroup: accessGroup)))
            }
        #endif

        /// For development builds on a simulator, which has no App Attest: requests signed with the
        /// service's development key (32 bytes or more), which the service refuses unless it was
        /// started to take it. Never ship it in a release build.
        public static func development(key: Data, device: String) -> Proof {
            Proof(kind: .development(key: Array(key), device: String(device.prefix(64))))
        }

        /// App Attest through `device`, its key ID kept in `keychain` (tests, with a scripted attester).
        package static func appAttest(_ device: any AppAttestDevice, keychain: any KeychainItems, service: String)
            -> Proof
        {
            Proof(kind: .appAttest(device, KeyIDStore(keychain: keychain, service: service, accessGroup: nil)))
        }
    }

    let service: URL
    let proof: Proof
    let transport: any Transport
    /// The challenge the service's last answer gave, for the next request.
    private var challenge: String?
    private var keyID: String?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Searches through the service at `service` (its base URL), proving the device with `proof`.
    public init(service: URL, proof: Proof, transport: any Transport = platformDefaultTransport()) {
        self.service = service
        self.proof = proof
        self.transport = transport
    }

    /// Whether this device can search signed out: App Attest is supported, or a development key is given.
    public nonisolated var isAvailable: Bool {
        switch proof.kind {
        case .appAttest(let device, _): device.isSupported
        case .development: true
        }
    }

    /// One page of tracks matching `query`, as `SpotifyClient.searchTracks(_:limit:offset:)`.
    /// - Throws: `SpotifyAPIError`: `.invalidRequest` for bad arguments; `.rateLimited` with
    ///   `retryAfter` when the service or its share of the quota says wait;
    ///   `.forbidden` when the device cannot prove it is the app; `.transport` when the service is
    ///   not reached.
    public func searchTracks(_ query: String, limit: Int = 10, offset: Int = 0) async throws -> Page<Track> {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw SpotifyAPIError(code: .invalidRequest, message: "The search text is empty.", parameter: "q")
        }
        guard (1...10).contains(limit) else {
            throw SpotifyAPIError(code: .invalidRequest, message: "limit is 1 to 10.", parameter: "limit")
        }
        guard (0...990).contains(offset), offset + limit <= 1000 else {
            throw SpotifyAPIError(
                code: .invalidRequest, message: "Search reaches the first 1,000 results.", parameter: "offset")
        }
        let data = try await signed(
            "/v1/search", [("q", text), ("limit", "\(limit)"), ("offset", "\(offset)")])
        return try decodeSpotifyResponse(TrackSearchResults.self, from: data).tracks
    }

    /// One track, as `SpotifyClient.track(_:)`.
    public func track(_ id: SpotifyID) async throws -> Track {
        try decodeSpotifyResponse(Track.self, from: try await signed("/v1/tracks/\(id.rawValue)", []))
    }

    // MARK: Signing

    private func signed(_ path: String, _ query: [(name: String, value: String)]) async throws -> Data {
        await takeTurn()
        defer { passTurn() }
        try Task.checkCancellation()
        var retried = false
        while true {
            // The key first: its attestation's answer brings the challenge the search is signed
            // with (empty, and nothing sent, with the development key).
            let keyID = try await attestedKey()
            let challenge = try await nextChallenge()
            let data = SearchServiceSignature.clientData(method: "GET", path: path, query: query, challenge: challenge)
            var headers = [SearchServiceSignature.challengeHeader: challenge]
            switch proof.kind {
            case .development(let key, let device):
                let mac = HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key))
                headers[SearchServiceSignature.developmentHeader] = Data(mac).base64EncodedString()
                headers[SearchServiceSignature.deviceHeader] = device
            case .appAttest(let device, _):
                let assertion = try await device.generateAssertion(
                    keyID, clientDataHash: Data(SHA256.hash(data: data)))
                headers[SearchServiceSignature.keyIDHeader] = keyID
                headers[SearchServiceSignature.assertionHeader] = assertion.base64EncodedString()
            }
            let (status, fields, body) = try await exchange(.get, path, query: query, headers: headers)
            self.challenge = fields[HTTPField.Name(SearchServiceSignature.nextChallengeHeader)!]
            if status == 200 { return body }
            let code = Self.errorCode(body)
            // A used or expired challenge, or a key the service no longer knows: once more, afresh.
            if status == 401, !retried, ["challenge_unknown", "key_unknown"].contains(code) {
                retried = true
                if code == "key_unknown" { try forgetKey() }
                continue
            }
            throw failure(status: status, code: code, retryAfter: fields[.retryAfter], path: path)
        }
    }

    private func nextChallenge() async throws -> String {
        if let challenge {
            self.challenge = nil
            return challenge
        }
        let (status, fields, body) = try await exchange(.post, "/v1/attest/challenge", query: [], headers: [:])
        guard status == 200,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let challenge = object["challenge"] as? String
        else {
            throw failure(
                status: status, code: Self.errorCode(body), retryAfter: fields[.retryAfter],
                path: "/v1/attest/challenge")
        }
        return challenge
    }

    /// The attested key's ID: kept in the Keychain, or made and attested now.
    private func attestedKey() async throws -> String {
        guard case .appAttest(let device, let store) = proof.kind else { return "" }
        if let keyID { return keyID }
        if let kept = try store.read() {
            keyID = kept
            return kept
        }
        guard device.isSupported else {
            throw SpotifyAPIError(
                code: .forbidden, message: "This device cannot use App Attest: connect Spotify to search.")
        }
        let made = try await device.generateKey()
        let challenge = try await nextChallenge()
        let attestation = try await device.attestKey(
            made, clientDataHash: Data(SHA256.hash(data: Data(challenge.utf8))))
        let request = try JSONSerialization.data(withJSONObject: [
            "keyID": made, "attestation": attestation.base64EncodedString(), "challenge": challenge,
        ])
        let (status, fields, body) = try await exchange(.post, "/v1/attest", query: [], headers: [:], body: request)
        guard status == 201 else {
            throw failure(
                status: status, code: Self.errorCode(body), retryAfter: fields[.retryAfter], path: "/v1/attest")
        }
        self.challenge = fields[HTTPField.Name(SearchServiceSignature.nextChallengeHeader)!]
        try store.save(made)
        keyID = made
        return made
    }

    private func forgetKey() throws {
        guard case .appAttest(_, let store) = proof.kind else { return }
        keyID = nil
        try store.delete()
    }

    // MARK: HTTP

    private func exchange(
        _ method: HTTPRequest.Method, _ path: String, query: [(name: String, value: String)],
        headers: [String: String], body: Data? = nil
    ) async throws -> (Int, HTTPFields, Data) {
        var components = URLComponents(url: service, resolvingAgainstBaseURL: false)
        let base = components?.path ?? ""
        components?.path = base.trimmingSuffix("/") + path
        if !query.isEmpty {
            components?.percentEncodedQuery = query.map {
                "\($0.name)=\(SearchServiceSignature.encode($0.value))"
            }.joined(separator: "&")
        }
        guard let url = components?.url else {
            throw SpotifyAPIError(
                code: .invalidRequest, message: "The search service's URL cannot take \(path).", parameter: "service")
        }
        var request = HTTPRequest(method: method, url: url)
        for (name, value) in headers { if let field = HTTPField.Name(name) { request.headerFields[field] = value } }
        if body != nil { request.headerFields[.contentType] = "application/json" }
        let (response, data) = try await transport.send(
            request, body: body, timeout: .seconds(30), maxBodyBytes: 4 << 20)
        return (response.status.code, response.headerFields, data)
    }

    static func errorCode(_ body: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]).flatMap {
            ($0["error"] as? [String: Any])?["code"] as? String
        }
    }

    private func failure(status: Int, code: String?, retryAfter: String?, path: String) -> SpotifyAPIError {
        switch status {
        case 429, 503:
            let seconds = retryAfter.flatMap(Int.init).map { max($0, 1) } ?? 60
            return SpotifyAPIError(
                code: .rateLimited, status: status,
                message: "The search service asks to wait \(seconds) s before searching again.",
                retryAfter: .seconds(seconds))
        case 401, 403:
            return SpotifyAPIError(
                code: .forbidden, status: status,
                message:
                    "The search service did not accept this device (\(code ?? "refused")): connect Spotify to search.")
        case 404:
            return SpotifyAPIError(
                code: .notFound, status: status, message: "The search service found nothing at \(path).")
        default:
            return SpotifyAPIError(
                code: .server, status: status, message: "The search service failed (\(status)): try again later.")
        }
    }

    // MARK: Turns

    /// Requests waiting for their turn (tests).
    package var waitingForTurn: Int { waiting.count }

    private func takeTurn() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func passTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}

/// Where the App Attest key's ID is kept: one Keychain item, never backed up or moved to another
/// device (the key lives in this device's Secure Enclave).
struct KeyIDStore: Sendable {
    let keychain: any KeychainItems
    let item: KeychainItemQuery

    init(keychain: any KeychainItems, service: String, accessGroup: String?) {
        self.keychain = keychain
        item = KeychainItemQuery(
            service: service, account: "app-attest-key-id", accessGroup: accessGroup, useDataProtectionKeychain: true)
    }

    func read() throws -> String? {
        let (status, data) = keychain.copyData(item)
        switch status {
        case .success: return data.map { String(decoding: $0, as: UTF8.self) }
        case .itemNotFound: return nil
        default: throw failure(status)
        }
    }

    func save(_ keyID: String) throws {
        let data = Data(keyID.utf8)
        var status = keychain.add(item, data: data, label: "SpotifyLink App Attest key")
        if status == .duplicateItem { status = keychain.update(item, data: data, label: "SpotifyLink App Attest key") }
        guard status == .success else { throw failure(status) }
    }

    func delete() throws {
        let status = keychain.delete(item)
        guard status == .success || status == .itemNotFound else { throw failure(status) }
    }

    private func failure(_ status: KeychainStatus) -> SpotifyAPIError {
        SpotifyAPIError(
            code: .forbidden,
            message: "The App Attest key's ID could not be kept in the Keychain: \(keychain.describe(status))")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
