import Foundation

extension SpotifyClient {
    static let notOwnedHint =
        "Spotify only returns the contents of playlists you own or collaborate on; this playlist's "
        + "details are available, its entries are not."

    /// `GET /me`: the signed-in user.
    public func currentUser() async throws -> CurrentUser {
        try await send(Endpoint(path: "/me"), as: CurrentUser.self)
    }

    /// One page of the user's playlists (`GET /me/playlists`).
    /// - Parameters:
    ///   - limit: 1–50.
    ///   - offset: 0–100,000.
    public func myPlaylists(limit: Int = 50, offset: Int = 0) async throws -> Page<SimplifiedPlaylist> {
        try Validate.range(limit, 1...50, "limit")
        try Validate.range(offset, 0...100_000, "offset")
        return try await send(
            Endpoint(path: "/me/playlists", query: Self.paging(limit, offset)),
            as: Page<SimplifiedPlaylist>.self)
    }

    /// All of the user's playlists, every page.
    public func allMyPlaylists(
        progress: (@Sendable (FetchProgress) -> Void)? = nil
    ) async throws -> PagedCollection<SimplifiedPlaylist> {
        try await fetchAll(pageSize: 50, concurrency: configuration.pageConcurrency, progress: progress) {
            offset, limit in
            try await self.myPlaylists(limit: limit, offset: offset)
        }
    }

    /// `GET /playlists/{id}`: details, and the first page of entries when the user owns or
    /// collaborates on the playlist.
    public func playlist(_ id: SpotifyID) async throws -> Playlist {
        try await send(Endpoint(path: "/playlists/\(id.rawValue)", query: Self.additionalTypes), as: Playlist.self)
    }

    /// `GET /playlists/{id}` with a `fields` filter, decoded as whatever shape the filter leaves.
    ///
    /// - Parameters:
    ///   - id: the playlist.
    ///   - fields: Spotify's field selection, as `name,snapshot_id,items(total)`.
    ///   - type: the shape the filter leaves.
    public func playlist<T: Decodable>(_ id: SpotifyID, fields: String, as type: T.Type) async throws -> T {
        guard !fields.isEmpty else { throw SpotifyAPIError.invalid("fields", "The fields filter is empty.") }
        return try await send(
            Endpoint(
                path: "/playlists/\(id.rawValue)", query: Self.additionalTypes + [.init(name: "fields", value: fields)]),
            as: T.self)
    }

    /// One page of a playlist's entries (`GET /playlists/{id}/items`).
    public func playlistEntries(_ id: SpotifyID, limit: Int = 50, offset: Int = 0) async throws -> Page<PlaylistEntry> {
        try Validate.range(limit, 1...50, "limit")
        try Validate.range(offset, 0...Int(Int32.max), "offset")
        return try await send(
            Endpoint(
                path: "/playlists/\(id.rawValue)/items",
                query: [.init(name: "limit", value: "\(limit)"), .init(name: "offset", value: "\(offset)")]
                    + Self.additionalTypes,
                forbiddenHint: Self.notOwnedHint),
            as: Page<PlaylistEntry>.self)
    }

    /// Every entry of a playlist, in playlist order.
    ///
    /// Reads the first page, then the others concurrently by offset: from four pages at once,
    /// growing to eight while Spotify answers without a 429 and halving on one.
    /// - Parameters:
    ///   - id: the playlist.
    ///   - concurrency: a fixed number of pages in flight instead.
    ///   - progress: called after each page with entries fetched so far and the total.
    public func allPlaylistEntries(
        _ id: SpotifyID, concurrency: Int? = nil, progress: (@Sendable (FetchProgress) -> Void)? = nil
    ) async throws -> PagedCollection<PlaylistEntry> {
        try await fetchAll(
            pageSize: 50, concurrency: concurrency ?? configuration.pageConcurrency,
            maximumConcurrency: concurrency ?? configuration.maxPageConcurrency, progress: progress
        ) { offset, limit in
            try await self.playlistEntries(id, limit: limit, offset: offset)
        }
    }

    /// `GET /search?type=playlist`: one page of playlists matching `query`.
    ///
    /// `null` results (Spotify sends them) are dropped and counted in the page's `nullCount`.
    /// - Parameters:
    ///   - query: the words to search for, in any script.
    ///   - limit: 1–10 (Spotify's 2026 maximum).
    ///   - offset: 0–1,000; ask for the next page with `offset + limit`.
    public func searchPlaylists(_ query: String, limit: Int = 10, offset: Int = 0) async throws
        -> Page<SimplifiedPlaylist>
    {
        try await send(
            try searchEndpoint(query, type: "playlist", limit: limit, offset: offset), as: PlaylistSearchResults.self
        )
        .playlists
    }

    /// `GET /me/player/currently-playing`; `nil` when nothing plays (204).
    public func currentlyPlaying() async throws -> CurrentlyPlaying? {
        try await sendOptional(
            Endpoint(
                path: "/me/player/currently-playing", query: Self.additionalTypes,
                scopes: ["user-read-currently-playing", "user-read-playback-state"]),
            as: CurrentlyPlaying.self)
    }

    private static var additionalTypes: [URLQueryItem] { [.init(name: "additional_types", value: "track,episode")] }
}

/// Request checks made before anything is sent.
enum Validate {
    static func range(_ value: Int, _ range: ClosedRange<Int>, _ parameter: String) throws {
        guard range.contains(value) else {
            throw SpotifyAPIError.invalid(
                parameter,
                "'\(parameter)' must be between \(range.lowerBound) and \(range.upperBound); it was \(value).")
        }
    }
}
