import Foundation

/// Which of Spotify's 2026 rules apply to a client ID: they follow from the day it was created.
///
/// Spotify restricted Development Mode clients in February 2026, then postponed the restrictions
/// for client IDs created before 2026-02-11. Such an older client may still ask search for 50
/// results a page and call some routes a newer one gets 403 for. SpotifyLink sends what both
/// accept, so nothing depends on the kind; it explains why another tool's request works for one
/// app and not for another.
public enum ClientGeneration: String, Sendable, Hashable, CaseIterable {
    /// Created before 2026-02-11: the February 2026 restrictions were postponed for it.
    case older
    /// Created on 2026-02-11 or later: every 2026 restriction applies (search pages of 10).
    case newer
}

extension SpotifyClient {
    /// Asks Spotify which rules apply to this client, in one request: a search for 11 results a
    /// page, which an older client is given and a newer one refused (400 "Invalid limit").
    ///
    /// Counted in the ledger like any request, and subject to the cooldown.
    package func clientGeneration() async throws -> ClientGeneration {
        let probe = Endpoint(
            path: "/search",
            query: [.init(name: "q", value: "a"), .init(name: "type", value: "track")] + Self.paging(11, 0))
        do {
            _ = try await exchange(probe)
            return .older
        } catch let error as SpotifyAPIError where error.code == .badRequest {
            return .newer
        }
    }
}
