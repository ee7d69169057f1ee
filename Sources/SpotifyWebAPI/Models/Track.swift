public import Foundation
package import JSONReading
import SpotifyLinkSupport

/// A track in the catalog.
///
/// ``previewURL`` is `nil` for apps created after November 2024 (Spotify sends no 30-second
/// previews to them): open the track in Spotify instead (``webURL`` or ``uri``).
public struct Track: Hashable, Sendable, Decodable, Identifiable {
    public var id: SpotifyID?
    /// The track's name.
    public var name: String
    /// Its length, from zero to a week: a `duration_ms` outside that (no song has one) is read as
    /// the nearer bound, so that no sum or conversion of it can trap.
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

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
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
    /// Its length, from zero to a week: a `duration_ms` outside that (no song has one) is read as
    /// the nearer bound, so that no sum or conversion of it can trap.
    public var duration: Duration
    /// Its `spotify:` URI.
    public var uri: String?
    /// The show's name, when Spotify sends the show.
    public var showName: String?
    /// Its covers, largest first.
    public var images: [SpotifyImage]
    /// Whether it has explicit content, when Spotify says.
    public var explicit: Bool?

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }
}

/// A file from the user's own device added to a playlist: no catalog ID, only a `spotify:local:` URI.
public struct LocalFile: Hashable, Sendable {
    /// The file's name as the user's library shows it.
    public var name: String
    /// Its `spotify:local:` URI.
    public var uri: String
    /// Its length, from zero to a week: a `duration_ms` outside that (no song has one) is read as
    /// the nearer bound, so that no sum or conversion of it can trap.
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

/// The statement of an item object: a track, an episode or a local file, which `Track`, `Episode`
/// and a playlist entry's item all read. One pass reads every member any of them needs, so an
/// entry's choice between the three can wait for the whole entry (its `is_local` may come after
/// the item).
package struct ItemFields: WireObject {
    package enum CodingKeys: String, WireKey {
        case type, name, uri, artists, album, id, explicit, show, images
        case durationMs = "duration_ms"
        case isPlayable = "is_playable"
        case previewURL = "preview_url"
        case discNumber = "disc_number"
        case trackNumber = "track_number"
        case externalIDs = "external_ids"
        package static let table = WireKeyTable<Self>()
    }

    /// `{"isrc": …}`, the only member of `external_ids` kept.
    enum ISRCKey: String, WireKey {
        case isrc
        static let table = WireKeyTable<Self>()
    }

    /// `{"name": …}`, the only member of `show` kept.
    enum NameKey: String, WireKey {
        case name
        static let table = WireKeyTable<Self>()
    }

    /// Whether any of the keys a playlist entry's item probe knows was present (`{}` and objects
    /// with none of them are unavailable entries).
    var hasProbeKey = false
    var type: String?
    var name: String?
    /// As it stands in the document: a track's is compared with its ID, and no `String` is made
    /// when it is that ID's own.
    var uri: JSONReader.RawString?
    var durationMs: Int?
    var id: SpotifyID?
    /// `nil` when `artists` is not an array of objects.
    var artists: [SimplifiedArtist]?
    /// The first artist's name for a local file: `valid` false when any element or name has another
    /// type.
    var firstArtistName: (name: String?, valid: Bool) = (nil, false)
    var album: SimplifiedAlbum?
    var albumName: (name: String?, valid: Bool) = (nil, false)
    var isPlayable: Bool?
    var explicit: Bool?
    var previewURL: URL?
    var showName: String?
    var images: [SpotifyImage] = []
    var discNumber: Int?
    var trackNumber: Int?
    var isrc: String?

    package init() {}

    package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
        switch key {
        case .type, .name, .uri, .durationMs, .artists, .album: hasProbeKey = true
        default: break
        }
        switch key {
        case .type: type = try value.string()
        case .name: name = try value.string()
        case .uri: uri = try value.rawString()
        case .durationMs: durationMs = try value.int()
        case .artists: try readArtists(&value)
        case .album:
            guard let fields = try value.object(SimplifiedAlbum.Fields.self) else { return }
            var album = SimplifiedAlbum(wire: fields)
            album.images = value.covers(album.images, album: album.id)
            self.album = album
            albumName = fields.name.wellTyped ? (fields.name.value, true) : (nil, false)
        case .id: id = try value.id()
        case .isPlayable: isPlayable = try value.bool()
        case .explicit: explicit = try value.bool()
        case .previewURL: previewURL = try value.url()
        case .show: showName = try value.member(NameKey.self)
        case .images: images = try value.images()
        case .discNumber: discNumber = try value.int()
        case .trackNumber: trackNumber = try value.int()
        case .externalIDs: isrc = try value.member(ISRCKey.self)
        }
    }

    private mutating func readArtists<Value: WireValue>(_ value: inout Value) throws(JSONReader.Declined) {
        var artists: [SimplifiedArtist] = []
        var firstName: String?
        var allObjects = true
        var namesValid = true
        let isArray = try value.elements(of: SimplifiedArtist.Fields.self) { element in
            guard case .object(let fields) = element else {
                allObjects = false
                return
            }
            if artists.isEmpty { firstName = fields.name.value }
            namesValid = namesValid && fields.name.wellTyped
            artists.append(SimplifiedArtist(wire: fields))
        }
        guard isArray else { return }
        self.artists = allObjects ? artists : nil
        firstArtistName = allObjects && namesValid ? (firstName, true) : (nil, false)
    }

    var track: Track {
        Track(
            id: id, name: name ?? "", duration: .itemLength(milliseconds: durationMs ?? 0),
            uri: DerivedURI(uri, id: id),
            artists: artists ?? [], album: album, isPlayable: isPlayable, explicit: explicit, previewURL: previewURL,
            discNumber: discNumber, trackNumber: trackNumber, isrc: isrc)
    }

    var episode: Episode {
        Episode(
            id: id, name: name ?? "", duration: .itemLength(milliseconds: durationMs ?? 0), uri: uri?.string,
            showName: showName,
            images: images, explicit: explicit)
    }

    /// The entry's item, as a playlist entry chooses it.
    func playlistItem(isLocal: Bool) -> PlaylistEntry.Item {
        guard hasProbeKey else { return .unavailable }
        if isLocal || (uri?.starts(with: "spotify:local:") ?? false) {
            return .localFile(
                LocalFile(
                    name: name ?? "", uri: uri?.string ?? "", duration: .itemLength(milliseconds: durationMs ?? 0),
                    artistName: firstArtistName.valid ? firstArtistName.name : nil,
                    albumName: albumName.valid ? albumName.name : nil))
        }
        switch type {
        case "track", nil: return .track(track)
        case "episode": return .episode(episode)
        default: return .unknown(type: type)
        }
    }
}

extension Track: FastPageItem {
    package init(wire fields: ItemFields) {
        self = fields.track
    }

    package static func readPageItems(_ value: inout FastValue) throws(JSONReader.Declined) -> Any? {
        try value.items(Self.self).map { $0 as Any }
    }
}

extension Episode: WireModel {
    package init(wire fields: ItemFields) {
        self = fields.episode
    }
}

extension Track {
    init(
        id: SpotifyID?, name: String, duration: Duration, uri: DerivedURI, artists: [SimplifiedArtist],
        album: SimplifiedAlbum?, isPlayable: Bool?, explicit: Bool?, previewURL: URL?, discNumber: Int?,
        trackNumber: Int?, isrc: String?
    ) {
        self.id = id
        self.name = name
        self.duration = duration
        self.storedURI = uri
        self.artists = artists
        self.album = album
        self.isPlayable = isPlayable
        self.explicit = explicit
        self.previewURL = previewURL
        self.discNumber = discNumber
        self.trackNumber = trackNumber
        self.isrc = isrc
    }
}

extension Episode {
    init(
        id: SpotifyID?, name: String, duration: Duration, uri: String?, showName: String?, images: [SpotifyImage],
        explicit: Bool?
    ) {
        self.id = id
        self.name = name
        self.duration = duration
        self.uri = uri
        self.showName = showName
        self.images = images
        self.explicit = explicit
    }
}
