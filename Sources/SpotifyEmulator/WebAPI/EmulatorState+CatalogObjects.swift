import Foundation
import SpotifyLinkSupport

/// Where a track object appears: live Spotify sends slightly different keys in each place, and
/// the recorded answers (`SpotifyTesting/Fixtures`) are the referee.
enum TrackContext {
    /// A playlist entry's item: with the `episode` and `track` flags, without `is_playable`.
    case entry
    /// A search result: with `is_playable` on the track and on its album.
    case search
    /// `/me/player` and `/me/player/currently-playing`: without `external_ids` (observed since
    /// September 2026; the same track from `/tracks/{id}` has them).
    case player
    /// `/tracks/{id}`, saved tracks and top tracks.
    case catalog
}

/// The JSON shapes of tracks, albums, artists, episodes and shows, as live Spotify sends them in
/// late 2026: complete objects (disc and track numbers, ISRCs, links), without the keys removed in
/// February 2026 (`popularity`, `available_markets`, `linked_from`, album `label`, artist
/// `followers`).
extension CatalogRenderer {
    /// A playlist entry's, a search result's, a player's or a catalog read's item.
    func itemJSON(_ item: CatalogItem, episodes: Bool, in context: TrackContext) -> JSONValue {
        switch item.kind {
        case .episode where episodes: episodeJSON(item, withShow: true)
        case .local: localTrackJSON(item, in: context)
        // Without `additional_types=episode` an episode comes track-shaped, as live.
        case .track, .episode: trackJSON(item, in: context)
        }
    }

    private func trackJSON(_ item: CatalogItem, in context: TrackContext) -> JSONValue {
        let id = item.id ?? ""
        let placed = catalog.album(of: item)
        var fields: [(String, JSONValue)] = [
            ("album", albumJSON(placed?.album ?? fallbackAlbum(item), in: context)),
            ("artists", .array([artistJSON(item.artist)])),
            ("disc_number", .int(1)),
            ("duration_ms", .int(item.durationMs)),
        ]
        if context == .entry { fields.append(("episode", .bool(item.kind == .episode))) }
        fields.append(("explicit", .bool(item.explicit)))
        if context != .player { fields.append(("external_ids", .object([("isrc", .string(item.isrc ?? ""))]))) }
        fields += [
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/track/\(id)"))])),
            ("href", .string("\(baseURL)/v1/tracks/\(id)")),
            ("id", .string(id)),
            ("is_local", .bool(false)),
        ]
        if context == .search { fields.append(("is_playable", .bool(true))) }
        fields += [
            ("name", .string(item.name)),
            // No previews for apps created after November 2024.
            ("preview_url", .null),
        ]
        if context == .entry { fields.append(("track", .bool(item.kind != .episode))) }
        fields += [
            ("track_number", .int(placed?.trackNumber ?? 1)),
            ("type", .string("track")),
            ("uri", .string(item.kind == .episode ? "spotify:episode:\(id)" : item.uri)),
        ]
        return .object(fields)
    }

    /// A file from the user's device: every key a catalog track has, emptied, as the contract says.
    private func localTrackJSON(_ item: CatalogItem, in context: TrackContext) -> JSONValue {
        let album = JSONValue.object([
            ("album_type", .null), ("artists", .array([])), ("external_urls", .object([])), ("href", .null),
            ("id", .null), ("images", .array([])), ("name", .string(item.album)), ("release_date", .null),
            ("release_date_precision", .null), ("total_tracks", .int(0)), ("type", .string("album")), ("uri", .null),
        ])
        let artist = JSONValue.object([
            ("external_urls", .object([])), ("href", .null), ("id", .null), ("name", .string(item.artist)),
            ("type", .string("artist")), ("uri", .null),
        ])
        var fields: [(String, JSONValue)] = [
            ("album", album), ("artists", .array([artist])), ("disc_number", .int(0)),
            ("duration_ms", .int(item.durationMs)),
        ]
        if context == .entry { fields.append(("episode", .bool(false))) }
        fields.append(("explicit", .bool(false)))
        if context != .player { fields.append(("external_ids", .object([]))) }
        fields += [("external_urls", .object([])), ("href", .null), ("id", .null), ("is_local", .bool(true))]
        if context == .search { fields.append(("is_playable", .bool(false))) }
        fields += [("name", .string(item.name)), ("preview_url", .null)]
        if context == .entry { fields.append(("track", .bool(true))) }
        fields += [("track_number", .int(0)), ("type", .string("track")), ("uri", .string(item.uri))]
        return .object(fields)
    }

    /// The album of a track that names none the catalog knows (an album of one).
    private func fallbackAlbum(_ item: CatalogItem) -> CatalogAlbum {
        let id = item.albumID ?? Self.stableID(item.album)
        return CatalogAlbum(id: id, name: item.album, artist: item.artist, trackIDs: item.id.map { [$0] } ?? [])
    }

    private func albumFields(_ album: CatalogAlbum) -> [(String, JSONValue)] {
        [
            ("album_type", .string(album.trackIDs.count < 4 ? "single" : "album")),
            ("artists", .array([artistJSON(album.artist)])),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/album/\(album.id)"))])),
            ("href", .string("\(baseURL)/v1/albums/\(album.id)")),
            ("id", .string(album.id)),
            ("images", imagesJSON(of: album.id)),
        ]
    }

    private func albumTail(_ album: CatalogAlbum) -> [(String, JSONValue)] {
        [
            ("name", .string(album.name)),
            ("release_date", .string("2025-06-01")),
            ("release_date_precision", .string("day")),
            ("total_tracks", .int(album.trackIDs.count)),
            ("type", .string("album")),
            ("uri", .string("spotify:album:\(album.id)")),
        ]
    }

    /// A simplified album, as inside a track (and as search finds it).
    func albumJSON(_ album: CatalogAlbum, in context: TrackContext) -> JSONValue {
        .object(albumFields(album) + (context == .search ? [("is_playable", .bool(true))] : []) + albumTail(album))
    }

    /// A simplified album as `GET /artists/{id}/albums` lists it: with its `album_group`.
    func artistAlbumJSON(_ album: CatalogAlbum) -> JSONValue {
        .object(
            [("album_group", .string(album.trackIDs.count < 4 ? "single" : "album"))] + albumFields(album)
                + albumTail(album))
    }

    /// `GET /albums/{id}`: the full album with the first page of its tracks.
    func fullAlbumJSON(_ album: CatalogAlbum) -> JSONValue {
        let limit = 50
        let tracks = album.trackIDs.prefix(limit).compactMap { catalog.tracks[$0] }.map(simplifiedTrackJSON)
        var fields = albumFields(album)
        fields.insert(
            ("copyrights", .array([.object([("text", .string("2025 \(album.artist)")), ("type", .string("C"))])])),
            at: 2)
        fields.insert(("external_ids", .object([("upc", .string(Self.upc(album.id)))])), at: 3)
        fields.insert(("genres", .array([])), at: 5)
        var tail = albumTail(album)
        tail.insert(
            (
                "tracks",
                page(
                    tracks, total: album.trackIDs.count, limit: limit, offset: 0, path: "/albums/\(album.id)/tracks",
                    extra: [])
            ), at: 4)
        return .object(fields + tail)
    }

    /// A track as an album lists it: no album, no ISRC.
    func simplifiedTrackJSON(_ item: CatalogItem) -> JSONValue {
        let id = item.id ?? ""
        return .object([
            ("artists", .array([artistJSON(item.artist)])),
            ("disc_number", .int(1)),
            ("duration_ms", .int(item.durationMs)),
            ("explicit", .bool(item.explicit)),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/track/\(id)"))])),
            ("href", .string("\(baseURL)/v1/tracks/\(id)")),
            ("id", .string(id)),
            ("is_local", .bool(false)),
            ("name", .string(item.name)),
            ("preview_url", .null),
            ("track_number", .int(catalog.album(of: item)?.trackNumber ?? 1)),
            ("type", .string("track")),
            ("uri", .string(item.uri)),
        ])
    }

    /// A 12-digit UPC for an album, stable for its ID.
    private static func upc(_ id: String) -> String {
        let hash = id.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return String(format: "%012llu", hash % 1_000_000_000_000)
    }

    /// An episode, with its show inside (`withShow`), or as a show lists it.
    func episodeJSON(_ item: CatalogItem, withShow: Bool) -> JSONValue {
        let id = item.id ?? ""
        var fields: [(String, JSONValue)] = [
            ("audio_preview_url", .null),
            ("description", .string("An episode of \(item.album)")),
            ("duration_ms", .int(item.durationMs)),
            ("explicit", .bool(item.explicit)),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/episode/\(id)"))])),
            ("href", .string("\(baseURL)/v1/episodes/\(id)")),
            ("html_description", .string("<p>An episode of \(HTML.escape(item.album))</p>")),
            ("id", .string(id)),
            ("images", imagesJSON(of: id)),
            ("is_externally_hosted", .bool(false)),
            ("is_playable", .bool(true)),
            ("language", .string("en")),
            ("languages", .array([.string("en")])),
            ("name", .string(item.name)),
            ("release_date", .string("2026-01-15")),
            ("release_date_precision", .string("day")),
        ]
        if readsPlaybackPosition {
            fields.append(
                ("resume_point", .object([("fully_played", .bool(false)), ("resume_position_ms", .int(0))])))
        }
        if withShow, let show = catalog.shows[item.showID] {
            fields.append(("show", showJSON(show, withEpisodes: false)))
        }
        fields += [("type", .string("episode")), ("uri", .string(item.uri))]
        return .object(fields)
    }

    /// A show: simplified inside an episode, or `GET /shows/{id}` with the first page of its episodes.
    func showJSON(_ show: CatalogShow, withEpisodes: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("copyrights", .array([])),
            ("description", .string("Conversations from \(show.name)")),
        ]
        if withEpisodes {
            let limit = 50
            let episodes = show.episodeIDs.prefix(limit).compactMap { catalog.episodes[$0] }.map {
                episodeJSON($0, withShow: false)
            }
            fields.append(
                (
                    "episodes",
                    page(
                        episodes, total: show.episodeIDs.count, limit: limit, offset: 0,
                        path: "/shows/\(show.id)/episodes", extra: [])
                ))
        }
        fields += [
            ("explicit", .bool(false)),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/show/\(show.id)"))])),
            ("href", .string("\(baseURL)/v1/shows/\(show.id)")),
            ("html_description", .string("<p>Conversations from \(HTML.escape(show.name))</p>")),
            ("id", .string(show.id)),
            ("images", imagesJSON(of: show.id)),
            ("is_externally_hosted", .bool(false)),
            ("languages", .array([.string("en")])),
            ("media_type", .string("audio")),
            ("name", .string(show.name)),
            ("publisher", .string(show.publisher)),
            ("total_episodes", .int(show.episodeIDs.count)),
            ("type", .string("show")),
            ("uri", .string("spotify:show:\(show.id)")),
        ]
        return .object(fields)
    }
}
