import Foundation
import SpotifyLinkSupport

/// What the JSON shapes are made from: the catalog, the emulator's address and its
/// configuration, taken from the actor as one value. A page of a long playlist is then built off
/// the actor, so that the pages in flight build side by side, as Spotify's servers answer them,
/// instead of one after another behind the emulator's actor.
struct CatalogRenderer: Sendable {
    let catalog: Catalog
    let baseURL: String
    let configuration: EmulatorConfiguration
    /// Whether episodes carry `resume_point` (a user token with `user-read-playback-position`).
    var readsPlaybackPosition = false
}

extension EmulatorState {
    /// The catalog as it is now, for building JSON for the request being answered.
    var renderer: CatalogRenderer {
        CatalogRenderer(
            catalog: catalog, baseURL: baseURL, configuration: configuration,
            readsPlaybackPosition: readsPlaybackPosition)
    }
}

/// The JSON shapes of catalog objects, as live Spotify sends them in 2026.
extension CatalogRenderer {
    private var transition: Bool { configuration.shape == .transition }

    func imagesJSON(_ playlist: CatalogPlaylist) -> JSONValue {
        guard playlist.hasCover else { return .null }
        return imagesJSON(of: playlist.id, sizes: [640, 300, 60], version: playlist.revision)
    }

    /// The images of an object (album, show, episode, user), largest first, from the emulator's
    /// image server as Spotify's come from its CDN.
    func imagesJSON(of id: String, sizes: [Int] = [640, 300, 64], version: Int = 1) -> JSONValue {
        .array(
            sizes.map { size in
                .object([
                    ("height", .int(size)),
                    ("url", .string("\(baseURL)/emulator/images/\(id)/\(size).png?v=\(version)")),
                    ("width", .int(size)),
                ])
            })
    }

    private func ownerJSON(_ id: String, _ name: String) -> JSONValue {
        .object([("display_name", .string(name))] + userFields(id))
    }

    private func commonPlaylistFields(_ playlist: CatalogPlaylist) -> [(String, JSONValue)] {
        [
            ("collaborative", .bool(playlist.collaborative)),
            ("description", .string(playlist.description ?? "")),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/playlist/\(playlist.id)"))])),
            ("href", .string("\(baseURL)/v1/playlists/\(playlist.id)")),
            ("id", .string(playlist.id)),
            ("images", imagesJSON(playlist)),
            ("name", .string(playlist.name)),
            ("owner", ownerJSON(playlist.ownerID, playlist.ownerName)),
            ("primary_color", .null),
            ("public", .bool(playlist.isPublic)),
            ("snapshot_id", .string(playlist.snapshotID)),
        ]
    }

    func simplifiedPlaylistJSON(_ playlist: CatalogPlaylist) -> JSONValue {
        func reference(_ route: String) -> JSONValue {
            .object([
                ("href", .string("\(baseURL)/v1/playlists/\(playlist.id)/\(route)")),
                ("total", .int(playlist.entries.count)),
            ])
        }
        // Simplified playlists keep the deprecated `tracks` twin beside `items` (the contract, and the
        // recorded `current_user_playlist_1.json`, where it links to `/tracks`); only the full
        // playlist dropped the old keys.
        var fields = commonPlaylistFields(playlist)
        fields += [
            ("items", reference("items")), ("tracks", reference("tracks")), ("type", .string("playlist")),
            ("uri", .string("spotify:playlist:\(playlist.id)")),
        ]
        return .object(fields)
    }

    func fullPlaylistJSON(_ playlist: CatalogPlaylist, episodes: Bool, withItems: Bool) -> JSONValue {
        var fields = commonPlaylistFields(playlist)
        fields.insert(
            ("followers", .object([("href", .null), ("total", .int(playlist.id.utf8.reduce(0) { $0 + Int($1) }))])),
            at: 3)
        if withItems {
            let limit = 100
            let items = playlist.entries.prefix(limit).enumerated().map { index, item in
                entryJSON(item, index: index, playlist: playlist, episodes: episodes)
            }
            // Live embeds 100 entries (the recorded `href` says `limit=100`); `/items` serves 50 at
            // most, so the page's `next` asks for 50. The `tracks` twin links to `/tracks`, as
            // recorded, which answers 403 to a Development Mode app, as live.
            func embedded(_ route: String) -> JSONValue {
                page(
                    items, total: playlist.entries.count, limit: limit, offset: 0,
                    path: "/playlists/\(playlist.id)/\(route)",
                    extra: [("additional_types", episodes ? "track,episode" : nil)], linkLimit: 50)
            }
            if transition { fields.append(("tracks", embedded("tracks"))) }
            fields.append(("items", embedded("items")))
        }
        fields += [("type", .string("playlist")), ("uri", .string("spotify:playlist:\(playlist.id)"))]
        return .object(fields)
    }

    func entryJSON(_ item: CatalogItem?, index: Int, playlist: CatalogPlaylist, episodes: Bool) -> JSONValue {
        let added = Date(timeIntervalSince1970: 1_735_689_600 + Double(index) * 3600)
        let itemValue = item.map { itemJSON($0, episodes: episodes, in: .entry) } ?? .null
        var fields: [(String, JSONValue)] = [
            ("added_at", .string(ISOTime.string(added))),
            ("added_by", userReferenceJSON(playlist.ownerID)),
            ("is_local", .bool(item?.kind == .local)),
            ("primary_color", .null),
        ]
        if transition { fields.append(("track", itemValue)) }
        fields += [("item", itemValue), ("video_thumbnail", .object([("url", .null)]))]
        return .object(fields)
    }

    /// A user as an entry's `added_by` names them: the public user object without a name.
    func userReferenceJSON(_ id: String) -> JSONValue { .object(userFields(id)) }

    private func userFields(_ id: String) -> [(String, JSONValue)] {
        [
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/user/\(id)"))])),
            ("href", .string("\(baseURL)/v1/users/\(id)")),
            ("id", .string(id)),
            ("type", .string("user")),
            ("uri", .string("spotify:user:\(id)")),
        ]
    }

    /// A simplified artist with a stable ID derived from the name.
    func artistJSON(_ name: String) -> JSONValue {
        let id = Self.stableID(name)
        return .object([
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/artist/\(id)"))])),
            ("href", .string("\(baseURL)/v1/artists/\(id)")), ("id", .string(id)), ("name", .string(name)),
            ("type", .string("artist")), ("uri", .string("spotify:artist:\(id)")),
        ])
    }

    /// A full artist object (`/me/top/artists`): no followers or popularity since February 2026.
    func fullArtistJSON(_ name: String) -> JSONValue {
        let id = Self.stableID(name)
        let genres: [JSONValue] =
            name.unicodeScalars.contains { $0.value >= 0x3000 } ? [.string("j-pop")] : [.string("indie")]
        return .object([
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/artist/\(id)"))])),
            ("genres", .array(genres)), ("href", .string("\(baseURL)/v1/artists/\(id)")), ("id", .string(id)),
            ("images", .array([])), ("name", .string(name)), ("type", .string("artist")),
            ("uri", .string("spotify:artist:\(id)")),
        ])
    }

    /// A 22-character base62 ID that a name always maps to.
    static func stableID(_ name: String) -> String {
        var hash = name.utf8.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return String(unsafeUninitializedCapacity: 22) { buffer in
            for index in 0..<22 {
                hash = hash &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = base62[Int((hash >> 33) % 62)]
            }
            return 22
        }
    }

    private static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    func itemsPage(_ playlist: CatalogPlaylist, limit: Int, offset: Int, episodes: Bool) -> JSONValue {
        let slice = playlist.entries.dropFirst(offset).prefix(limit).enumerated().map { index, item in
            entryJSON(item, index: offset + index, playlist: playlist, episodes: episodes)
        }
        return page(
            Array(slice), total: playlist.entries.count, limit: limit, offset: offset,
            path: "/playlists/\(playlist.id)/items", extra: [("additional_types", episodes ? "track,episode" : nil)])
    }

    /// A paging object of `items`, the page at `offset` of `limit`, with the links live writes.
    /// Every `next` and `previous` is one the emulator answers: none past `bound` (search's 1,000),
    /// the next page's `limit` cut to end there, and `linkLimit` (the most `path` takes) instead of
    /// `limit` on a page longer than its route serves (a full playlist's embedded 100 entries).
    func page(
        _ items: [JSONValue], total: Int, limit: Int, offset: Int, path: String, extra: [(String, String?)],
        bound: Int = .max, linkLimit: Int? = nil
    ) -> JSONValue {
        func link(_ offset: Int, _ limit: Int) -> JSONValue {
            let parts =
                extra.compactMap { key, value in value.map { (key, $0) } } + [
                    ("offset", "\(offset)"), ("limit", "\(limit)"),
                ]
            return .string("\(baseURL)/v1\(path)?\(FormEncoding.encode(parts))")
        }
        let step = min(linkLimit ?? limit, limit)
        let end = offset + limit
        return .object([
            ("href", link(offset, limit)),
            ("items", .array(items)),
            ("limit", .int(limit)),
            ("next", limit > 0 && end < min(total, bound) ? link(end, min(step, bound - end)) : .null),
            ("offset", .int(offset)),
            ("previous", offset > 0 ? link(max(0, offset - step), step) : .null),
            ("total", .int(total)),
        ])
    }
}
