import Foundation

/// The JSON shapes of catalog objects, as live Spotify sends them in 2026.
extension EmulatorState {
    private var transition: Bool { configuration.shape == .transition }

    func imagesJSON(_ playlist: CatalogPlaylist) -> JSONValue {
        guard playlist.hasCover else { return .null }
        return .array(
            [640, 300, 60].map { size in
                .object([
                    ("height", .int(size)),
                    ("url", .string("\(baseURL)/emulator/images/\(playlist.id)/\(size).png?v=\(playlist.revision)")),
                    ("width", .int(size)),
                ])
            })
    }

    private func ownerJSON(_ id: String, _ name: String) -> JSONValue {
        .object([
            ("display_name", .string(name)),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/user/\(id)"))])),
            ("href", .string("\(baseURL)/v1/users/\(id)")),
            ("id", .string(id)),
            ("type", .string("user")),
            ("uri", .string("spotify:user:\(id)")),
        ])
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
        let reference = JSONValue.object([
            ("href", .string("\(baseURL)/v1/playlists/\(playlist.id)/items")),
            ("total", .int(playlist.entries.count)),
        ])
        var fields = commonPlaylistFields(playlist)
        if transition { fields.append(("tracks", reference)) }
        fields += [
            ("items", reference), ("type", .string("playlist")), ("uri", .string("spotify:playlist:\(playlist.id)")),
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
            let pageValue = page(
                items, total: playlist.entries.count, limit: limit, offset: 0, path: "/playlists/\(playlist.id)/items",
                extra: [("additional_types", episodes ? "track,episode" : nil)])
            if transition { fields.append(("tracks", pageValue)) }
            fields.append(("items", pageValue))
        }
        fields += [("type", .string("playlist")), ("uri", .string("spotify:playlist:\(playlist.id)"))]
        return .object(fields)
    }

    func entryJSON(_ item: CatalogItem?, index: Int, playlist: CatalogPlaylist, episodes: Bool) -> JSONValue {
        let added = Date(timeIntervalSince1970: 1_735_689_600 + Double(index) * 3600)
        let itemValue = item.map { itemJSON($0, episodes: episodes) } ?? .null
        var fields: [(String, JSONValue)] = [
            ("added_at", .string(ISOTime.string(added))),
            (
                "added_by",
                .object([
                    ("id", .string(playlist.ownerID)), ("type", .string("user")),
                    ("uri", .string("spotify:user:\(playlist.ownerID)")),
                ])
            ),
            ("is_local", .bool(item?.kind == .local)),
            ("primary_color", .null),
        ]
        if transition { fields.append(("track", itemValue)) }
        fields += [("item", itemValue), ("video_thumbnail", .object([("url", .null)]))]
        return .object(fields)
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
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var hash = name.utf8.reduce(UInt64(1_469_598_103_934_665_603)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return String(
            (0..<22).map { _ in
                hash = hash &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int((hash >> 33) % 62)]
            })
    }

    func itemJSON(_ item: CatalogItem, episodes: Bool) -> JSONValue {
        switch item.kind {
        case .episode where episodes:
            let showID = item.albumID ?? Self.stableID(item.album)
            return .object([
                ("audio_preview_url", .null),
                ("description", .string("An episode of \(item.album)")),
                ("duration_ms", .int(item.durationMs)),
                ("explicit", .bool(false)),
                ("external_urls", .object([("spotify", .string("https://open.spotify.com/episode/\(item.id ?? "")"))])),
                ("href", .string("\(baseURL)/v1/episodes/\(item.id ?? "")")),
                ("html_description", .string("<p>An episode of \(item.album)</p>")),
                ("id", .string(item.id)),
                ("images", .array([])),
                ("is_externally_hosted", .bool(false)),
                ("is_playable", .bool(true)),
                ("languages", .array([.string("en")])),
                ("name", .string(item.name)),
                ("release_date", .string("2026-01-15")),
                ("release_date_precision", .string("day")),
                (
                    "show",
                    .object([
                        ("available_markets", .array([])), ("copyrights", .array([])),
                        ("description", .string("Conversations from \(item.album)")), ("explicit", .bool(false)),
                        ("external_urls", .object([("spotify", .string("https://open.spotify.com/show/\(showID)"))])),
                        ("href", .string("\(baseURL)/v1/shows/\(showID)")),
                        ("html_description", .string("<p>Conversations from \(item.album)</p>")),
                        ("id", .string(showID)),
                        ("images", .array([])), ("is_externally_hosted", .bool(false)),
                        ("languages", .array([.string("en")])),
                        ("media_type", .string("audio")), ("name", .string(item.album)),
                        ("publisher", .string(item.artist)),
                        ("total_episodes", .int(1)), ("type", .string("show")),
                        ("uri", .string("spotify:show:\(showID)")),
                    ])
                ),
                ("type", .string("episode")),
                ("uri", .string(item.uri)),
            ])
        case .local:
            return .object([
                (
                    "album",
                    .object([
                        ("album_type", .string("album")), ("artists", .array([])), ("available_markets", .array([])),
                        ("external_urls", .object([])), ("href", .null), ("id", .null), ("images", .array([])),
                        ("name", .string(item.album)), ("release_date", .string("")),
                        ("release_date_precision", .string("day")),
                        ("total_tracks", .int(0)), ("type", .string("album")), ("uri", .null),
                    ])
                ),
                (
                    "artists",
                    .array([
                        .object([
                            ("id", .null), ("name", .string(item.artist)), ("type", .string("artist")), ("uri", .null),
                        ])
                    ])
                ),
                ("duration_ms", .int(item.durationMs)),
                ("explicit", .bool(false)),
                ("href", .null),
                ("id", .null),
                ("is_local", .bool(true)),
                ("name", .string(item.name)),
                ("type", .string("track")),
                ("uri", .string(item.uri)),
            ])
        case .track, .episode:
            // Without `additional_types=episode` an episode comes track-shaped, as live.
            let albumID = item.albumID ?? Self.stableID(item.album)
            let artist = artistJSON(item.artist)
            return .object([
                (
                    "album",
                    .object([
                        ("album_type", .string("album")), ("artists", .array([artist])),
                        ("available_markets", .array([])),
                        ("external_urls", .object([("spotify", .string("https://open.spotify.com/album/\(albumID)"))])),
                        ("href", .string("\(baseURL)/v1/albums/\(albumID)")), ("id", .string(albumID)),
                        ("images", .array([])),
                        ("name", .string(item.album)), ("release_date", .string("2025-06-01")),
                        ("release_date_precision", .string("day")), ("total_tracks", .int(12)),
                        ("type", .string("album")),
                        ("uri", .string("spotify:album:\(albumID)")),
                    ])
                ),
                ("artists", .array([artist])),
                ("duration_ms", .int(item.durationMs)),
                ("episode", .bool(item.kind == .episode)),
                ("explicit", .bool(false)),
                ("external_urls", .object([("spotify", .string("https://open.spotify.com/track/\(item.id ?? "")"))])),
                ("href", .string("\(baseURL)/v1/tracks/\(item.id ?? "")")),
                ("id", .string(item.id)),
                ("is_local", .bool(false)),
                ("is_playable", .bool(true)),
                ("name", .string(item.name)),
                // No previews for apps created after November 2024.
                ("preview_url", .null),
                ("type", .string("track")),
                ("uri", .string(item.kind == .episode ? "spotify:episode:\(item.id ?? "")" : item.uri)),
            ])
        }
    }
}
