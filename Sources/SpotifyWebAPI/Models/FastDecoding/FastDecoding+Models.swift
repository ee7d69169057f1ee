import Foundation

// The fast readers of the paging objects. Each mirrors its type's `init(from:)` rule for rule;
// the comments name the rule where the mirror is not obvious.

extension Page: FastDecodable where Item: FastPageItem {
    package static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> Page {
        var seen = SeenKeys()
        var page = Page(items: [], limit: 0, offset: 0, total: nil)
        var limit: Int?
        var offset: Int?
        let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
            switch key {
            case "href":
                try seen.insert(0)
                page.href = try reader.lenientString().flatMap { URL(string: $0) }
            case "items":
                try seen.insert(1)
                try readElements(&reader, into: &page)
            case "limit":
                try seen.insert(2)
                limit = try reader.lenientInt()
            case "offset":
                try seen.insert(3)
                offset = try reader.lenientInt()
            case "next":
                try seen.insert(4)
                page.next = try reader.lenientString().flatMap { URL(string: $0) }
            case "previous":
                try seen.insert(5)
                page.previous = try reader.lenientString().flatMap { URL(string: $0) }
            case "total":
                try seen.insert(6)
                page.total = try reader.lenientInt()
            default:
                try reader.skipValue()
            }
        }
        // Anything but an object fails `container(keyedBy:)`: JSONDecoder words that error.
        guard isObject else { throw JSONReader.Declined() }
        page.limit = limit ?? page.elementCount
        page.offset = offset ?? 0
        return page
    }

    /// `items`: absent or `null` is an empty page; any other non-array fails the page.
    private static func readElements(_ reader: inout JSONReader, into page: inout Page) throws(JSONReader.Declined) {
        switch try reader.peek() {
        case .null:
            _ = try reader.skipNull()
            return
        case .array:
            break
        default:
            throw JSONReader.Declined()
        }
        try reader.openArray()
        var first = true
        while try reader.nextElement(&first) {
            if try reader.skipNull() {
                page.nullCount += 1
            } else if let item = try Item.readElement(&reader) {
                page.items.append(item)
            } else {
                page.undecodableCount += 1
            }
        }
    }
}

extension PlaylistSearchResults: FastDecodable {
    package static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> PlaylistSearchResults {
        PlaylistSearchResults(playlists: try readRequiredPage(&reader, key: "playlists"))
    }
}

extension TrackSearchResults: FastDecodable {
    package static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> TrackSearchResults {
        TrackSearchResults(tracks: try readRequiredPage(&reader, key: "tracks"))
    }
}

/// `{"<key>": <page>, …}` where the page is required: a missing, `null` or malformed page is left to
/// JSONDecoder, which reports it.
private func readRequiredPage<Item: FastPageItem>(
    _ reader: inout JSONReader, key wanted: StaticString
) throws(JSONReader.Declined) -> Page<Item> {
    var page: Page<Item>?
    let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
        if wanted ~= key {
            guard page == nil else { throw JSONReader.Declined() }
            page = try Page<Item>.read(&reader)
        } else {
            try reader.skipValue()
        }
    }
    guard isObject, let page else { throw JSONReader.Declined() }
    return page
}

extension Track: FastPageItem {
    package static func readElement(_ reader: inout JSONReader) throws(JSONReader.Declined) -> Track? {
        try ItemFields.read(&reader)?.track
    }
}

extension PlaylistEntry: FastPageItem {
    /// The `item` or `track` member: absent, `null`, another type, or an object.
    private enum Member {
        case absent, null, notObject
        case object(ItemFields)

        var isPresentAndNotNull: Bool {
            switch self {
            case .absent, .null: false
            case .notObject, .object: true
            }
        }

        /// The entry's item as this member makes it; `nil` when it is not an object.
        func content(isLocal: Bool) -> PlaylistEntry.Item? {
            switch self {
            case .absent, .null: .unavailable
            case .notObject: nil
            case .object(let fields): fields.playlistItem(isLocal: isLocal)
            }
        }

        static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> Member {
            if try reader.skipNull() { return .null }
            return try ItemFields.read(&reader).map(Member.object) ?? .notObject
        }
    }

    package static func readElement(_ reader: inout JSONReader) throws(JSONReader.Declined) -> PlaylistEntry? {
        var seen = SeenKeys()
        var addedAt: Date?
        var addedBy: String?
        var isLocal: Bool?
        var item = Member.absent
        var track = Member.absent
        let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
            switch key {
            case "added_at":
                try seen.insert(0)
                addedAt = try reader.lenientDate()
            case "added_by":
                try seen.insert(1)
                addedBy = try reader.stringMember("id").value
            case "is_local":
                try seen.insert(2)
                isLocal = try reader.lenientBool()
            case "item":
                try seen.insert(3)
                item = try Member.read(&reader)
            case "track":
                try seen.insert(4)
                track = try Member.read(&reader)
            default:
                try reader.skipValue()
            }
        }
        guard isObject else { return nil }
        let local = isLocal ?? false
        // The 2026 name first, then the old one; `null` counts as absent. (Chosen without copying
        // the member, whose fields hold a dozen references.)
        let content = item.isPresentAndNotNull ? item.content(isLocal: local) : track.content(isLocal: local)
        // `nil`: `nestedContainer` throws, the element is undecodable.
        guard let content else { return nil }
        return PlaylistEntry(item: content, addedAt: addedAt, addedBy: addedBy, isLocal: local)
    }
}

/// Everything the entry decoder, `Track` and `Episode` read from an item object, in one pass, so
/// the choice between a track, an episode and a local file can wait for the whole entry (its
/// `is_local` may come after the item).
private struct ItemFields {
    /// Whether any of the keys `PlaylistEntry`'s item probe knows was present (`{}` and objects
    /// with none of them are unavailable entries).
    var hasProbeKey = false
    var type: String?
    var name: String?
    /// As it stands in the document: a track's is compared with its ID, and no `String` is made
    /// when it is that ID's own.
    var uri: JSONReader.RawString?
    var durationMs: Int?
    var id: SpotifyID?
    /// `[SimplifiedArtist]` leniently: `nil` when not an array of objects.
    var artists: [SimplifiedArtist]?
    /// `[Named]` leniently, first name: `valid` false when any element or name has another type.
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

    /// The fields of the object that is next, or `nil` (the value skipped) when it is not one.
    static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> ItemFields? {
        var fields = ItemFields()
        var seen = SeenKeys()
        let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
            switch key {
            case "type":
                try seen.insert(0)
                fields.hasProbeKey = true
                fields.type = try reader.lenientString()
            case "name":
                try seen.insert(1)
                fields.hasProbeKey = true
                fields.name = try reader.lenientString()
            case "uri":
                try seen.insert(2)
                fields.hasProbeKey = true
                fields.uri = try reader.lenientRawString()
            case "duration_ms":
                try seen.insert(3)
                fields.hasProbeKey = true
                fields.durationMs = try reader.lenientInt()
            case "artists":
                try seen.insert(4)
                fields.hasProbeKey = true
                try fields.readArtists(&reader)
            case "album":
                try seen.insert(5)
                fields.hasProbeKey = true
                try fields.readAlbum(&reader)
            case "id":
                try seen.insert(6)
                fields.id = try reader.lenientID()
            case "is_playable":
                try seen.insert(7)
                fields.isPlayable = try reader.lenientBool()
            case "explicit":
                try seen.insert(8)
                fields.explicit = try reader.lenientBool()
            case "preview_url":
                try seen.insert(9)
                fields.previewURL = try reader.lenientString().flatMap { URL(string: $0) }
            case "show":
                try seen.insert(10)
                fields.showName = try reader.stringMember("name").value
            case "images":
                try seen.insert(11)
                fields.images = try reader.lenientImages()
            case "disc_number":
                try seen.insert(12)
                fields.discNumber = try reader.lenientInt()
            case "track_number":
                try seen.insert(13)
                fields.trackNumber = try reader.lenientInt()
            case "external_ids":
                try seen.insert(14)
                fields.isrc = try reader.stringMember("isrc").value
            default:
                try reader.skipValue()
            }
        }
        return isObject ? fields : nil
    }

    private mutating func readArtists(_ reader: inout JSONReader) throws(JSONReader.Declined) {
        guard try reader.peek() == .array else {
            try reader.skipValue()
            return
        }
        try reader.openArray()
        var artists: [SimplifiedArtist] = []
        var allObjects = true
        var namesValid = true
        var firstName: String?
        var count = 0
        var first = true
        while try reader.nextElement(&first) {
            count += 1
            var seen = SeenKeys()
            var id: String?
            var name: (value: String?, wellTyped: Bool) = (nil, true)
            let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
                switch key {
                case "id":
                    try seen.insert(0)
                    id = reader.interned(try reader.lenientString())
                case "name":
                    try seen.insert(1)
                    name = try reader.optionalString()
                    name.value = reader.interned(name.value)
                default:
                    try reader.skipValue()
                }
            }
            guard isObject else {
                allObjects = false
                continue
            }
            if count == 1 { firstName = name.value }
            namesValid = namesValid && name.wellTyped
            artists.append(SimplifiedArtist(id: id, name: name.value ?? ""))
        }
        self.artists = allObjects ? artists : nil
        firstArtistName = allObjects && namesValid ? (firstName, true) : (nil, false)
    }

    private mutating func readAlbum(_ reader: inout JSONReader) throws(JSONReader.Declined) {
        var seen = SeenKeys()
        var id: String?
        var name: (value: String?, wellTyped: Bool) = (nil, true)
        var images: [SpotifyImage] = []
        let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
            switch key {
            case "id":
                try seen.insert(0)
                id = reader.interned(try reader.lenientString())
            case "name":
                try seen.insert(1)
                name = try reader.optionalString()
                name.value = reader.interned(name.value)
            case "images":
                try seen.insert(2)
                images = try reader.lenientImages()
            default:
                try reader.skipValue()
            }
        }
        guard isObject else { return }
        if let id, !images.isEmpty {
            if let first = reader.albumImages[id], first == images {
                images = first
            } else {
                reader.albumImages[id] = images
            }
        }
        album = SimplifiedAlbum(id: id, name: name.value ?? "", images: images)
        albumName = name.wellTyped ? (name.value, true) : (nil, false)
    }

    var track: Track {
        Track(
            id: id, name: name ?? "", duration: .milliseconds(durationMs ?? 0), uri: DerivedURI(uri, id: id),
            artists: artists ?? [], album: album, isPlayable: isPlayable, explicit: explicit, previewURL: previewURL,
            discNumber: discNumber,
            trackNumber: trackNumber, isrc: isrc)
    }

    /// The entry's item, as `PlaylistEntry.init(from:)` chooses it.
    func playlistItem(isLocal: Bool) -> PlaylistEntry.Item {
        guard hasProbeKey else { return .unavailable }
        if isLocal || (uri?.starts(with: "spotify:local:") ?? false) {
            return .localFile(
                LocalFile(
                    name: name ?? "", uri: uri?.string ?? "", duration: .milliseconds(durationMs ?? 0),
                    artistName: firstArtistName.valid ? firstArtistName.name : nil,
                    albumName: albumName.valid ? albumName.name : nil))
        }
        switch type {
        case "track", nil:
            return .track(track)
        case "episode":
            return .episode(
                Episode(
                    id: id, name: name ?? "", duration: .milliseconds(durationMs ?? 0), uri: uri?.string,
                    showName: showName,
                    images: images))
        default:
            return .unknown(type: type)
        }
    }
}

extension SimplifiedPlaylist: FastPageItem {
    /// The `items` or `tracks` reference: absent, `null`, another type, or a reference.
    private enum Reference {
        case absent, null, notObject
        case object(PlaylistItemsReference)

        static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> Reference {
            if try reader.skipNull() { return .null }
            var seen = SeenKeys()
            var reference = PlaylistItemsReference(total: nil)
            let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
                switch key {
                case "href":
                    try seen.insert(0)
                    reference.href = try reader.lenientString().flatMap { URL(string: $0) }
                case "total":
                    try seen.insert(1)
                    reference.total = try reader.lenientInt()
                default:
                    try reader.skipValue()
                }
            }
            return isObject ? .object(reference) : .notObject
        }

        /// `decodeFirst(forKeys: .items, .tracks)` under `try?`: the first present, non-null one;
        /// `nil` when that one is not an object.
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

    package static func readElement(_ reader: inout JSONReader) throws(JSONReader.Declined) -> SimplifiedPlaylist? {
        var seen = SeenKeys()
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
        let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
            switch key {
            case "id":
                try seen.insert(0)
                id = try reader.lenientID()  // Required: without a valid one the element is undecodable.
            case "name":
                try seen.insert(1)
                name = try reader.lenientString()
            case "description":
                try seen.insert(2)
                description = try reader.lenientString()
            case "images":
                try seen.insert(3)
                images = try reader.lenientImages()
            case "owner":
                try seen.insert(4)
                owner = try readOwner(&reader)
            case "public":
                try seen.insert(5)
                isPublic = try reader.lenientBool()
            case "collaborative":
                try seen.insert(6)
                collaborative = try reader.lenientBool()
            case "snapshot_id":
                try seen.insert(7)
                snapshotID = try reader.lenientString()
            case "uri":
                try seen.insert(8)
                uri = try reader.lenientString()
            case "external_urls":
                try seen.insert(9)
                webURL = try reader.stringMember("spotify").value.flatMap { URL(string: $0) }
            case "items":
                try seen.insert(10)
                items = try Reference.read(&reader)
            case "tracks":
                try seen.insert(11)
                tracks = try Reference.read(&reader)
            default:
                try reader.skipValue()
            }
        }
        guard isObject else { return nil }
        guard let id else { return nil }
        return SimplifiedPlaylist(
            id: id, name: name ?? "", description: description.flatMap { $0.isEmpty ? nil : $0 }, images: images,
            owner: owner, isPublic: isPublic, collaborative: collaborative ?? false, snapshotID: snapshotID,
            uri: uri ?? "spotify:playlist:\(id.rawValue)", webURL: webURL,
            itemsReference: Reference.choose(items, tracks))
    }

    /// `owner` as the synthesized `PublicUser` reads it: `id` a string, `display_name` a string or
    /// absent or `null`; `nil` otherwise.
    private static func readOwner(_ reader: inout JSONReader) throws(JSONReader.Declined) -> PublicUser? {
        var seen = SeenKeys()
        var id: (value: String?, wellTyped: Bool) = (nil, true)
        var displayName: (value: String?, wellTyped: Bool) = (nil, true)
        let isObject = try reader.readObject { (reader, key) throws(JSONReader.Declined) in
            switch key {
            case "id":
                try seen.insert(0)
                id = try reader.optionalString()
            case "display_name":
                try seen.insert(1)
                displayName = try reader.optionalString()
            default:
                try reader.skipValue()
            }
        }
        guard isObject else { return nil }
        guard let userID = id.value, displayName.wellTyped else { return nil }
        return PublicUser(id: userID, displayName: displayName.value)
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
    init(id: SpotifyID?, name: String, duration: Duration, uri: String?, showName: String?, images: [SpotifyImage]) {
        self.id = id
        self.name = name
        self.duration = duration
        self.uri = uri
        self.showName = showName
        self.images = images
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

extension SimplifiedPlaylist {
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
