public import Foundation

/// An artist (`GET /me/top/artists`). Since February 2026 Spotify sends no followers or popularity.
public struct Artist: Hashable, Sendable, Decodable, Identifiable {
    /// The artist's catalog ID.
    public var id: SpotifyID
    /// The artist's name.
    public var name: String
    /// Spotify's genre names for the artist; often empty.
    public var genres: [String]
    /// Portraits, largest first as Spotify sends them; their URLs expire within a day.
    public var images: [SpotifyImage]
    /// The `spotify:artist:` URI, which opens the Spotify app.
    public var uri: String
    /// The universal link, which opens Spotify.
    public var webURL: URL?

    enum CodingKeys: String, CodingKey {
        case id, name, genres, images, uri
        case externalURLs = "external_urls"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(SpotifyID.self, forKey: .id)
        name = container.decodeLeniently(String.self, forKey: .name) ?? ""
        genres = container.decodeLeniently([String].self, forKey: .genres) ?? []
        images = container.decodeLeniently([SpotifyImage].self, forKey: .images) ?? []
        uri = container.decodeLeniently(String.self, forKey: .uri) ?? "spotify:artist:\(id.rawValue)"
        webURL = container.decodeLeniently(ExternalURLs.self, forKey: .externalURLs)?.spotify
    }
}

/// A track the user saved, with when (`GET /me/tracks`).
public struct SavedTrack: Hashable, Sendable, Decodable {
    /// When the user saved it, when Spotify says.
    public var addedAt: Date?
    /// The saved track.
    public var track: Track

    enum CodingKeys: String, CodingKey {
        case track
        case addedAt = "added_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        addedAt = container.decodeLeniently(Date.self, forKey: .addedAt)
        track = try container.decode(Track.self, forKey: .track)
    }
}

/// The period `GET /me/top/{type}` looks at.
public enum TopItemsRange: String, Sendable, CaseIterable {
    /// About the last four weeks.
    case shortTerm = "short_term"
    /// About the last six months (Spotify's default).
    case mediumTerm = "medium_term"
    /// About the last year.
    case longTerm = "long_term"
}

/// `GET /search?type=track`.
package struct TrackSearchResults: Sendable, Decodable {
    package var tracks: Page<Track>

    package init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement: `tracks`, a page, required.
    package typealias Fields = SinglePage<TracksKey, Track>

    package enum TracksKey: String, WireKey {
        case tracks
        package static let table = WireKeyTable<Self>()
    }
}

extension TrackSearchResults: WireModel, FastDecodable {
    package init?(wire fields: Fields) {
        guard let tracks = fields.page else { return nil }
        self.tracks = tracks
    }
}
