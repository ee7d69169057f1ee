public import Foundation
package import JSONReading

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

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    package enum CodingKeys: String, WireKey {
        case url, width, height
        package static let table = WireKeyTable<Self>()
    }

    /// The statement: `url` required, `width` and `height` integers or absent or `null`.
    package struct Fields: WireObject {
        var url: URL?
        var width: Int?
        var height: Int?
        var wellTyped = true

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .url:
                if let text = try value.string() { url = value.internedURL(text) }
            case .width:
                let read = try value.optionalInt()
                width = read.value
                wellTyped = wellTyped && read.wellTyped
            case .height:
                let read = try value.optionalInt()
                height = read.value
                wellTyped = wellTyped && read.wellTyped
            }
        }
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

    /// A user with `id` and `displayName`.
    package init(id: String, displayName: String?) {
        self.id = id
        self.displayName = displayName
    }

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement: `id` a string, `display_name` a string or absent or `null`.
    package struct Fields: WireObject {
        package enum CodingKeys: String, WireKey {
            case id
            case displayName = "display_name"
            package static let table = WireKeyTable<Self>()
        }

        var id: (value: String?, wellTyped: Bool) = (nil, true)
        var displayName: (value: String?, wellTyped: Bool) = (nil, true)

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .id: id = try value.optionalString()
            case .displayName: displayName = try value.optionalString()
            }
        }
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

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement: both members strings, leniently. A local file's artist name is read only
    /// when every name is a string or `null`, so the name's type is kept.
    package struct Fields: WireObject {
        package enum CodingKeys: String, WireKey {
            case id, name
            package static let table = WireKeyTable<Self>()
        }

        var id: String?
        var name: (value: String?, wellTyped: Bool) = (nil, true)

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .id: id = try value.internedString()
            case .name: name = try value.internedOptionalString()
            }
        }
    }
}

/// An album as it appears inside a track.
public struct SimplifiedAlbum: Hashable, Sendable, Decodable {
    public var id: String?
    /// The album's name.
    public var name: String
    /// The album's covers, largest first.
    public var images: [SpotifyImage]

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement: every member lenient; the name's type is kept for a local file's album name.
    package struct Fields: WireObject {
        package enum CodingKeys: String, WireKey {
            case id, name, images
            package static let table = WireKeyTable<Self>()
        }

        var id: String?
        var name: (value: String?, wellTyped: Bool) = (nil, true)
        var images: [SpotifyImage] = []

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .id: id = try value.internedString()
            case .name: name = try value.internedOptionalString()
            case .images: images = try value.images()
            }
        }
    }
}

extension SpotifyImage: WireModel {
    package init?(wire fields: Fields) {
        guard fields.wellTyped, let url = fields.url else { return nil }
        self.init(url: url, width: fields.width, height: fields.height)
    }
}

extension PublicUser: WireModel {
    package init?(wire fields: Fields) {
        guard let id = fields.id.value, fields.displayName.wellTyped else { return nil }
        self.init(id: id, displayName: fields.displayName.value)
    }
}

extension SimplifiedArtist: WireModel {
    package init(wire fields: Fields) {
        self.init(id: fields.id, name: fields.name.value ?? "")
    }
}

extension SimplifiedAlbum: WireModel {
    package init(wire fields: Fields) {
        self.init(id: fields.id, name: fields.name.value ?? "", images: fields.images)
    }
}

extension SimplifiedArtist {
    init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

extension SimplifiedAlbum {
    init(id: String?, name: String, images: [SpotifyImage]) {
        self.id = id
        self.name = name
        self.images = images
    }
}
