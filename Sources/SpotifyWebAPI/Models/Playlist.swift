public import Foundation

/// The `items` (formerly `tracks`) reference of a simplified playlist: where its entries are and
/// how many there are. `total` is `nil` when Spotify does not say.
public struct PlaylistItemsReference: Hashable, Sendable, Decodable {
    /// Where the entries are read from.
    public var href: URL?
    /// How many entries there are.
    public var total: Int?

    enum CodingKeys: String, CodingKey { case href, total }

    /// A reference to the entries at `href`, `total` of them.
    package init(href: URL? = nil, total: Int?) {
        self.href = href
        self.total = total
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        href = container.decodeLeniently(URL.self, forKey: .href)
        total = container.decodeLeniently(Int.self, forKey: .total)
    }
}

/// Fields every playlist shape shares.
private enum PlaylistKeys: String, CodingKey {
    case id, name, description, images, owner, collaborative, uri, items, tracks
    case isPublic = "public"
    case snapshotID = "snapshot_id"
    case externalURLs = "external_urls"
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
        let container = try decoder.container(keyedBy: PlaylistKeys.self)
        id = try container.decode(SpotifyID.self, forKey: .id)
        name = container.decodeLeniently(String.self, forKey: .name) ?? ""
        description = container.decodeLeniently(String.self, forKey: .description).flatMap { $0.isEmpty ? nil : $0 }
        images = container.decodeLeniently([SpotifyImage].self, forKey: .images) ?? []
        owner = container.decodeLeniently(PublicUser.self, forKey: .owner)
        isPublic = container.decodeLeniently(Bool.self, forKey: .isPublic)
        collaborative = container.decodeLeniently(Bool.self, forKey: .collaborative) ?? false
        snapshotID = container.decodeLeniently(String.self, forKey: .snapshotID)
        uri = container.decodeLeniently(String.self, forKey: .uri) ?? "spotify:playlist:\(id.rawValue)"
        webURL = container.decodeLeniently(ExternalURLs.self, forKey: .externalURLs)?.spotify
        itemsReference =
            (try? container.decodeFirst(PlaylistItemsReference.self, forKeys: .items, .tracks)) ?? nil
    }

    /// The number of entries, when Spotify says.
    public var itemCount: Int? { itemsReference?.total }
    /// The playlist as a reference (URI and universal link).
    public var reference: SpotifyReference { .playlist(id) }
}

private enum PageProbeKeys: String, CodingKey { case items }

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
        let container = try decoder.container(keyedBy: PlaylistKeys.self)
        // A page of entries has an `items` array; a bare `{href, total}` reference (playlists the
        // user does not own) carries no entries.
        let pageKey = [PlaylistKeys.items, .tracks].first { key in
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

    enum CodingKeys: String, CodingKey { case playlists }
}
