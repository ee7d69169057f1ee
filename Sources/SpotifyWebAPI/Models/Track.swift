public import Foundation

/// A track in the catalog.
///
/// ``previewURL`` is `nil` for apps created after November 2024 (Spotify sends no 30-second
/// previews to them): open the track in Spotify instead (``webURL`` or ``uri``).
public struct Track: Hashable, Sendable, Decodable, Identifiable {
    public var id: SpotifyID?
    /// The track's name.
    public var name: String
    /// Its length.
    public var duration: Duration
    /// Its `spotify:` URI; `nil` for tracks Spotify no longer has.
    ///
    /// Made from ``id`` when it is `spotify:track:` and the ID, as Spotify sends for every catalog
    /// track, so that 10,000 entries do not each keep a 36-byte copy; any other URI is kept as sent.
    public var uri: String? {
        get { storedURI.uri(id: id) }
        set { storedURI = DerivedURI(newValue, id: id) }
    }
    var storedURI: DerivedURI
    /// Its artists, in credit order.
    public var artists: [SimplifiedArtist]
    /// Its album.
    public var album: SimplifiedAlbum?
    /// Whether it plays in the user's market, when Spotify says.
    public var isPlayable: Bool?
    /// Whether it has explicit lyrics, when Spotify says.
    public var explicit: Bool?
    /// A 30-second preview; `nil` for apps created after November 2024, and kept optional for all.
    public var previewURL: URL?
    /// Its disc on the album (`1` on most), when Spotify says; `0` for a local file.
    public var discNumber: Int?
    /// Its place on the disc, when Spotify says; `0` for a local file.
    public var trackNumber: Int?
    /// Its International Standard Recording Code, when Spotify says: the key to the same recording
    /// elsewhere. The player's track comes without it (since September 2026); a local file has none.
    public var isrc: String?

    enum CodingKeys: String, CodingKey {
        case id, name, uri, artists, album, explicit
        case durationMs = "duration_ms"
        case isPlayable = "is_playable"
        case previewURL = "preview_url"
        case discNumber = "disc_number"
        case trackNumber = "track_number"
        case externalIDs = "external_ids"
    }

    /// The `external_ids` object; only the ISRC is kept.
    private struct ExternalIDs: Decodable { var isrc: String? }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.decodeLeniently(SpotifyID.self, forKey: .id)
        name = container.decodeLeniently(String.self, forKey: .name) ?? ""
        duration = .milliseconds(container.decodeLeniently(Int.self, forKey: .durationMs) ?? 0)
        storedURI = DerivedURI(container.decodeLeniently(String.self, forKey: .uri), id: id)
        artists = container.decodeLeniently([SimplifiedArtist].self, forKey: .artists) ?? []
        album = container.decodeLeniently(SimplifiedAlbum.self, forKey: .album)
        isPlayable = container.decodeLeniently(Bool.self, forKey: .isPlayable)
        explicit = container.decodeLeniently(Bool.self, forKey: .explicit)
        previewURL = container.decodeLeniently(URL.self, forKey: .previewURL)
        discNumber = container.decodeLeniently(Int.self, forKey: .discNumber)
        trackNumber = container.decodeLeniently(Int.self, forKey: .trackNumber)
        isrc = container.decodeLeniently(ExternalIDs.self, forKey: .externalIDs)?.isrc
    }

    /// Artist names joined for display.
    public var artistLine: String { artists.map(\.name).joined(separator: ", ") }

    /// Where to open the track: its `spotify:` URI and universal link; `nil` for a track without
    /// an ID (a local file).
    public var reference: SpotifyReference? { id.map { .track($0) } }

    /// The universal link (`https://open.spotify.com/track/…`), which opens Spotify; made from the
    /// ID rather than kept from `external_urls`, so 10,000 entries hold no 10,000 URLs.
    public var webURL: URL? { reference?.webURL }
}

/// A podcast episode, inside a playlist or playing now.
public struct Episode: Hashable, Sendable, Decodable {
    public var id: SpotifyID?
    /// The episode's name.
    public var name: String
    /// Its length.
    public var duration: Duration
    /// Its `spotify:` URI.
    public var uri: String?
    /// The show's name, when Spotify sends the show.
    public var showName: String?
    /// Its covers, largest first.
    public var images: [SpotifyImage]

    enum CodingKeys: String, CodingKey {
        case id, name, uri, images, show
        case durationMs = "duration_ms"
    }

    private struct Show: Decodable { var name: String? }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.decodeLeniently(SpotifyID.self, forKey: .id)
        name = container.decodeLeniently(String.self, forKey: .name) ?? ""
        duration = .milliseconds(container.decodeLeniently(Int.self, forKey: .durationMs) ?? 0)
        uri = container.decodeLeniently(String.self, forKey: .uri)
        showName = container.decodeLeniently(Show.self, forKey: .show)?.name
        images = container.decodeLeniently([SpotifyImage].self, forKey: .images) ?? []
    }
}

/// A file from the user's own device added to a playlist: no catalog ID, only a `spotify:local:` URI.
public struct LocalFile: Hashable, Sendable {
    /// The file's name as the user's library shows it.
    public var name: String
    /// Its `spotify:local:` URI.
    public var uri: String
    /// Its length.
    public var duration: Duration
    /// The artist, from the file's tags.
    public var artistName: String?
    /// The album, from the file's tags.
    public var albumName: String?
}

/// A track's `spotify:` URI, kept only when it is not `spotify:track:` and the track's ID.
enum DerivedURI: Hashable, Sendable {
    /// No URI was sent.
    case absent
    /// `spotify:track:ID`, made again when asked for.
    case fromID
    /// Anything else, as sent.
    case other(String)

    private static let prefix = "spotify:track:"

    init(_ uri: String?, id: SpotifyID?) {
        guard let uri else {
            self = .absent
            return
        }
        self = Self.isMade(from: id, uri.utf8) ? .fromID : .other(uri)
    }

    /// A track's URI as the fast reader found it in the document.
    init(_ uri: JSONReader.RawString?, id: SpotifyID?) {
        switch uri {
        case nil: self = .absent
        case .text(let text): self.init(text, id: id)
        case .bytes(let bytes):
            self = Self.isMade(from: id, bytes) ? .fromID : .other(String(decoding: bytes, as: UTF8.self))
        }
    }

    func uri(id: SpotifyID?) -> String? {
        switch self {
        case .absent: nil
        case .fromID: id.map { Self.prefix + $0.rawValue }
        case .other(let uri): uri
        }
    }

    /// Whether `bytes` are `spotify:track:` and `id`, compared without building the URI.
    private static func isMade(from id: SpotifyID?, _ bytes: some Collection<UInt8>) -> Bool {
        guard let id, bytes.starts(with: prefix.utf8) else { return false }
        return id.hasCharacters(bytes.dropFirst(prefix.utf8.count))
    }
}
