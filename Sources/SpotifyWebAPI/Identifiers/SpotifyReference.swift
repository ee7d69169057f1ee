public import Foundation

/// What a Spotify URI or link points at: a kind of object and its ID.
///
/// Parses every form Spotify hands out (`spotify:` URIs, `open.spotify.com` links with locale
/// segments, share tokens, legacy user playlists, embeds) and formats the two forms apps open:
/// the `spotify:` URI and the universal link.
public struct SpotifyReference: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of object a reference can name.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// A playlist, track, album, artist, podcast episode or show.
        case playlist, track, album, artist, episode, show
    }

    /// What the reference names.
    public var kind: Kind
    public var id: SpotifyID
    /// The owner named by a legacy `spotify:user:USER:playlist:ID` form, kept for display only.
    public var legacyUser: String?

    /// A reference to the `kind` object `id`.
    public init(kind: Kind, id: SpotifyID, legacyUser: String? = nil) {
        self.kind = kind
        self.id = id
        self.legacyUser = legacyUser
    }

    /// A playlist reference.
    public static func playlist(_ id: SpotifyID) -> SpotifyReference { .init(kind: .playlist, id: id) }

    /// A track reference.
    public static func track(_ id: SpotifyID) -> SpotifyReference { .init(kind: .track, id: id) }

    /// The `spotify:` URI, which opens the Spotify app directly.
    public var uri: String { "spotify:\(kind.rawValue):\(id.rawValue)" }

    /// The `https://open.spotify.com/...` universal link: opens the app, or the web player without it.
    public var webURL: URL { URL(string: "https://open.spotify.com/\(kind.rawValue)/\(id.rawValue)")! }

    public var description: String { uri }

    /// Parses a URI, a link or a bare ID.
    ///
    /// - Parameters:
    ///   - text: what the user pasted; surrounding white space is ignored.
    ///   - expecting: the kind a bare 22-character ID is taken as, and the only kind accepted, if given.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code/invalidIdentifier``; for a
    ///   short link, which only a redirect resolves, the message says how to get the full link.
    public init(parsing text: String, expecting: Kind? = nil) throws(SpotifyAPIError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parsed: SpotifyReference
        if trimmed.isEmpty {
            throw Self.failure(text, "it is empty. Paste a Spotify link or URI.")
        } else if trimmed.lowercased().hasPrefix("spotify:") {
            parsed = try Self.parseURI(trimmed)
        } else if let url = Self.webURL(trimmed) {
            parsed = try Self.parseLink(url, original: trimmed)
        } else if SpotifyID.isValid(trimmed), let kind = expecting {
            parsed = SpotifyReference(kind: kind, id: SpotifyID(unchecked: trimmed))
        } else {
            throw Self.failure(
                text, "it is neither a spotify: URI, an open.spotify.com link, nor a 22-character ID.")
        }
        if let expecting, parsed.kind != expecting {
            throw Self.failure(text, "it names a \(parsed.kind.rawValue), not a \(expecting.rawValue).")
        }
        self = parsed
    }

    private static func parseURI(_ text: String) throws(SpotifyAPIError) -> SpotifyReference {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count >= 2, parts[1] == "local" {
            throw failure(text, "it is a local file, which exists only on one device and has no Spotify ID.")
        }
        if parts.count == 5, parts[1] == "user", parts[3] == "playlist" {
            return try reference(kindName: "playlist", id: parts[4], user: parts[2], original: text)
        }
        guard parts.count == 3 else { throw failure(text, "a spotify: URI has the form spotify:KIND:ID.") }
        return try reference(kindName: parts[1], id: parts[2], user: nil, original: text)
    }

    private static func webURL(_ text: String) -> URL? {
        var candidate = text
        if !candidate.contains("://") { candidate = "https://" + candidate }
        guard let url = URL(string: candidate), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = url.host?.lowercased(),
            host == "open.spotify.com" || host == "play.spotify.com" || host == "spotify.link"
                || host == "spotify.app.link"
        else { return nil }
        return url
    }

    private static func parseLink(_ url: URL, original: String) throws(SpotifyAPIError) -> SpotifyReference {
        let host = url.host?.lowercased() ?? ""
        var segments = url.path.split(separator: "/").map(String.init)
        if host == "spotify.link" || host == "spotify.app.link" || segments.first == "s" {
            throw SpotifyAPIError(
                code: .invalidIdentifier,
                message: "'\(SpotifyAPIError.sanitized(original, limit: 80))' is a short link: open it in a "
                    + "browser and paste the open.spotify.com link it leads to.",
                parameter: "link"
            )
        }
        if let first = segments.first, first.hasPrefix("intl-") { segments.removeFirst() }
        if segments.first == "embed" || segments.first == "embed-podcast" { segments.removeFirst() }
        if segments.count == 4, segments[0] == "user", segments[2] == "playlist" {
            return try reference(kindName: "playlist", id: segments[3], user: segments[1], original: original)
        }
        guard segments.count == 2 else {
            throw failure(original, "a Spotify link has the form https://open.spotify.com/KIND/ID.")
        }
        return try reference(kindName: segments[0], id: segments[1], user: nil, original: original)
    }

    private static func reference(
        kindName: String, id: String, user: String?, original: String
    ) throws(SpotifyAPIError) -> SpotifyReference {
        guard let kind = Kind(rawValue: kindName) else {
            throw failure(
                original, "Spotify has no object of kind '\(SpotifyAPIError.sanitized(kindName, limit: 20))'.")
        }
        guard SpotifyID.isValid(id) else {
            throw failure(original, "its ID is not 22 letters and digits.")
        }
        return SpotifyReference(kind: kind, id: SpotifyID(unchecked: id), legacyUser: user)
    }

    private static func failure(_ text: String, _ reason: String) -> SpotifyAPIError {
        SpotifyAPIError(
            code: .invalidIdentifier,
            message: "'\(SpotifyAPIError.sanitized(text, limit: 80))' is not a Spotify link: \(reason)",
            parameter: "link"
        )
    }
}
