import Crypto
import Foundation
import SpotifyLinkSupport

struct PendingAuthorization: Sendable {
    var clientID: String
    var redirectURI: String
    var state: String?
    var scopes: [String]
    var challenge: String?
}

struct CodeRecord: Sendable {
    var clientID: String
    var redirectURI: String
    var challenge: String?
    var scopes: [String]
    var issuedAt: Date
    var used = false
    /// The refresh-token family this code's exchange created, revoked if the code is replayed.
    var family: String?
}

struct AccessRecord: Sendable {
    var clientID: String
    /// `nil` for client-credentials tokens, which carry no user.
    var userID: String?
    var scopes: Set<String>
    var expiresAt: Date
    var family: String?
}

struct RefreshRecord: Sendable {
    enum Status: Sendable { case active, rotated, revoked }
    var clientID: String
    var scopes: [String]
    var family: String
    var signInAt: Date
    var status: Status = .active
    /// Issued to a confidential client without PKCE: refreshing it needs the client secret.
    var needsSecret = false
}

extension EmulatorState {
    /// Authorization codes live this long (RFC 6749 recommends at most 10 minutes).
    static let codeLifetime: TimeInterval = 600
    /// Refresh tokens expire this long after the user's sign-in, however often they are used.
    static let refreshLifetime: TimeInterval = 183 * 86400

    static let scopeWords: [String: String] = [
        "playlist-read-private": "See your private playlists",
        "playlist-read-collaborative": "See playlists you collaborate on",
        "user-read-currently-playing": "See what you are playing right now",
        "user-read-playback-state": "See your playback state and devices",
    ]

    func handleAccounts(_ request: EmulatorRequest) -> EmulatorResponse {
        switch (request.method, request.path) {
        case ("GET", "/authorize"): authorize(request)
        case ("POST", "/authorize/decision"): decide(request)
        case ("POST", "/api/token"): token(request)
        default: .html("<h1>Method not allowed</h1>", status: 405)
        }
    }

    // MARK: - /authorize

    private func authorize(_ request: EmulatorRequest) -> EmulatorResponse {
        let names = request.query.map(\.0)
        guard Set(names).count == names.count else {
            return .html(Self.errorPage("INVALID_REQUEST: Duplicate parameters"), status: 400)
        }
        guard let clientID = request.parameter("client_id"),
            let client = configuration.clients.first(where: { $0.id == clientID })
        else { return .html(Self.errorPage("INVALID_CLIENT: Invalid client"), status: 400) }
        // Nothing is redirected back to an app whose redirect URI is wrong: Spotify shows its own
        // page, with the texts observed in 2026.
        guard let redirectURI = request.parameter("redirect_uri") else {
            return .html(Self.errorPage("redirect_uri: Not matching configuration"), status: 400)
        }
        // A `localhost` redirect, and the implicit grant (`response_type=token`, removed), still get
        // the older page in late 2025 (the contract); another plain-http redirect the newer one.
        if URLComponents(string: redirectURI)?.host?.lowercased() == "localhost"
            || request.parameter("response_type") == "token"
        {
            return .html(Self.errorPage("INVALID_CLIENT: Invalid redirect URI"), status: 400)
        }
        if Self.isInsecure(redirectURI) {
            return .html(Self.errorPage("INVALID_CLIENT: Insecure redirect URI"), status: 400)
        }
        guard Self.redirectMatches(redirectURI, registered: client.redirectURIs) else {
            return .html(Self.errorPage("redirect_uri: Not matching configuration"), status: 400)
        }
        let state = request.parameter("state")
        func fail(_ error: String, _ description: String) -> EmulatorResponse {
            callback(to: redirectURI, [("error", error), ("error_description", description)], state: state)
        }
        guard request.parameter("response_type") == "code" else {
            return fail("unsupported_response_type", "response_type must be code")
        }
        let challenge = request.parameter("code_challenge")
        let method = request.parameter("code_challenge_method")
        if challenge != nil || method != nil {
            guard method == "S256" else { return fail("invalid_request", "code_challenge_method must be S256") }
            guard let challenge, challenge.count == 43,
                challenge.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { return fail("invalid_request", "code_challenge must be 43 base64url characters") }
        } else if client.secret == nil {
            return fail("invalid_request", "code_challenge required")
        }
        let scopes = (request.parameter("scope") ?? "").split(separator: " ").map(String.init)
        let pending = PendingAuthorization(
            clientID: clientID, redirectURI: redirectURI, state: state, scopes: scopes, challenge: challenge)
        if configuration.autoApprove { return approve(pending) }
        let id = random.token("req_")
        pendingAuthorizations[id] = pending
        return .html(consentPage(id: id, client: client, scopes: scopes))
    }

    private func decide(_ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        guard let id = form.first(where: { $0.0 == "request" })?.1,
            let pending = pendingAuthorizations.removeValue(forKey: id)
        else { return .html(Self.errorPage("This sign-in request is no longer valid. Start again."), status: 400) }
        guard form.first(where: { $0.0 == "decision" })?.1 == "agree" else {
            return callback(to: pending.redirectURI, [("error", "access_denied")], state: pending.state)
        }
        return approve(pending)
    }

    private func approve(_ pending: PendingAuthorization) -> EmulatorResponse {
        let code = random.token("EMU_CODE_")
        codes[code] = CodeRecord(
            clientID: pending.clientID, redirectURI: pending.redirectURI, challenge: pending.challenge,
            scopes: pending.scopes, issuedAt: now)
        return callback(to: pending.redirectURI, [("code", code)], state: pending.state)
    }

    /// The redirect back to the app: the result, the app's `state`, and the emulator's own name as
    /// RFC 9207's `iss`, so a client can tell which service answered (a mix-up defence).
    private func callback(to redirectURI: String, _ items: [(String, String)], state: String?) -> EmulatorResponse {
        .redirect(Self.appending(to: redirectURI, items + (state.map { [("state", $0)] } ?? []) + [("iss", baseURL)]))
    }

    // MARK: - /api/token

    private func token(_ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        // A parameter given twice is an attack or a bug; neither gets the first value silently.
        guard Set(form.map(\.0)).count == form.count else {
            return tokenError("invalid_request", "Duplicate parameters", status: 400)
        }
        func field(_ name: String) -> String? { form.first { $0.0 == name }?.1 }
        let basic = Self.basicCredentials(request.headers["authorization"])
        let clientID = basic?.id ?? field("client_id")
        guard let clientID, let client = configuration.clients.first(where: { $0.id == clientID }) else {
            return tokenError("invalid_client", "Invalid client", status: 400)
        }
        // A presented secret must be the right one; whether one is needed depends on the grant.
        let presented = basic?.secret ?? field("client_secret")
        if let presented, presented != client.secret {
            return tokenError("invalid_client", "Invalid client", status: 400)
        }
        let authenticated = presented != nil && client.secret != nil
        switch field("grant_type") {
        case "authorization_code":
            return exchangeCode(
                field("code"), redirectURI: field("redirect_uri"), verifier: field("code_verifier"), client: client,
                authenticated: authenticated)
        case "refresh_token":
            return refresh(field("refresh_token"), client: client, authenticated: authenticated)
        case "client_credentials":
            guard authenticated else { return tokenError("invalid_client", "Invalid client", status: 400) }
            let access = random.token("EMU_AT_")
            accessTokens[access] = AccessRecord(
                clientID: client.id, userID: nil, scopes: [], expiresAt: now.addingTimeInterval(ttl), family: nil)
            return tokenResponse([
                ("access_token", .string(access)), ("token_type", .string("bearer")), ("expires_in", .int(Int(ttl))),
            ])
        default:
            return tokenError(
                "unsupported_grant_type", "grant_type must be client_credentials, authorization_code or refresh_token",
                status: 400)
        }
    }

    private var ttl: TimeInterval { configuration.accessTokenTTL.seconds }

    /// A code issued without PKCE is exchanged only by a client that authenticates with its secret.
    private func exchangeCode(
        _ code: String?, redirectURI: String?, verifier: String?, client: EmulatorConfiguration.Client,
        authenticated: Bool
    ) -> EmulatorResponse {
        guard let code, var record = codes[code], record.clientID == client.id else {
            return tokenError("invalid_grant", "Invalid authorization code")
        }
        if record.used {
            // A replayed code is a sign of theft: revoke what its first use issued.
            if let family = record.family { revokeFamily(family) }
            return tokenError("invalid_grant", "Invalid authorization code")
        }
        record.used = true
        codes[code] = record
        guard now.timeIntervalSince(record.issuedAt) <= Self.codeLifetime else {
            return tokenError("invalid_grant", "Authorization code expired")
        }
        guard redirectURI == record.redirectURI else { return tokenError("invalid_grant", "Invalid redirect URI") }
        switch (record.challenge, verifier) {
        case (let challenge?, let verifier?):
            guard Self.isValidVerifier(verifier), Self.challenge(for: verifier) == challenge else {
                return tokenError("invalid_grant", "code_verifier was incorrect")
            }
        case (nil, nil):
            guard client.secret != nil else { return tokenError("invalid_grant", "code_verifier was incorrect") }
            guard authenticated else { return tokenError("invalid_client", "Invalid client", status: 400) }
        default:
            return tokenError("invalid_grant", "code_verifier was incorrect")
        }
        let family = random.token("fam_")
        record.family = family
        codes[code] = record
        let refreshToken = random.token("EMU_RT_")
        refreshTokens[refreshToken] = RefreshRecord(
            clientID: client.id, scopes: record.scopes, family: family, signInAt: now,
            needsSecret: record.challenge == nil)
        return issueAccess(client: client.id, scopes: record.scopes, family: family, refreshToken: refreshToken)
    }

    private func refresh(_ token: String?, client: EmulatorConfiguration.Client, authenticated: Bool)
        -> EmulatorResponse
    {
        guard let token, let record = refreshTokens[token], record.clientID == client.id else {
            return tokenError("invalid_grant", "Invalid refresh token")
        }
        if record.needsSecret, !authenticated { return tokenError("invalid_client", "Invalid client", status: 400) }
        switch record.status {
        case .revoked:
            return tokenError("invalid_grant", "Refresh token revoked")
        case .rotated:
            revokeFamily(record.family)
            return tokenError("invalid_grant", "Refresh token revoked")
        case .active:
            break
        }
        guard now.timeIntervalSince(record.signInAt) < Self.refreshLifetime else {
            return tokenError("invalid_grant", "Refresh token expired")
        }
        var newRefresh: String?
        if configuration.refreshRotation == .rotate {
            let rotated = random.token("EMU_RT_")
            refreshTokens[token]?.status = .rotated
            refreshTokens[rotated] = RefreshRecord(
                clientID: client.id, scopes: record.scopes, family: record.family, signInAt: record.signInAt,
                needsSecret: record.needsSecret)
            newRefresh = rotated
        }
        return issueAccess(client: client.id, scopes: record.scopes, family: record.family, refreshToken: newRefresh)
    }

    private func issueAccess(client: String, scopes: [String], family: String, refreshToken: String?)
        -> EmulatorResponse
    {
        let access = random.token("EMU_AT_")
        accessTokens[access] = AccessRecord(
            clientID: client, userID: catalog.userID, scopes: Set(scopes), expiresAt: now.addingTimeInterval(ttl),
            family: family)
        var fields: [(String, JSONValue)] = [
            ("access_token", .string(access)), ("token_type", .string("Bearer")),
            ("scope", .string(scopes.joined(separator: " "))), ("expires_in", .int(Int(ttl))),
        ]
        if let refreshToken { fields.append(("refresh_token", .string(refreshToken))) }
        return tokenResponse(fields)
    }

    func revokeFamily(_ family: String) {
        for (token, record) in refreshTokens where record.family == family { refreshTokens[token]?.status = .revoked }
        accessTokens = accessTokens.filter { $0.value.family != family }
    }

    /// Makes every access token expire now (fault injection).
    package func expireAccessTokens() {
        let past = now.addingTimeInterval(-1)
        for key in accessTokens.keys { accessTokens[key]?.expiresAt = past }
    }

    private func tokenResponse(_ fields: [(String, JSONValue)]) -> EmulatorResponse {
        .json(.object(fields), headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    private func tokenError(_ error: String, _ description: String, status: Int = 400) -> EmulatorResponse {
        .json(
            .object([("error", .string(error)), ("error_description", .string(description))]), status: status,
            headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    // MARK: - Rules

    /// The contract's redirect rules: exact match, except that a loopback URI registered without a
    /// port matches any port; `localhost` never matches.
    package static func redirectMatches(_ requested: String, registered: [String]) -> Bool {
        guard let url = URLComponents(string: requested), let host = url.host?.lowercased(), host != "localhost",
            url.scheme != nil
        else { return false }
        if registered.contains(requested) { return true }
        guard url.scheme == "http", host == "127.0.0.1" || host == "[::1]" || host == "::1", url.port != nil else {
            return false
        }
        var portless = url
        portless.port = nil
        return registered.contains { candidate in
            guard let registeredURL = URLComponents(string: candidate), registeredURL.port == nil else { return false }
            return registeredURL.string == portless.string
        }
    }

    /// A plain `http://` redirect to anything but a loopback address (`localhost` included, which
    /// Spotify refuses since 2025).
    static func isInsecure(_ redirectURI: String) -> Bool {
        guard let url = URLComponents(string: redirectURI), url.scheme?.lowercased() == "http" else { return false }
        let host = url.host?.lowercased() ?? ""
        return !(host == "127.0.0.1" || host == "[::1]" || host == "::1")
    }

    package static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func isValidVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.count)
            && verifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }
    }

    static func basicCredentials(_ header: String?) -> (id: String, secret: String)? {
        guard let header, header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        // RFC 6749 §2.3.1: both parts are form-encoded before they are joined.
        func decode(_ part: Substring) -> String? {
            String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        guard let id = decode(text[..<colon]), let secret = decode(text[text.index(after: colon)...]) else {
            return nil
        }
        return (id, secret)
    }

    static func appending(to uri: String, _ items: [(String, String)]) -> String {
        uri + (uri.contains("?") ? "&" : "?") + FormEncoding.encode(items)
    }

    // MARK: - Pages

    static func escape(_ text: String) -> String { HTML.escape(text) }

    static func errorPage(_ message: String) -> String {
        "<!doctype html><html><head><meta charset=utf-8><title>Error</title></head><body><h1>\(escape(message))</h1></body></html>"
    }

    private func consentPage(id: String, client: EmulatorConfiguration.Client, scopes: [String]) -> String {
        let items = scopes.map { "<li>\(Self.escape(Self.scopeWords[$0] ?? $0))</li>" }.joined()
        return """
            <!doctype html><html><head><meta charset=utf-8><title>Spotify Emulator – Authorize</title>
            <style>body{font-family:sans-serif;max-width:30em;margin:3em auto}button{font-size:1.1em;margin-right:1em}</style>
            </head><body>
            <h1>\(Self.escape(client.name))</h1>
            <p>Signed in as <strong>\(Self.escape(catalog.userName))</strong> (\(Self.escape(catalog.userID)))</p>
            <p>This app would like to:</p><ul>\(items.isEmpty ? "<li>See your public profile</li>" : items)</ul>
            <form method="post" action="/authorize/decision">
            <input type="hidden" name="request" value="\(id)">
            <button type="submit" name="decision" value="agree">Agree</button>
            <button type="submit" name="decision" value="cancel">Cancel</button>
            </form></body></html>
            """
    }
}
