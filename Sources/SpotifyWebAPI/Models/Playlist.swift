public import Foundation
package import JSONReading

/// The `items` (formerly `tracks`) reference of a simplified playlist: where its entries are and
/// how many there are. `total` is `nil` when Spotify does not say.
public struct PlaylistItemsReference: Hashable, Sendable, Decodable {
    /// Where the entries are read from.
    public var href: URL?
    /// How many entries there are.
    public var total: Int?

    /// A reference to the entries at `href`, `total` of them.
    package init(href: URL? = nil, total: Int?) {
        self.href = href
        self.total = total
    }

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }
}

extension PlaylistItemsReference: WireModel, WireObject {
    package enum CodingKeys: String, WireKey {
        case href, total
        package static let table = WireKeyTable<Self>()
    }

    package init() {
        self.init(total: nil)
    }

    package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
        switch key {
        case .href: href = try value.url()
        case .total: total = try value.int()
        }
    }

    package init?(wire fields: Self) {
        self = fields
    }
}

/// A playlist as lists show it (`/me/playlists`, search results).
public struct SimplifiedPlaylist: Hashable, Sendable, Decodable, Identifiable {
    public var id: SpotifyID
    /// The playlist's name.
    public var name: String
    public var description: String?
    /// Its covers, largest first; their URLs expire within a day.
    public var images: [SpotifyImage]
    /// Its owner.
    public var owner: PublicUser?
    /// Whether it shows on the owner's profile; `nil` when Spotify does not say.
    public var isPublic: Bool?
    /// Whether others may edit it.
    public var collaborative: Bool
    /// Spotify's version of the playlist: unchanged means the entries are too.
    public var snapshotID: String?
    /// Its `spotify:` URI.
    public var uri: String
    /// Its page on open.spotify.com.
    public var webURL: URL?
    /// Where the entries are and how many; `nil` when neither `items` nor `tracks` was sent.
    public var itemsReference: PlaylistItemsReference?

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement of every playlist shape's shared members. `id` is required; `items` (the
    /// 2026 name) or `tracks` is the entries' reference.
    package struct Fields: WireObject {
        package enum CodingKeys: String, WireKey {
            case id, name, description, images, owner, collaborative, uri, items, tracks
            case isPublic = "public"
            case snapshotID = "snapshot_id"
            case externalURLs = "external_urls"
            package static let table = WireKeyTable<Self>()
        }

        /// `{"spotify": …}`, the only member of `external_urls` kept.
        enum SpotifyKey: String, WireKey {
            case spotify
            static let table = WireKeyTable<Self>()
        }

        var id: SpotifyID?
        var name: String?
        var description: String?
        var images: [SpotifyImage] = []
        var owner: PublicUser?
        var isPublic: Bool?
        var collaborative: Bool?
        var snapshotID: String?
        var uri: String?
        var webURL: URL?
        var items = Reference.absent
        var tracks = Reference.absent

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .id: id = try value.id()
            case .name: name = try value.string()
            case .description: description = try value.string()
            case .images: images = try value.images()
            case .owner: owner = try value.model(PublicUser.self)
            case .isPublic: isPublic = try value.bool()
            case .collaborative: collaborative = try value.bool()
            case .snapshotID: snapshotID = try value.string()
            case .uri: uri = try value.string()
            case .externalURLs: webURL = try value.member(SpotifyKey.self).flatMap { URL(string: $0) }
            case .items: items = try Reference(&value)
            case .tracks: tracks = try Reference(&value)
            }
        }
    }

    /// The `items` or `tracks` reference: absent, `null`, another type, or a reference.
    enum Reference {
        case absent, null, notObject
        case object(PlaylistItemsReference)

        init<Value: WireValue>(_ value: inout Value) throws(JSONReader.Declined) {
            if try value.null() {
                self = .null
            } else {
                self = try value.model(PlaylistItemsReference.self).map(Reference.object) ?? .notObject
            }
        }

        /// The first present, non-null one; `nil` when that one is not an object.
        static func choose(_ items: Reference, _ tracks: Reference) -> PlaylistItemsReference? {
            for candidate in [items, tracks] {
                switch candidate {
                case .absent, .null: continue
                case .notObject: return nil
                case .object(let reference): return reference
                }
            }
            return nil
        }
    }

    /// The number of entries, when Spotify says.
    public var itemCount: Int? { itemsReference?.total }
    /// The playlist as a reference (URI and universal link).
    public var reference: SpotifyReference { .playlist(id) }
}

private enum PageProbeKeys: String, CodingKey { case items }

extension SimplifiedPlaylist: FastPageItem {
    package static func readPageItems(_ value: inout FastValue) throws(JSONReader.Declined) -> Any? {
        try value.items(Self.self).map { $0 as Any }
    }

    package init?(wire fields: Fields) {
        // Without a valid ID the playlist cannot be read.
        guard let id = fields.id else { return nil }
        self.init(
            id: id, name: fields.name ?? "", description: fields.description.flatMap { $0.isEmpty ? nil : $0 },
            images: fields.images, owner: fields.owner, isPublic: fields.isPublic,
            collaborative: fields.collaborative ?? false, snapshotID: fields.snapshotID,
            uri: fields.uri ?? "spotify:playlist:\(id.rawValue)", webURL: fields.webURL,
            itemsReference: Reference.choose(fields.items, fields.tracks))
    }

    init(
        id: SpotifyID, name: String, description: String?, images: [SpotifyImage], owner: PublicUser?,
        isPublic: Bool?, collaborative: Bool, snapshotID: String?, uri: String, webURL: URL?,
        itemsReference: PlaylistItemsReference?
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.images = images
        self.owner = owner
        self.isPublic = isPublic
        self.collaborative = collaborative
        self.snapshotID = snapshotID
        self.uri = uri
        self.webURL = webURL
        self.itemsReference = itemsReference
    }
}

/// A playlist with its details (`GET /playlists/{id}`).
///
/// ``items`` holds the first page of entries only when the user owns or collaborates on the
/// playlist; since 2026 Spotify sends metadata alone for everyone else's.
public struct Playlist: Sendable, Decodable, Identifiable {
    /// What lists show of it: name, owner, covers, snapshot.
    public var summary: SimplifiedPlaylist
    /// The first page of entries, for the owner and collaborators only.
    public var items: Page<PlaylistEntry>?
    /// The entry count from `items.total` (or from a `{href,total}` reference).
    public var itemCount: Int?

    public var id: SpotifyID { summary.id }
    /// The playlist's name.
    public var name: String { summary.name }

    public init(from decoder: any Decoder) throws {
        summary = try SimplifiedPlaylist(from: decoder)
        let container = try decoder.container(keyedBy: SimplifiedPlaylist.Fields.CodingKeys.self)
        // A page of entries has an `items` array; a bare `{href, total}` reference (playlists the
        // user does not own) carries no entries.
        let pageKey = [SimplifiedPlaylist.Fields.CodingKeys.items, .tracks].first { key in
            (try? container.nestedContainer(keyedBy: PageProbeKeys.self, forKey: key).contains(.items)) == true
        }
        if let pageKey {
            items = try? container.decode(Page<PlaylistEntry>.self, forKey: pageKey)
        }
        itemCount = items?.total ?? summary.itemsReference?.total
    }
}

/// `GET /search?type=playlist`.
public struct PlaylistSearchResults: Sendable, Decodable {
    /// The page of playlists found.
    public var playlists: Page<SimplifiedPlaylist>

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement: `playlists`, a page, required.
    package typealias Fields = SinglePage<PlaylistsKey, SimplifiedPlaylist>

    package enum PlaylistsKey: String, WireKey {
        case playlists
        package static let table = WireKeyTable<Self>()
    }
}

extension PlaylistSearchResults: WireModel, FastDecodable {
    package init?(wire fields: Fields) {
        guard let playlists = fields.page else { return nil }
        self.playlists = playlists
    }
}
