public import Foundation
import SpotifyLinkSupport

/// `GET /me/player/currently-playing` when something is playing (a 204 is `nil` instead).
public struct CurrentlyPlaying: Hashable, Sendable, Decodable {
    /// What is playing.
    public enum Item: Hashable, Sendable {
        /// A song.
        case track(Track)
        /// A podcast episode.
        case episode(Episode)
        /// An advertisement (Spotify Free): no item is sent.
        case ad
        /// Spotify sent no item for a known type (an episode without `additional_types=episode`),
        /// or a type this version does not know.
        case unknown(type: String)

        /// The item's length; `nil` for an advertisement or an unknown item.
        public var duration: Duration? {
            switch self {
            case .track(let track): track.duration
            case .episode(let episode): episode.duration
            case .ad, .unknown: nil
            }
        }

        /// Whether Spotify marks the item explicit; `false` when it does not say, for an
        /// advertisement and for an unknown item.
        public var isExplicit: Bool {
            switch self {
            case .track(let track): track.explicit ?? false
            case .episode(let episode): episode.explicit ?? false
            case .ad, .unknown: false
            }
        }

        /// The item's `spotify:` URI, when there is an item.
        public var uri: String? {
            switch self {
            case .track(let track): track.uri
            case .episode(let episode): episode.uri
            case .ad, .unknown: nil
            }
        }

        /// The item's name, when there is an item.
        public var name: String? {
            switch self {
            case .track(let track): track.name
            case .episode(let episode): episode.name
            case .ad, .unknown: nil
            }
        }
    }

    /// When Spotify computed ``progress``, per Spotify's clock.
    public var timestamp: Date
    /// How far into the item, at ``timestamp``: from zero to a week, like an item's length.
    public var progress: Duration?
    /// Whether it plays (`false` when paused).
    public var isPlaying: Bool
    /// The playlist, album or artist the playback came from.
    public var contextURI: String?
    /// What is loaded.
    public var item: Item

    enum CodingKeys: String, CodingKey {
        case timestamp, context, item
        case progressMs = "progress_ms"
        case isPlaying = "is_playing"
        case type = "currently_playing_type"
    }

    private struct Context: Decodable { var uri: String? }
    private struct Typed: Decodable { var type: String? }

    /// A state of the player, as Spotify reports it.
    package init(timestamp: Date, progress: Duration?, isPlaying: Bool, contextURI: String?, item: Item) {
        self.timestamp = timestamp
        self.progress = progress
        self.isPlaying = isPlaying
        self.contextURI = contextURI
        self.item = item
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let millis = container.decodeLeniently(Double.self, forKey: .timestamp) ?? 0
        timestamp = Date(timeIntervalSince1970: millis / 1000)
        progress = container.decodeLeniently(Int.self, forKey: .progressMs).map { .itemLength(milliseconds: $0) }
        isPlaying = container.decodeLeniently(Bool.self, forKey: .isPlaying) ?? false
        contextURI = container.decodeLeniently(Context.self, forKey: .context)?.uri
        // When `currently_playing_type` is missing the item says what it is itself.
        let type =
            container.decodeLeniently(String.self, forKey: .type)
            ?? container.decodeLeniently(Typed.self, forKey: .item)?.type ?? "unknown"
        switch type {
        case "ad":
            item = .ad
        case "track":
            item = container.decodeLeniently(Track.self, forKey: .item).map(Item.track) ?? .unknown(type: type)
        case "episode":
            item = container.decodeLeniently(Episode.self, forKey: .item).map(Item.episode) ?? .unknown(type: type)
        default:
            item = .unknown(type: type)
        }
    }
}
