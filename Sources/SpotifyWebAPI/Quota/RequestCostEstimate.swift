import Foundation

/// What an action will spend of the request quota, told before it is taken: the requests it
/// sends, beside what the ledger counted in the last 24 hours and the limit it learned from
/// Spotify's refusals.
///
/// ```swift
/// let cost = try await client.estimatedCost(of: .readPlaylist(entries: 10_000))
/// if cost.fitsLearnedLimit == false { /* ask first, or wait for tomorrow */ }
/// ```
public struct RequestCostEstimate: Sendable, Hashable {
    /// The fewest and the most requests the action sends.
    public var requests: ClosedRange<Int>
    /// Requests the ledger counted in the last 24 hours.
    public var spentToday: Int
    /// What the ledger learned of the quota, when Spotify refused in the last 30 days.
    public var learned: LearnedQuota?

    /// Whether the most the action sends, with what was spent today, stays under the learned
    /// limit; `nil` when no limit was learned.
    public var fitsLearnedLimit: Bool? {
        learned.map { spentToday + requests.upperBound <= $0.limit }
    }

    /// - Parameters:
    ///   - requests: the fewest and the most requests the action sends.
    ///   - spentToday: requests counted in the last 24 hours.
    ///   - learned: the learned quota, if any.
    package init(requests: ClosedRange<Int>, spentToday: Int, learned: LearnedQuota?) {
        self.requests = requests
        self.spentToday = spentToday
        self.learned = learned
    }
}

extension SpotifyClient {
    /// An action that sends more than one request, for ``SpotifyClient/estimatedCost(of:)``.
    public enum CostlyAction: Sendable, Hashable {
        /// Listing the user's playlists (``SpotifyClient/allMyPlaylists(progress:)``): a request
        /// per 50, for about `playlists` (the count last listed), and one more should the list
        /// have grown past a page.
        case listMyPlaylists(about: Int)
        /// Reading every entry of a playlist of `entries`
        /// (``SpotifyClient/allPlaylistEntries(_:concurrency:progress:)``): a request per 50.
        case readPlaylist(entries: Int)
        /// Any other action, by the fewest and the most requests it sends.
        case requests(ClosedRange<Int>)

        /// The fewest and the most requests the action sends.
        public var requests: ClosedRange<Int> {
            func pages(_ count: Int) -> Int { max(1, (max(count, 0) + Self.pageSize - 1) / Self.pageSize) }
            switch self {
            case .listMyPlaylists(let about): return pages(about)...(pages(about) + 1)
            case .readPlaylist(let entries): return pages(entries)...pages(entries)
            case .requests(let range): return max(range.lowerBound, 0)...max(range.upperBound, 0)
            }
        }

        /// Entries per page of both lists: 50, the most Spotify gives since 2026.
        static let pageSize = 50
    }

    /// What `action` will spend of the quota, with what this client's ledger counted in the last
    /// 24 hours and the limit it learned: asked before a large action, so an app can say what it
    /// costs, or wait. Reads the ledger; sends no request.
    /// - Throws: the ledger store's error when it cannot be read.
    public func estimatedCost(of action: CostlyAction) async throws -> RequestCostEstimate {
        let now = clock.now
        return RequestCostEstimate(
            requests: action.requests, spentToday: try await ledger.usage(at: now).last24Hours,
            learned: try await ledger.learnedQuota(at: now))
    }
}
