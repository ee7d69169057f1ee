public import Foundation

/// A cover or profile image. Spotify's image URLs expire within a day: cache bytes, not URLs.
public struct SpotifyImage: Hashable, Sendable, Codable {
    /// Where the image is; the URL expires within a day.
    public var url: URL
    /// Its width in pixels, when Spotify says.
    public var width: Int?
    /// Its height in pixels, when Spotify says.
    public var height: Int?

    /// An image at `url`.
    package init(url: URL, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }

    /// The smallest image at least `minimumSize` pixels wide (or the largest there is), for covers.
    public static func best(in images: [SpotifyImage], minimumSize: Int = 300) -> SpotifyImage? {
        let bigEnough = images.filter { ($0.width ?? $0.height ?? 0) >= minimumSize }
        if let smallest = bigEnough.min(by: { ($0.width ?? $0.height ?? 0) < ($1.width ?? $1.height ?? 0) }) {
            return smallest
        }
        // Images without sizes (common for user-uploaded covers) come first; otherwise the largest.
        return images.first { $0.width == nil && $0.height == nil }
            ?? images.max { ($0.width ?? 0) < ($1.width ?? 0) }
    }
}

/// A user as Spotify shows them inside other objects (a playlist's owner, an entry's `added_by`).
public struct PublicUser: Hashable, Sendable, Decodable {
    public var id: String
    /// The name the user shows, when they set one.
    public var displayName: String?

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name"
    }

    /// A user with `id` and `displayName`.
    package init(id: String, displayName: String?) {
        self.id = id
        self.displayName = displayName
    }
}

/// `GET /me`: the signed-in user. Since 2026 Development Mode apps no longer get country, email,
/// product or followers.
public struct CurrentUser: Hashable, Sendable, Decodable {
    public var id: String
    /// The name the user shows, when they set one.
    public var displayName: String?
    /// The user's pictures, largest first.
    public var images: [SpotifyImage]
    /// The user's `spotify:` URI.
    public var uri: String?
    /// The user's page on open.spotify.com.
    public var webURL: URL?
    /// The immutable key of the account (added May 2026); `id` can change and is for display.
    public var accountID: String?

    /// A user as `/me` describes one.
    package init(
        id: String, displayName: String?, accountID: String?, images: [SpotifyImage] = [], uri: String? = nil,
        webURL: URL? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.accountID = accountID
        self.images = images
        self.uri = uri
        self.webURL = webURL
    }

    enum CodingKeys: String, CodingKey {
        case id, images, uri
        case displayName = "display_name"
        case externalURLs = "external_urls"
        case accountID = "account_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        displayName = container.decodeLeniently(String.self, forKey: .displayName)
        images = container.decodeLeniently([SpotifyImage].self, forKey: .images) ?? []
        uri = container.decodeLeniently(String.self, forKey: .uri)
        webURL = container.decodeLeniently(ExternalURLs.self, forKey: .externalURLs)?.spotify
        accountID = container.decodeLeniently(String.self, forKey: .accountID)
    }

    /// The name to show: the display name, or the user ID when there is none.
    public var name: String { displayName ?? id }
}

/// An artist as it appears inside a track.
public struct SimplifiedArtist: Hashable, Sendable, Decodable {
    public var id: String?
    /// The artist's name.
    public var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.decodeLeniently(String.self, forKey: .id)
        name = container.decodeLeniently(String.self, forKey: .name) ?? ""
    }
}

/// An album as it appears inside a track.
public struct SimplifiedAlbum: Hashable, Sendable, Decodable {
    public var id: String?
    /// The album's name.
    public var name: String
    /// The album's covers, largest first.
    public var images: [SpotifyImage]

    enum CodingKeys: String, CodingKey { case id, name, images }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.decodeLeniently(String.self, forKey: .id)
        name = container.decodeLeniently(String.self, forKey: .name) ?? ""
        images = container.decodeLeniently([SpotifyImage].self, forKey: .images) ?? []
    }
}
