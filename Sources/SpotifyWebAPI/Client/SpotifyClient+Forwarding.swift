package import Foundation

extension SpotifyClient {
    /// `GET /search` for tracks, answered with Spotify's own JSON (`{"tracks": {…}}`), unparsed:
    /// what the search service forwards to an app, which reads it as ``searchTracks(_:limit:offset:)``
    /// does. Checked, counted, gated and retried as every request.
    /// - Parameter market: an ISO 3166-1 alpha-2 country code the results are playable in; `nil`
    ///   for Spotify's default.
    package func searchTracksJSON(_ query: String, limit: Int, offset: Int, market: String?) async throws -> Data {
        var endpoint = try searchEndpoint(query, type: "track", limit: limit, offset: offset)
        if let market { endpoint.query.append(.init(name: "market", value: market)) }
        return try await exchange(endpoint).1
    }

    /// `GET /tracks/{id}`, answered with Spotify's own JSON, unparsed (see
    /// ``searchTracksJSON(_:limit:offset:market:)``).
    package func trackJSON(_ id: SpotifyID, market: String?) async throws -> Data {
        var endpoint = Endpoint(path: "/tracks/\(id.rawValue)")
        if let market { endpoint.query.append(.init(name: "market", value: market)) }
        return try await exchange(endpoint).1
    }
}
