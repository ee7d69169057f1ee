public import Foundation

/// The accounts service tokens come from; also the key that keeps one issuer's tokens from
/// reaching another.
public struct AuthorizationServer: Sendable, Hashable {
    /// Identifies the issuer in token stores and flows: `https://accounts.spotify.com` or the emulator's URL.
    public var issuer: String
    /// Where the user is sent to sign in and consent.
    public var authorizeURL: URL
    /// Where codes and refresh tokens are exchanged.
    public var tokenURL: URL
    /// The Web API base that goes with these tokens.
    public var apiBaseURL: URL
    /// Whether this service names itself in every authorization callback with RFC 9207's `iss`
    /// parameter. When it does, a callback without `iss` is refused as a possible mix-up; an `iss`
    /// naming another service is refused either way. Live Spotify does not send `iss` (late
    /// 2026); the emulator does.
    public var sendsIssuerInCallbacks: Bool

    /// A service with Spotify's protocol at these addresses.
    public init(issuer: String, authorizeURL: URL, tokenURL: URL, apiBaseURL: URL, sendsIssuerInCallbacks: Bool = false)
    {
        self.issuer = issuer
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.apiBaseURL = apiBaseURL
        self.sendsIssuerInCallbacks = sendsIssuerInCallbacks
    }

    /// Live Spotify.
    public static let live = AuthorizationServer(
        issuer: "https://accounts.spotify.com",
        authorizeURL: URL(string: "https://accounts.spotify.com/authorize")!,
        tokenURL: URL(string: "https://accounts.spotify.com/api/token")!,
        apiBaseURL: URL(string: "https://api.spotify.com/v1")!)

    /// An emulator (or any server with Spotify's paths) at `url`.
    public static func emulator(url: URL) -> AuthorizationServer {
        let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        return AuthorizationServer(
            issuer: base, authorizeURL: URL(string: base + "/authorize")!, tokenURL: URL(string: base + "/api/token")!,
            apiBaseURL: URL(string: base + "/v1")!, sendsIssuerInCallbacks: true)
    }

    /// Where users revoke an app's access: Spotify has no revoke endpoint.
    public static let revokeAccessPage = URL(string: "https://www.spotify.com/account/apps/")!
}

/// The scopes SpotifyLink uses: read-only, and fine for Spotify Free and Premium alike.
public enum SpotifyScope {
    /// Reading the user's own and collaborative playlists.
    public static let readPlaylists = ["playlist-read-private", "playlist-read-collaborative"]
    /// Reading what is playing now.
    public static let nowPlaying = ["user-read-currently-playing", "user-read-playback-state"]
    /// What the journal and routine apps ask for: playlists and what is playing, read-only.
    public static let all = readPlaylists + nowPlaying

    /// What a scope lets the app do, in words for people.
    package static func explanation(_ scope: String) -> String {
        switch scope {
        case "playlist-read-private": "See your private playlists"
        case "playlist-read-collaborative": "See playlists you collaborate on"
        case "user-read-currently-playing": "See what you are playing right now"
        case "user-read-playback-state": "See whether Spotify is playing, and on which device"
        default: scope
        }
    }
}
