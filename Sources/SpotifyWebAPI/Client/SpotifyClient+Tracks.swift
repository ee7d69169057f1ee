import Foundation

/// Scopes of the calls a learning or music app adds; ask for them only when the app uses them.
public enum LibraryScope {
    /// `GET /me/tracks`: the user's saved tracks.
    public static let savedTracks = "user-library-read"
    /// `GET /me/top/{tracks|artists}`: the user's top tracks and artists.
    public static let topItems = "user-top-read"
}

extension SpotifyClient {
    /// `GET /search?type=track`: one page of tracks matching `query` (UTF-8; Japanese and accents
    /// welcome, Spotify matches loosely).
    ///
    /// `null` results are dropped and counted in the page's `nullCount`. Works with an app-only
    /// (client-credentials) token.
    /// - Parameters:
    ///   - query: the words to search for, in any script (kana, kanji and full-width forms work).
    ///   - limit: 1–10 (Spotify's 2026 maximum).
    ///   - offset: 0–1,000; ask for the next page with `offset + limit`.
    public func searchTracks(_ query: String, limit: Int = 10, offset: Int = 0) async throws -> Page<Track> {
        try await send(
            try searchEndpoint(query, type: "track", limit: limit, offset: offset), as: TrackSearchResults.self
        ).tracks
    }

    /// `GET /tracks/{id}`: one track (the several-IDs form was removed in 2026).
    public func track(_ id: SpotifyID) async throws -> Track {
        try await send(Endpoint(path: "/tracks/\(id.rawValue)"), as: Track.self)
    }

    /// `GET /me/tracks`: one page of the user's saved tracks, newest first. Needs `user-library-read`.
    /// - Parameters:
    ///   - limit: 1–50.
    ///   - offset: from 0.
    public func savedTracks(limit: Int = 20, offset: Int = 0) async throws -> Page<SavedTrack> {
        try Validate.range(limit, 1...50, "limit")
        try Validate.range(offset, 0...100_000, "offset")
        return try await send(
            Endpoint(path: "/me/tracks", query: Self.paging(limit, offset), scopes: [LibraryScope.savedTracks]),
            as: Page<SavedTrack>.self)
    }

    /// `GET /me/top/tracks`: the user's most played tracks over `range`. Needs `user-top-read`.
    public func topTracks(range: TopItemsRange = .mediumTerm, limit: Int = 20, offset: Int = 0) async throws -> Page<
        Track
    > {
        try await send(try topEndpoint("tracks", range: range, limit: limit, offset: offset), as: Page<Track>.self)
    }

    /// `GET /me/top/artists`: the user's most played artists over `range`. Needs `user-top-read`.
    public func topArtists(range: TopItemsRange = .mediumTerm, limit: Int = 20, offset: Int = 0) async throws -> Page<
        Artist
    > {
        try await send(try topEndpoint("artists", range: range, limit: limit, offset: offset), as: Page<Artist>.self)
    }

    /// The checked `GET /search` request shared by every search type.
    func searchEndpoint(_ query: String, type: String, limit: Int, offset: Int) throws -> Endpoint {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SpotifyAPIError.invalid("q", "The search text is empty.") }
        try Validate.range(limit, 1...10, "limit")
        try Validate.range(offset, 0...1000, "offset")
        return Endpoint(
            path: "/search",
            query: [.init(name: "q", value: trimmed), .init(name: "type", value: type)] + Self.paging(limit, offset))
    }

    private func topEndpoint(_ type: String, range: TopItemsRange, limit: Int, offset: Int) throws -> Endpoint {
        try Validate.range(limit, 1...50, "limit")
        try Validate.range(offset, 0...10_000, "offset")
        return Endpoint(
            path: "/me/top/\(type)",
            query: [.init(name: "time_range", value: range.rawValue)] + Self.paging(limit, offset),
            scopes: [LibraryScope.topItems])
    }

    static func paging(_ limit: Int, _ offset: Int) -> [URLQueryItem] {
        [.init(name: "limit", value: "\(limit)"), .init(name: "offset", value: "\(offset)")]
    }
}
