public import Foundation
package import JSONReading

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

        /// Whether Spotify marks the item explicit (a song's lyrics, an episode's content); `false`
        /// when it does not say, and for a local file, which Spotify never rates.
        public var isExplicit: Bool {
            switch self {
            case .track(let track): track.explicit ?? false
            case .episode(let episode): episode.explicit ?? false
            case .localFile, .unavailable, .unknown: false
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

    /// An entry holding `item`.
    package init(item: Item, addedAt: Date? = nil, addedBy: String? = nil, isLocal: Bool = false) {
        self.item = item
        self.addedAt = addedAt
        self.addedBy = addedBy
        self.isLocal = isLocal
    }

    public init(from decoder: any Decoder) throws {
        self = try Self.decoded(from: decoder)
    }

    /// The statement of an entry. Its item is read whole, and chosen when the entry ends.
    package struct Fields: WireObject {
        package enum CodingKeys: String, WireKey {
            case item, track
            case addedAt = "added_at"
            case addedBy = "added_by"
            case isLocal = "is_local"
            package static let table = WireKeyTable<Self>()
        }

        /// `{"id": …}`, the only member of `added_by` kept.
        enum IDKey: String, WireKey {
            case id
            static let table = WireKeyTable<Self>()
        }

        var addedAt: Date?
        var addedBy: String?
        var isLocal: Bool?
        /// The `item` member, read into ``itemFields`` when it is an object.
        var item = Member.absent
        var itemFields = ItemFields()
        /// The `track` member, read into ``trackFields`` when it is an object.
        var track = Member.absent
        var trackFields = ItemFields()

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .addedAt: addedAt = try value.date()
            case .addedBy: addedBy = try value.member(IDKey.self)
            case .isLocal: isLocal = try value.bool()
            case .item: item = try Member(&value, into: &itemFields)
            case .track: track = try Member(&value, into: &trackFields)
            }
        }

        /// The entry's item: the 2026 name first, then the old one, `null` counting as absent;
        /// `nil` when the chosen one is not an object, which makes the entry undecodable.
        func content(isLocal: Bool) -> PlaylistEntry.Item? {
            item.isPresentAndNotNull
                ? item.content(itemFields, isLocal: isLocal) : track.content(trackFields, isLocal: isLocal)
        }
    }

    /// What the `item` or `track` member was: absent, `null`, another type, or an object (whose
    /// fields are read in place beside it: they are large, and copying them cost speed).
    enum Member {
        case absent, null, notObject, object

        init<Value: WireValue>(_ value: inout Value, into fields: inout ItemFields) throws(JSONReader.Declined) {
            if try value.null() {
                self = .null
            } else {
                self = try value.object(into: &fields) ? .object : .notObject
            }
        }

        var isPresentAndNotNull: Bool {
            switch self {
            case .absent, .null: false
            case .notObject, .object: true
            }
        }

        /// The entry's item as this member makes it from `fields`; `nil` when it is not an object.
        func content(_ fields: ItemFields, isLocal: Bool) -> PlaylistEntry.Item? {
            switch self {
            case .absent, .null: .unavailable
            case .notObject: nil
            case .object: fields.playlistItem(isLocal: isLocal)
            }
        }
    }
}

extension PlaylistEntry: FastPageItem {
    package static func readPageItems(_ value: inout FastValue) throws(JSONReader.Declined) -> Any? {
        try value.items(Self.self).map { $0 as Any }
    }

    package init?(wire fields: Fields) {
        let local = fields.isLocal ?? false
        guard let content = fields.content(isLocal: local) else { return nil }
        self.init(item: content, addedAt: fields.addedAt, addedBy: fields.addedBy, isLocal: local)
    }
}
