public import struct Foundation.URL

/// A kind of secret, used to give each secret its own type.
public protocol SecretKind: Sendable {}

/// A secret string that never prints itself.
///
/// `description`, `debugDescription`, string interpolation, `dump()` and reflection all show
/// `<redacted>`; the real value is reachable only through ``unredactedValue``, a name that is easy to
/// spot in review and to search for.
public struct Secret<Kind: SecretKind>: Sendable, Hashable, Codable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable, CustomLeafReflectable
{
    /// The secret itself. Read it only to send it to the service it belongs to or to a secret store.
    public let unredactedValue: String

    /// Wraps `unredactedValue`.
    public init(_ unredactedValue: String) {
        self.unredactedValue = unredactedValue
    }

    public init(from decoder: any Decoder) throws {
        self.unredactedValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(unredactedValue)
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Marks an access token.
public enum AccessTokenKind: SecretKind {}
/// Marks a refresh token.
public enum RefreshTokenKind: SecretKind {}
/// Marks an authorization code.
package enum AuthorizationCodeKind: SecretKind {}
/// Marks a PKCE code verifier.
package enum CodeVerifierKind: SecretKind {}
/// Marks a client secret.
public enum ClientSecretKind: SecretKind {}

/// A Web API access token (a bearer token). Prints `<redacted>`.
public typealias AccessToken = Secret<AccessTokenKind>
/// An OAuth refresh token. Prints `<redacted>`.
public typealias RefreshToken = Secret<RefreshTokenKind>
/// An OAuth authorization code from the redirect. Prints `<redacted>`.
package typealias AuthorizationCode = Secret<AuthorizationCodeKind>
/// A PKCE code verifier. Prints `<redacted>`.
package typealias CodeVerifier = Secret<CodeVerifierKind>
/// A client secret, for the client-credentials flow only (never inside a shipped app). Prints `<redacted>`.
public typealias ClientSecret = Secret<ClientSecretKind>

/// Supplies access tokens to ``SpotifyClient``.
///
/// `SpotifyAuth`'s refresh coordinator implements this for signed-in users; a fixed token is enough
/// for scripts and tests.
public protocol AccessTokenProvider: Sendable {
    /// The token to send now (refreshed first if it is about to expire).
    func accessToken() async throws -> AccessToken
    /// A fresh token after the service rejected `failed` with 401.
    ///
    /// Implementations refresh only if `failed` is still the current token, so that many requests
    /// failing together cause one refresh.
    func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken
    /// The token for one request to the Web API at `apiBaseURL`, for a call that needs one of
    /// `scopes` (none when empty): the one question ``SpotifyClient`` asks per request, once the
    /// request may leave.
    ///
    /// A provider that knows where its tokens belong and what was granted refuses here, before
    /// anything is sent or refreshed: `SpotifySession` (SpotifyAuth) throws ``SpotifyAPIError``
    /// (``SpotifyAPIError/Code-swift.struct/invalidRequest``) toward another accounts service's
    /// API, and ``SpotifyAPIError/Code-swift.struct/missingScope`` when the sign-in granted none
    /// of `scopes`.
    func accessToken(for apiBaseURL: URL, scopes: [String]) async throws -> AccessToken
}

extension AccessTokenProvider {
    /// ``accessToken()``, for any API and any scope: requests are sent, and a 403 tells what the
    /// sign-in lacks.
    public func accessToken(for apiBaseURL: URL, scopes: [String]) async throws -> AccessToken {
        try await accessToken()
    }
}

/// A provider that always hands out the same token; a 401 is final.
public struct StaticAccessTokenProvider: AccessTokenProvider {
    let token: AccessToken

    /// A provider that always answers `token`.
    public init(_ token: AccessToken) {
        self.token = token
    }

    public func accessToken() async throws -> AccessToken { token }

    public func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken {
        throw SpotifyAPIError(
            code: .unauthorized,
            status: 401,
            message: "The access token was rejected and this provider cannot refresh it. Sign in again."
        )
    }
}
