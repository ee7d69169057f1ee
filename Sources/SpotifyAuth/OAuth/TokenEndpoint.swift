package import Foundation
import HTTPTypes
import SpotifyLinkSupport
@_spi(Transport) public import SpotifyWebAPI

/// Talks to `/api/token`: code exchange, refresh and client credentials.
///
/// Nothing here retries: an `invalid_grant` is final, and a transient failure is reported so the
/// caller keeps what it has.
public struct TokenEndpoint: Sendable {
    /// The accounts service.
    public var server: AuthorizationServer
    /// The app's client ID.
    public var clientID: String
    let transport: any Transport
    let clock: any SpotifyClock

    /// The largest token answer read (a bigger one is an error, not unbounded memory).
    static let maxBodyBytes = 1024 * 1024

    /// An endpoint of `server` for `clientID`, reached through `transport`.
    public init(
        server: AuthorizationServer, clientID: String, transport: any Transport = platformDefaultTransport(),
        clock: any SpotifyClock = SystemClock()
    ) {
        self.server = server
        self.clientID = clientID
        self.transport = transport
        self.clock = clock
    }

    /// Exchanges the code from a finished ``AuthorizationFlow``.
    package func exchange(_ code: AuthorizationCode, flow: AuthorizationFlow) async throws -> StoredTokens {
        let now = clock.now
        let parsed = try await post([
            ("grant_type", "authorization_code"), ("code", code.unredactedValue),
            ("redirect_uri", flow.request.redirectURI), ("client_id", clientID),
            ("code_verifier", flow.verifier.unredactedValue),
        ])
        return StoredTokens(
            accessToken: parsed.accessToken, refreshToken: parsed.refreshToken, expiresAt: parsed.expiresAt,
            scopes: parsed.scopes ?? flow.request.scopes, signedInAt: now, issuer: server.issuer, clientID: clientID)
    }

    /// Refreshes `tokens`. Keeps the old refresh token when the answer has none.
    package func refresh(_ tokens: StoredTokens) async throws -> StoredTokens {
        guard let refreshToken = tokens.refreshToken else {
            throw OAuthError.needsSignIn("There is no refresh token.")
        }
        let parsed = try await post([
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken.unredactedValue), ("client_id", clientID),
        ])
        var refreshed = tokens
        refreshed.accessToken = parsed.accessToken
        refreshed.refreshToken = parsed.refreshToken ?? tokens.refreshToken
        refreshed.expiresAt = parsed.expiresAt
        refreshed.scopes = parsed.scopes ?? tokens.scopes
        return refreshed
    }

    /// Client credentials: a token for catalog calls without a user (never inside a shipped app).
    ///
    /// The ID and secret are form-encoded before they are joined for Basic authentication, as
    /// RFC 6749 §2.3.1 requires (a secret with `:` or `%` would otherwise be misread).
    package func clientCredentials(secret: ClientSecret) async throws -> (AccessToken, Date?) {
        let credentials = FormEncoding.encode(clientID) + ":" + FormEncoding.encode(secret.unredactedValue)
        let basic = Data(credentials.utf8).base64EncodedString()
        let parsed = try await post([("grant_type", "client_credentials")], authorization: "Basic \(basic)")
        return (parsed.accessToken, parsed.expiresAt)
    }

    private func post(_ form: [(String, String)], authorization: String? = nil) async throws
        -> TokenResponseParser.Parsed
    {
        var request = HTTPRequest(method: .post, url: server.tokenURL)
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.headerFields[.accept] = "application/json"
        if let authorization { request.headerFields[.authorization] = authorization }
        let body = FormEncoding.encode(form)
        let response: HTTPResponse
        let data: Data
        do {
            (response, data) = try await transport.send(
                request, body: Data(body.utf8), timeout: .seconds(30), maxBodyBytes: Self.maxBodyBytes)
        } catch let error as SpotifyAPIError {
            throw OAuthError(
                code: .transient,
                message:
                    "Could not reach Spotify's sign-in service: \(error.message). Your sign-in is kept; try again.",
                underlying: error)
        }
        return try TokenResponseParser.parse(status: response.status.code, body: data, receivedAt: clock.now)
    }
}
