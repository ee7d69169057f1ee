public import Foundation
public import SpotifyWebAPI

/// What a sign-in leaves behind, as kept in a token store.
public struct StoredTokens: Sendable, Codable, Equatable {
    /// The format version; a store from a newer version is treated as signed out.
    package static let currentVersion = 1

    /// The format version this value was written in.
    package var version = StoredTokens.currentVersion
    /// The access token (redacted in every description).
    public var accessToken: AccessToken
    /// The refresh token; `nil` for flows that issue none.
    public var refreshToken: RefreshToken?
    /// When the access token stops working, by local receipt time minus a margin; `nil` = unknown
    /// (refresh on the first 401).
    public var expiresAt: Date?
    /// The scopes Spotify granted, which may be fewer than asked.
    public var scopes: [String]
    /// The user's sign-in; refresh tokens expire six months later whatever happens in between.
    public var signedInAt: Date
    /// The accounts service that issued the tokens.
    public var issuer: String
    /// The app they were issued to.
    public var clientID: String
    /// Who signed in, once Spotify said (`/me`); `nil` in stores written before it was kept.
    public var account: SpotifyAccount?

    /// Tokens as issued at `signedInAt`.
    package init(
        accessToken: AccessToken, refreshToken: RefreshToken?, expiresAt: Date?, scopes: [String], signedInAt: Date,
        issuer: String, clientID: String
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scopes = scopes
        self.signedInAt = signedInAt
        self.issuer = issuer
        self.clientID = clientID
    }

    /// Refresh tokens expire this long after sign-in (Spotify: six months).
    package static let refreshTokenLifetime: TimeInterval = 183 * 86400

    /// When the user will have to sign in again at the latest.
    public var signInExpiresAt: Date { signedInAt.addingTimeInterval(Self.refreshTokenLifetime) }
}

/// The Spotify account behind a sign-in, keyed by the immutable `account_id` (Spotify's advice
/// since May 2026); the user ID and name are for display.
public struct SpotifyAccount: Sendable, Codable, Hashable {
    /// The immutable key: `account_id`, or `id:` and the user ID when Spotify sent none.
    public var accountID: String
    /// The user ID, shown to people (it can change).
    public var userID: String
    /// The name Spotify shows, when the user set one.
    public var displayName: String?

    /// The account of a `/me` answer.
    package init(_ user: CurrentUser) {
        accountID = user.accountID ?? "id:\(user.id)"
        userID = user.id
        displayName = user.displayName
    }
}

/// Reads token endpoint answers leniently where the spec allows it and strictly where it matters.
package enum TokenResponseParser {
    /// Largest `expires_in` believed: a day. Anything bigger is clamped.
    package static let maxLifetime: TimeInterval = 86400
    /// Taken off `expires_in` for clock skew and the time the answer took to arrive.
    static let skewMargin: TimeInterval = 30

    package struct Parsed {
        package var accessToken: AccessToken
        package var refreshToken: RefreshToken?
        package var expiresAt: Date?
        package var scopes: [String]?
    }

    /// One JSON value of the answer's top level, typed without guessing.
    enum Scalar: Decodable {
        case null, bool(Bool), number(Double), string(String), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else {
                self = .other
            }
        }

        var string: String? { if case .string(let value) = self { value } else { nil } }
    }

    package static func parse(status: Int, body: Data, receivedAt: Date) throws -> Parsed {
        let object = try? JSONDecoder().decode([String: Scalar].self, from: body)
        if let error = object?["error"]?.string {
            throw oauthError(error, description: object?["error_description"]?.string, status: status)
        }
        guard (200..<300).contains(status) else {
            let transient = status >= 500 || status == 429 || status == 408
            throw OAuthError(
                code: transient ? .transient : .malformedResponse, status: status,
                message: transient
                    ? "Spotify's sign-in service is unavailable (HTTP \(status)). Your sign-in is kept; try again later."
                    : "Spotify's sign-in service answered HTTP \(status) without an explanation.")
        }
        guard let object else {
            throw OAuthError(
                code: .transient, status: status,
                message: "Spotify's sign-in service sent an unreadable answer. Your sign-in is kept; try again.")
        }
        guard let access = object["access_token"]?.string, !access.isEmpty else {
            throw OAuthError(
                code: .malformedResponse, status: status,
                message: "Spotify's answer had no access token; nothing was stored.")
        }
        guard (object["token_type"]?.string)?.lowercased() ?? "bearer" == "bearer" else {
            throw OAuthError(
                code: .malformedResponse, status: status,
                message: "Spotify's answer had a token type other than Bearer.")
        }
        let refresh: RefreshToken?
        // Since July 2026 the PKCE refresh grant sends no refresh token; stacks that store the field
        // blindly send `null` or `""` on. All three mean "keep the one you have".
        switch object["refresh_token"] {
        case nil, .null: refresh = nil
        case .string(let text): refresh = text.isEmpty ? nil : RefreshToken(text)
        default:
            throw OAuthError(
                code: .malformedResponse, status: status,
                message: "Spotify's answer had a malformed refresh token; nothing was stored.")
        }
        return Parsed(
            accessToken: AccessToken(access), refreshToken: refresh,
            expiresAt: try expiry(object["expires_in"], receivedAt: receivedAt, status: status),
            // No `scope` (or an empty one) keeps what was granted: a refresh never changes the scopes.
            scopes: object["scope"]?.string.map { $0.split(separator: " ").map(String.init) }.flatMap {
                $0.isEmpty ? nil : $0
            })
    }

    /// `expires_in`: numbers and numeric strings accepted, huge values clamped, `≤ 0` means
    /// "refresh now", absent or `null` means unknown; other types are refused.
    static func expiry(_ value: Scalar?, receivedAt: Date, status: Int) throws -> Date? {
        let seconds: Double
        switch value {
        case nil, .null: return nil
        case .number(let number): seconds = number
        case .string(let text) where Double(text.trimmingCharacters(in: .whitespaces))?.isFinite == true:
            seconds = Double(text.trimmingCharacters(in: .whitespaces))!
        default:
            throw OAuthError(
                code: .malformedResponse, status: status,
                message: "Spotify's answer had an unreadable expires_in; nothing was stored.")
        }
        guard seconds.isFinite, seconds > 0 else { return receivedAt }
        return receivedAt.addingTimeInterval(max(0, min(seconds, maxLifetime) - skewMargin))
    }

    static func oauthError(_ error: String, description: String?, status: Int) -> OAuthError {
        let said = description.map { SpotifyAPIError.sanitized($0, limit: 120) }
        switch error {
        case "invalid_grant":
            return OAuthError(
                code: .invalidGrant, status: status,
                message: "Spotify no longer accepts this sign-in (\(said ?? "invalid_grant")). Sign in again.")
        case "invalid_client":
            return OAuthError(
                code: .invalidClient, status: status,
                message:
                    "Spotify does not know this client ID (\(said ?? "invalid_client")). Check the app's client ID in the Spotify developer dashboard."
            )
        default:
            return OAuthError(
                code: .malformedResponse, status: status,
                message:
                    "Spotify's sign-in service refused the request: \(SpotifyAPIError.sanitized(error, limit: 60))\(said.map { " (\($0))" } ?? "")."
            )
        }
    }
}
