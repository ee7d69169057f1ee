/// One Spotify app at one accounts service: the key its tokens are saved under and its requests
/// are counted by. Tokens of one issuer never reach another, nor another app's.
///
/// Spotify counts its quota per *developer account*, across all of that developer's client IDs; a
/// device only sees its own app, so this is the finest key it can share.
public struct SpotifyAppKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The accounts service, as `https://accounts.spotify.com`.
    public var issuer: String
    /// The app's client ID.
    public var clientID: String

    /// - Parameters:
    ///   - issuer: the accounts service the tokens come from.
    ///   - clientID: the Spotify app's client ID.
    public init(issuer: String, clientID: String) {
        self.issuer = issuer
        self.clientID = clientID
    }

    public var description: String { "\(clientID) at \(issuer)" }

    /// The account name in secret stores and the basis of file names.
    package var account: String { "\(issuer) \(clientID)" }
}
