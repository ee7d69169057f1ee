public import Foundation

/// One entry of a playlist (`/playlists/{id}/items`).
public struct PlaylistEntry: Hashable, Sendable, Decodable {
    /// What one playlist entry holds.
    public enum Item: Hashable, Sendable {
        /// A song from Spotify's catalog.
        case track(Track)
        /// A podcast episode.
        case episode(Episode)
        /// A file from the user's own device.
        case localFile(LocalFile)
        /// The entry's `item` was `null`: removed from the catalog or not available in this market.
        case unavailable
        /// An item of a type this version does not know; the page still decodes.
        case unknown(type: String?)

        /// The playing time, where the entry has one.
        public var duration: Duration? {
            switch self {
            case .track(let track): track.duration
            case .episode(let episode): episode.duration
            case .localFile(let file): file.duration
            case .unavailable, .unknown: nil
            }
        }

        /// The name to show.
        public var name: String? {
            switch self {
            case .track(let track): track.name
            case .episode(let episode): episode.name
            case .localFile(let file): file.name
            case .unavailable, .unknown: nil
            }
        }
    }

    /// When the entry was added; `nil` for very old playlists.
    public var addedAt: Date?
    /// The user ID of who added it, when Spotify says.
    public var addedBy: String?
    /// Whether the item is a local file.
    public var isLocal: Bool
    /// The track, episode or local file.
    public var item: Item

    enum CodingKeys: String, CodingKey {
        case item, track
        case addedAt = "added_at"
        case addedBy = "added_by"
        case isLocal = "is_local"
    }

    private enum ItemKeys: String, CodingKey {
        case type, name, uri, album, artists
        case durationMs = "duration_ms"
    }

    private struct Named: Decodable { var name: String? }
    private struct AddedBy: Decodable { var id: String? }

    /// An entry holding `item`.
    package init(item: Item, addedAt: Date? = nil, addedBy: String? = nil, isLocal: Bool = false) {
        self.item = item
        self.addedAt = addedAt
        self.addedBy = addedBy
        self.isLocal = isLocal
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        addedAt = container.decodeLeniently(Date.self, forKey: .addedAt)
        addedBy = container.decodeLeniently(AddedBy.self, forKey: .addedBy)?.id
        isLocal = container.decodeLeniently(Bool.self, forKey: .isLocal) ?? false
        let key: CodingKeys? =
            [.item, .track].first { container.contains($0) && !((try? container.decodeNil(forKey: $0)) ?? true) }
        guard let key else {
            item = .unavailable
            return
        }
        let nested = try container.nestedContainer(keyedBy: ItemKeys.self, forKey: key)
        // `{}`: what a `fields` filter with the old names leaves; nothing to show or count.
        guard !nested.allKeys.isEmpty else {
            item = .unavailable
            return
        }
        let type = nested.decodeLeniently(String.self, forKey: .type)
        if isLocal || (nested.decodeLeniently(String.self, forKey: .uri)?.hasPrefix("spotify:local:") ?? false) {
            item = .localFile(
                LocalFile(
                    name: nested.decodeLeniently(String.self, forKey: .name) ?? "",
                    uri: nested.decodeLeniently(String.self, forKey: .uri) ?? "",
                    duration: .milliseconds(nested.decodeLeniently(Int.self, forKey: .durationMs) ?? 0),
                    artistName: nested.decodeLeniently([Named].self, forKey: .artists)?.first?.name,
                    albumName: nested.decodeLeniently(Named.self, forKey: .album)?.name
                ))
            return
        }
        switch type {
        case "track", nil:
            item = (try? container.decode(Track.self, forKey: key)).map(Item.track) ?? .unknown(type: type)
        case "episode":
            item = (try? container.decode(Episode.self, forKey: key)).map(Item.episode) ?? .unknown(type: type)
        default:
            item = .unknown(type: type)
        }
    }
}
