import Foundation
import JSONReading
import SpotifyEmulator
import SpotifyTesting
import Testing

@testable import SpotifyWebAPI

/// Each model's keys are stated once, in its `Fields` statement. These tests hold the statements
/// to what Spotify sends: every member of a recorded object is read or named as unread, and every
/// key a statement names changes what both paths make of the document.
@Suite struct WireStatementTests {
    /// One recorded object that a statement reads: the document it is in, where, and how the
    /// document is decoded.
    struct Place {
        var statement: String
        var keys: [String]
        /// Members Spotify sends that the statement leaves unread on purpose.
        var unread: Set<String>
        var document: JSONValue
        var path: [Step]
        var decode: (Data) throws -> String
    }

    static func keys<Key: WireKey>(_ type: Key.Type) -> [String] { Key.allCases.map(\.rawValue) }

    /// Decodes `data` as `T` by JSONDecoder and, where it does not decline, by the fast path, and
    /// describes the value; the two must describe the same value.
    static func both<T: FastDecodable>(_ type: T.Type) -> (Data) throws -> String {
        { data in
            let slow = String(describing: try makeSpotifyDecoder().decode(T.self, from: data))
            if let fast = T.fastDecoded(from: data) {
                #expect(String(describing: fast) == slow, "the fast path disagrees with JSONDecoder on \(T.self)")
            }
            return slow
        }
    }

    static func decoder<T: Decodable>(_ type: T.Type) -> (Data) throws -> String {
        { data in String(describing: try makeSpotifyDecoder().decode(T.self, from: data)) }
    }

    static let item: Set<String> = [
        "available_markets", "episode", "track", "external_urls", "href", "is_local", "popularity",
    ]
    static let episode: Set<String> = [
        "audio_preview_url", "description", "external_urls", "href", "html_description", "is_externally_hosted",
        "language", "languages", "release_date", "release_date_precision", "resume_point",
    ]
    static let album: Set<String> = [
        "album_type", "artists", "available_markets", "external_urls", "href", "release_date",
        "release_date_precision", "total_tracks", "type", "uri",
    ]
    static let links: Set<String> = ["external_urls", "href", "type", "uri"]

    static func places() throws -> [Place] {
        let entries = try JSONValue(RecordedFixtures.data("playlist_items"))
        let playlists = try JSONValue(RecordedFixtures.data("current_user_playlist_1"))
        let search = try JSONValue(RecordedFixtures.data("search"))
        let episode = try JSONValue(RecordedFixtures.data("playback_episode_1"))
        let playlistSearch = JSONValue.object([("playlists", playlists)])
        // The recorded pages send each entry's item and each playlist's reference under both
        // names; these have only the old one, so that the old name is seen to be read.
        let oldEntries = entries.changing("item", at: [.key("items"), .index(0)], leavingOut: true)
        let oldPlaylists = playlists.changing("items", at: [.key("items"), .index(0)], leavingOut: true)
        let entryPage = both(Page<PlaylistEntry>.self)
        let playlistPage = both(Page<SimplifiedPlaylist>.self)
        let item: [Step] = [.key("items"), .index(0), .key("item")]
        let playlist: [Step] = [.key("items"), .index(0)]
        return [
            Place(
                statement: "Page", keys: keys(PageKeys.self), unread: [], document: entries, path: [],
                decode: entryPage),
            Place(
                statement: "PlaylistEntry", keys: keys(PlaylistEntry.Fields.CodingKeys.self),
                unread: ["primary_color", "video_thumbnail"], document: entries, path: [.key("items"), .index(0)],
                decode: entryPage),
            Place(
                statement: "PlaylistEntry", keys: keys(PlaylistEntry.Fields.CodingKeys.self),
                unread: ["primary_color", "video_thumbnail"], document: oldEntries,
                path: [.key("items"), .index(0)], decode: entryPage),
            Place(
                statement: "added_by", keys: keys(PlaylistEntry.Fields.IDKey.self), unread: links,
                document: entries, path: [.key("items"), .index(0), .key("added_by")], decode: entryPage),
            Place(
                statement: "ItemFields", keys: keys(ItemFields.CodingKeys.self), unread: Self.item, document: entries,
                path: item, decode: entryPage),
            Place(
                statement: "external_ids", keys: keys(ItemFields.ISRCKey.self), unread: [], document: entries,
                path: item + [.key("external_ids")], decode: entryPage),
            Place(
                statement: "SimplifiedAlbum", keys: keys(SimplifiedAlbum.Fields.CodingKeys.self), unread: album,
                document: entries, path: item + [.key("album")], decode: entryPage),
            Place(
                statement: "SpotifyImage", keys: keys(SpotifyImage.CodingKeys.self), unread: [], document: entries,
                path: item + [.key("album"), .key("images"), .index(0)], decode: entryPage),
            Place(
                statement: "SimplifiedArtist", keys: keys(SimplifiedArtist.Fields.CodingKeys.self), unread: links,
                document: entries, path: item + [.key("artists"), .index(0)], decode: entryPage),
            Place(
                statement: "ItemFields", keys: keys(ItemFields.CodingKeys.self), unread: Self.item, document: search,
                path: [.key("tracks"), .key("items"), .index(0)], decode: both(TrackSearchResults.self)),
            Place(
                statement: "TrackSearchResults", keys: keys(TrackSearchResults.Fields.CodingKeys.self), unread: [],
                document: search, path: [], decode: both(TrackSearchResults.self)),
            Place(
                statement: "ItemFields", keys: keys(ItemFields.CodingKeys.self), unread: Self.episode,
                document: episode, path: [.key("item")], decode: decoder(CurrentlyPlaying.self)),
            Place(
                statement: "show", keys: keys(ItemFields.NameKey.self),
                unread: [
                    "available_markets", "copyrights", "description", "explicit", "external_urls", "href",
                    "html_description", "id", "images", "is_externally_hosted", "languages", "media_type",
                    "publisher", "total_episodes", "type", "uri",
                ], document: episode, path: [.key("item"), .key("show")], decode: decoder(CurrentlyPlaying.self)),
            Place(
                statement: "SimplifiedPlaylist", keys: keys(SimplifiedPlaylist.Fields.CodingKeys.self),
                unread: ["href", "primary_color", "type"], document: playlists, path: playlist, decode: playlistPage),
            Place(
                statement: "SimplifiedPlaylist", keys: keys(SimplifiedPlaylist.Fields.CodingKeys.self),
                unread: ["href", "primary_color", "type"], document: oldPlaylists, path: playlist,
                decode: playlistPage),
            Place(
                statement: "external_urls", keys: keys(SimplifiedPlaylist.Fields.SpotifyKey.self), unread: [],
                document: playlists, path: playlist + [.key("external_urls")], decode: playlistPage),
            Place(
                statement: "PublicUser", keys: keys(PublicUser.Fields.CodingKeys.self), unread: links,
                document: playlists, path: playlist + [.key("owner")], decode: playlistPage),
            Place(
                statement: "SpotifyImage", keys: keys(SpotifyImage.CodingKeys.self), unread: [], document: playlists,
                path: playlist + [.key("images"), .index(0)], decode: playlistPage),
            Place(
                statement: "PlaylistItemsReference", keys: keys(PlaylistItemsReference.CodingKeys.self), unread: [],
                document: playlists, path: playlist + [.key("items")], decode: playlistPage),
            Place(
                statement: "PlaylistSearchResults", keys: keys(PlaylistSearchResults.Fields.CodingKeys.self),
                unread: [], document: playlistSearch, path: [], decode: both(PlaylistSearchResults.self)),
        ]
    }

    /// Each model decodes alone, through its own `init(from:)`, to what it is inside a page.
    @Test func eachModelDecodesAloneAsInsideAPage() throws {
        let document = try RecordedFixtures.data("playlist_items")
        let tree = try JSONValue(document)
        let page = try makeSpotifyDecoder().decode(Page<PlaylistEntry>.self, from: document)
        guard case .track(let track) = try #require(page.items.first).item else {
            Issue.record("the first recorded entry is not a track")
            return
        }
        func alone<T: Decodable>(_ type: T.Type, at path: [Step]) throws -> T {
            try makeSpotifyDecoder().decode(T.self, from: try #require(tree[path], "nothing at \(path)").data)
        }
        let item: [Step] = [.key("items"), .index(0), .key("item")]
        #expect(try alone(Track.self, at: item) == track)
        let album = try #require(track.album)
        #expect(try alone(SimplifiedAlbum.self, at: item + [.key("album")]) == album)
        #expect(try alone(SimplifiedArtist.self, at: item + [.key("artists"), .index(0)]) == track.artists.first)
        #expect(
            try alone(SpotifyImage.self, at: item + [.key("album"), .key("images"), .index(0)]) == album.images.first)
        let playlists = try JSONValue(RecordedFixtures.data("current_user_playlist_1"))
        let playlist = try makeSpotifyDecoder().decode(Page<SimplifiedPlaylist>.self, from: playlists.data).items[0]
        let owner = try makeSpotifyDecoder().decode(
            PublicUser.self, from: try #require(playlists[[.key("items"), .index(0), .key("owner")]]).data)
        #expect(owner == playlist.owner)
        // A required member missing: the model's own error, naming it.
        #expect {
            try makeSpotifyDecoder().decode(PublicUser.self, from: Data(#"{"display_name":"x"}"#.utf8))
        } throws: { error in
            "\(error)".contains("A PublicUser needs a member that is missing or of another type")
        }
    }

    /// A key left out of a statement is a member Spotify sends that nothing reads: the test names
    /// it, and where.
    @Test func everyMemberSpotifySendsIsReadOrNamedUnread() throws {
        for place in try Self.places() {
            let object = try #require(place.document[place.path]?.members, "no object at \(place.path)")
            for key in object.keys.sorted() where !place.keys.contains(key) && !place.unread.contains(key) {
                Issue.record("\(place.statement) does not read `\(key)`, which Spotify sends at \(place.path)")
            }
            for key in place.unread where place.keys.contains(key) {
                Issue.record("\(place.statement) reads `\(key)` but names it unread")
            }
        }
    }

    /// A key in a statement whose value changes nothing either path makes reads nothing: each
    /// key, changed where Spotify sends it, changes the decoded value.
    @Test func everyKeyOfAStatementChangesWhatIsRead() throws {
        let places = try Self.places()
        var effective: [String: Set<String>] = [:]
        var named: [String: Set<String>] = [:]
        for place in places {
            named[place.statement, default: []].formUnion(place.keys)
            let object = try #require(place.document[place.path]?.members)
            let original = try place.decode(place.document.data)
            for key in place.keys where object[key] != nil {
                let changed = place.document.changing(key, at: place.path)
                // A document the change makes unreadable has changed too (a required member).
                let read = (try? place.decode(changed.data)) ?? "not decodable"
                if read != original {
                    effective[place.statement, default: []].insert(key)
                }
            }
        }
        for (statement, keys) in named {
            for key in keys.subtracting(effective[statement] ?? []).sorted() {
                Issue.record("\(statement): changing `\(key)` where Spotify sends it changes nothing that is read")
            }
        }
    }
}

/// One step of a path into a document.
enum Step: CustomStringConvertible, Sendable {
    case key(String)
    case index(Int)

    var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): "[\(index)]"
        }
    }
}

/// The emulator's JSON tree, read from a document and changed by the tests.
extension JSONValue {
    init(_ data: Data) throws {
        self = try JSONDecoder().decode(Parsed.self, from: data).value
    }

    /// A document read into the tree, keys in any order.
    private struct Parsed: Decodable {
        var value: JSONValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let flag = try? container.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                value = .int(number)
            } else if let number = try? container.decode(Double.self) {
                value = .double(number)
            } else if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let elements = try? container.decode([Parsed].self) {
                value = .array(elements.map(\.value))
            } else {
                value = .object(try container.decode([String: Parsed].self).map { ($0.key, $0.value.value) })
            }
        }
    }

    var members: [String: JSONValue]? {
        guard case .object(let pairs) = self else { return nil }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    subscript(_ path: [Step]) -> JSONValue? {
        guard let step = path.first else { return self }
        switch (self, step) {
        case (.object(let pairs), .key(let key)): return pairs.first { $0.0 == key }?.1[Array(path.dropFirst())]
        case (.array(let elements), .index(let index)) where elements.indices.contains(index):
            return elements[index][Array(path.dropFirst())]
        default: return nil
        }
    }

    /// The document with member `key` of the object at `path` changed: a string prefixed, a
    /// number one more, a boolean negated, `null`, an object or an array made a string; or with the
    /// member left out.
    func changing(_ key: String, at path: [Step], leavingOut: Bool = false) -> JSONValue {
        guard let step = path.first else {
            guard case .object(var pairs) = self, let index = pairs.firstIndex(where: { $0.0 == key }) else {
                return self
            }
            switch pairs[index].1 {
            case _ where leavingOut: pairs.remove(at: index)
            case .null, .array, .object: pairs[index].1 = .string("x")
            case .bool(let flag): pairs[index].1 = .bool(!flag)
            case .int(let number): pairs[index].1 = .int(number + 1)
            case .double(let number): pairs[index].1 = .double(number + 1)
            case .string(let text): pairs[index].1 = .string("x" + text)
            }
            return .object(pairs)
        }
        let rest = Array(path.dropFirst())
        switch (self, step) {
        case (.object(var pairs), .key(let name)):
            if let index = pairs.firstIndex(where: { $0.0 == name }) {
                pairs[index].1 = pairs[index].1.changing(key, at: rest, leavingOut: leavingOut)
            }
            return .object(pairs)
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            elements[index] = elements[index].changing(key, at: rest, leavingOut: leavingOut)
            return .array(elements)
        default:
            return self
        }
    }
}
