public import Foundation
public import SpotifyWebAPI

/// A sign-in an app kept by itself before it used SpotifyLink: the refresh token it saved (in
/// its user defaults, say), to be adopted with ``SpotifySession/adopt(_:)`` so that its users stay
/// signed in across the upgrade.
public struct EarlierSignIn: Sendable {
    /// The refresh token the app kept. Prints `<redacted>`.
    public var refreshToken: RefreshToken
    /// The scopes the app asked for at that sign-in; Spotify's answer to the refresh replaces them
    /// when it names the scopes granted.
    public var scopes: [String]
    /// When the user signed in, if the app kept it: Spotify ends a sign-in six months after it
    /// began, and the package warns two weeks before. `nil` counts from the adoption, so the
    /// warning may come late, never early.
    public var signedInAt: Date?

    /// The sign-in whose refresh token is `refreshToken`.
    public init(refreshToken: RefreshToken, scopes: [String], signedInAt: Date? = nil) {
        self.refreshToken = refreshToken
        self.scopes = scopes
        self.signedInAt = signedInAt
    }
}

/// What ``SpotifySession/adopt(_:)`` did with an earlier sign-in. In both cases the app deletes
/// what it kept itself: the session needs it no more.
public enum SignInAdoption: Sendable, Equatable {
    /// Spotify took the refresh token (one refresh) and the session's store now keeps the sign-in.
    case adopted
    /// The store already kept a sign-in (an earlier launch adopted it, or the user connected):
    /// nothing was sent, and the earlier token was not used.
    case alreadySignedIn
}
