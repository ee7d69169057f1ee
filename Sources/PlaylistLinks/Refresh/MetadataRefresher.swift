import Foundation
import HTTPTypes
public import SpotifyWebAPI

/// Fills in and refreshes the cached metadata and covers of linked playlists through the client.
///
/// The cached data always stays: 404 marks the playlist deleted, 403 inaccessible, and a network
/// or server failure leaves everything as it was (stale, not lost).
public struct MetadataRefresher: Sendable {
    /// What happened to one playlist.
    public enum Outcome: Sendable, Equatable {
        /// Fetched; `entriesFetched` is false when the snapshot was unchanged and the entries were skipped.
        case refreshed(entriesFetched: Bool)
        case notFound
        case forbidden
        /// Spotify could not be reached or failed; the cache was left as it was.
        case stale(String)
    }

    public let links: PlaylistLinks
    public let client: SpotifyClient
    let transport: any Transport

    /// - Parameter transport: fetches cover bytes (image URLs need no token).
    public init(links: PlaylistLinks, client: SpotifyClient, transport: any Transport = URLSessionTransport()) {
        self.links = links
        self.client = client
        self.transport = transport
    }

    /// Refreshes the playlist linked to `record`.
    @discardableResult
    public func refresh(record: RecordID, progress: (@Sendable (FetchProgress) -> Void)? = nil) async throws -> Outcome? {
        guard let id = try links.linkedPlaylist(record) else { return nil }
        return try await refresh(playlist: id, progress: progress)
    }

    /// Refreshes every linked playlist fetched longer ago than `age` (or never), at most
    /// `concurrency` at once.
    public func refreshStale(olderThan age: Duration, concurrency: Int = 4, progress: (@Sendable (Int, Int) -> Void)? = nil)
        async throws -> [SpotifyID: Outcome]
    {
        let now = client.clock.now
        var due: [SpotifyID] = []
        for id in Set(try links.allLinks().map(\.playlist)).sorted() {
            let fetchedAt = try links.metadata(for: id)?.fetchedAt
            if fetchedAt.map({ now.timeIntervalSince($0) >= age.seconds }) ?? true { due.append(id) }
        }
        var outcomes: [SpotifyID: Outcome] = [:]
        try await withThrowingTaskGroup(of: (SpotifyID, Outcome).self) { group in
            var next = 0
            func launch() {
                let id = due[next]
                next += 1
                group.addTask { (id, try await refresh(playlist: id)) }
            }
            while next < min(max(1, concurrency), due.count) { launch() }
            while let (id, outcome) = try await group.next() {
                outcomes[id] = outcome
                progress?(outcomes.count, due.count)
                if next < due.count { launch() }
            }
        }
        return outcomes
    }

    /// Refreshes one playlist's metadata, entries (when its snapshot changed) and cover.
    public func refresh(playlist id: SpotifyID, progress: (@Sendable (FetchProgress) -> Void)? = nil) async throws -> Outcome {
        var metadata = try links.metadata(for: id) ?? PlaylistMetadata(id: id)
        let playlist: Playlist
        do {
            playlist = try await client.playlist(id)
        } catch let error as SpotifyAPIError {
            switch error.code {
            case .notFound:
                metadata.availability = .notFound
                try links.store(metadata)
                return .notFound
            case .forbidden:
                metadata.availability = .forbidden
                try links.store(metadata)
                return .forbidden
            default:
                return .stale(error.message)
            }
        }
        let summary = playlist.summary
        let entriesKnown = metadata.totalDuration != nil && metadata.trackCount != nil
        let unchanged = summary.snapshotID != nil && summary.snapshotID == metadata.snapshotID && entriesKnown
        metadata.name = summary.name
        metadata.description = summary.description
        metadata.ownerName = summary.owner?.displayName ?? summary.owner?.id
        metadata.availability = .available
        metadata.fetchedAt = client.clock.now
        let cover = SpotifyImage.best(in: summary.images)
        metadata.coverURL = cover?.url
        var entriesFetched = false
        if !unchanged {
            if let firstPage = playlist.items {
                let entries: [PlaylistEntry]
                let nullEntries: Int
                if firstPage.next == nil, firstPage.offset == 0 {
                    entries = firstPage.items
                    nullEntries = firstPage.nullCount
                    progress?(FetchProgress(fetched: entries.count, total: firstPage.total))
                } else {
                    do {
                        let all = try await client.allPlaylistEntries(id, progress: progress)
                        entries = all.items
                        nullEntries = all.nullCount
                    } catch let error as SpotifyAPIError {
                        return .stale(error.message)
                    }
                }
                let durations = entries.compactMap(\.item.duration)
                metadata.trackCount = playlist.itemCount ?? entries.count + nullEntries
                metadata.unavailableCount = entries.count - durations.count + nullEntries
                metadata.totalDuration = durations.reduce(.zero, +)
                entriesFetched = true
            } else {
                // Since 2026 Spotify sends no entries for playlists the user does not own: the count
                // is whatever Spotify says, the duration stays unknown.
                metadata.trackCount = playlist.itemCount ?? metadata.trackCount
                metadata.totalDuration = nil
                metadata.unavailableCount = nil
            }
            metadata.snapshotID = summary.snapshotID
        }
        try links.store(metadata)
        if let cover, (try? links.cover(for: id)) == nil || !unchanged {
            await fetchCover(cover.url, for: id)
        }
        return .refreshed(entriesFetched: entriesFetched)
    }

    private func fetchCover(_ url: URL, for id: SpotifyID) async {
        let request = HTTPRequest(method: .get, url: url)
        guard let (response, data) = try? await transport.send(request, body: nil, timeout: .seconds(20), maxBodyBytes: 4 << 20),
            response.status.code == 200, !data.isEmpty
        else { return }
        try? links.storeCover(data, for: id)
    }
}
