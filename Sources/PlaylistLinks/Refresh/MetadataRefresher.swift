import Foundation
import HTTPTypes
import SpotifyLinkSupport
@_spi(Transport) public import SpotifyWebAPI
import Synchronization

/// Fills in and refreshes the cached metadata and covers of linked playlists through the client.
///
/// The cached data always stays: 404 marks the playlist deleted, 403 inaccessible, and a network
/// or server failure leaves everything as it was (stale, not lost).
///
/// It spends as few requests as still reflect every change: a playlist whose `snapshot_id` is the
/// one cached keeps its count, duration and cover, and ``refreshStale(olderThan:concurrency:progress:)``
/// revalidates the playlists in the user's library 50 at a time from `/me/playlists` before it reads
/// any playlist on its own. Its requests are background work (`RequestOrigin.backgroundWork`)
/// unless made with another `origin`, so a ledger's daily budget stops them.
public struct MetadataRefresher: Sendable {
    /// What happened to one playlist.
    public enum Outcome: Sendable, Equatable {
        /// Fetched; `entriesFetched` is false when the snapshot was unchanged and the entries were skipped.
        case refreshed(entriesFetched: Bool)
        /// Confirmed unchanged from the user's library listing, without a request of its own.
        case unchanged
        /// One of Spotify's own playlists (`37i9dQZ…`), which Spotify does not show apps: the link
        /// stays and opens in Spotify, with no details.
        case spotifyOwned
        /// Spotify answered 404: the playlist was deleted; what was saved stays.
        case notFound
        /// Spotify answered 403: the playlist is no longer accessible to this user; what was saved stays.
        case forbidden
        /// Spotify could not be reached or failed, with the error that says why (an app words it
        /// with its own text); the cache was left as it was.
        case failed(SpotifyAPIError)
        /// The details from Spotify were forgotten (the user disconnected) while Spotify answered:
        /// nothing of the answer was saved, as the disconnect asks.
        case forgotten
    }

    /// Where the metadata and covers are kept: the refresher writes through this door alone.
    package let links: LinkedPlaylists
    /// The client the refresher reads through (its gate, ledger and session).
    package let client: SpotifyClient
    let transport: any Transport
    /// Who the refresher's requests are for: background work unless a person asked for them.
    package let origin: RequestOrigin

    /// - Parameters:
    ///   - links: where the metadata and covers are kept.
    ///   - client: reads the playlists (its gate, ledger and session apply).
    ///   - transport: fetches cover bytes (image URLs need no token).
    ///   - origin: `.person` when a person asked for this refresh (a pull to refresh, a command).
    public init(
        links: LinkedPlaylists, client: SpotifyClient, transport: any Transport = platformDefaultTransport(),
        origin: RequestOrigin = .backgroundWork
    ) {
        self.links = links
        self.client = client
        self.transport = transport
        self.origin = origin
    }

    /// Refreshes the playlist linked to `record`.
    @discardableResult
    public func refresh(record: RecordID, progress: (@Sendable (FetchProgress) -> Void)? = nil) async throws -> Outcome?
    {
        guard let id = try await links.link(for: record)?.playlist else { return nil }
        return try await refresh(playlist: id, progress: progress)
    }

    /// Refreshes every linked playlist fetched longer ago than `age` (or never), at most
    /// `concurrency` at once.
    public func refreshStale(
        olderThan age: Duration, concurrency: Int = 4, progress: (@Sendable (Int, Int) -> Void)? = nil
    )
        async throws -> [SpotifyID: Outcome]
    {
        let now = client.clock.now
        // Read before what is saved: a forget after it refuses what the library listing says.
        let epoch = try await links.forgetEpoch()
        let saved = try await links.saved()
        let metadata = Dictionary(saved.metadata.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var due: [SpotifyID] = []
        var cached: [SpotifyID: PlaylistMetadata] = [:]
        for id in Set(saved.links.map(\.playlist)).sorted() {
            let metadata = metadata[id]
            // Spotify's own playlists stay closed to apps: asking again every day would only spend requests.
            if metadata?.availability == .spotifyOwned { continue }
            if metadata?.fetchedAt.map({ now.timeIntervalSince($0) >= age.seconds }) ?? true {
                due.append(id)
                cached[id] = metadata
            }
        }
        let (revalidated, libraryStall) = try await revalidateFromLibrary(cached, epoch: epoch)
        var outcomes = revalidated
        if !outcomes.isEmpty { progress?(outcomes.count, due.count) }
        due.removeAll { outcomes[$0] != nil }
        let total = outcomes.count + due.count
        // Spotify not answering (a stalled proxy, a captive portal) is said once, at the answer
        // deadline: the playlists not yet asked for fail with the same error, without a request.
        let stalled = Lock<SpotifyAPIError?>(libraryStall)
        _ = try await withBoundedTaskGroup(over: due, limit: concurrency) { id -> Outcome in
            if let error = stalled.withLock({ $0 }) { return .failed(error) }
            let outcome = try await refresh(playlist: id)
            if case .failed(let error) = outcome, error.notAnswering { stalled.withLock { $0 = $0 ?? error } }
            return outcome
        } received: { index, outcome in
            outcomes[due[index]] = outcome
            progress?(outcomes.count, total)
            return concurrency
        }
        return outcomes
    }

    /// Confirms unchanged playlists from the pages of `/me/playlists`: one request answers for up
    /// to 50 of them. Reads pages only while that is cheaper than one request per playlist left.
    /// - Returns: the playlists confirmed, and the error when Spotify did not answer at all.
    private func revalidateFromLibrary(_ due: [SpotifyID: PlaylistMetadata], epoch: ForgetEpoch) async throws
        -> ([SpotifyID: Outcome], notAnswering: SpotifyAPIError?)
    {
        // A playlist read before can be confirmed by its snapshot alone.
        var pending = due.compactMapValues { metadata -> String? in
            [.available, .detailsOnly].contains(metadata.availability) && metadata.fetchedAt != nil
                ? metadata.snapshotID : nil
        }
        // A single playlist costs one request either way.
        guard pending.count >= 2 else { return ([:], nil) }
        var outcomes: [SpotifyID: Outcome] = [:]
        var offset = 0
        while !pending.isEmpty {
            let page: Page<SimplifiedPlaylist>
            do {
                page = try await SpotifyClient.withOrigin(origin) {
                    try await client.myPlaylists(limit: 50, offset: offset)
                }
            } catch let error as SpotifyAPIError {
                if error.notAnswering { return (outcomes, error) }
                break  // each playlist is then tried on its own, and reports why it could not be read
            }
            for playlist in page.items {
                guard let snapshot = pending.removeValue(forKey: playlist.id) else { continue }
                if playlist.snapshotID == snapshot {
                    outcomes[playlist.id] = try await keepUnchanged(playlist, epoch: epoch)
                }
            }
            offset += page.elementCount
            guard page.next != nil, page.elementCount > 0, let total = page.total else { break }
            let pagesLeft = (total - offset + 49) / 50
            if pagesLeft >= pending.count { break }
        }
        return (outcomes, nil)
    }

    /// Saves what the library listing says of an unchanged playlist; count, duration and cover stay.
    private func keepUnchanged(_ playlist: SimplifiedPlaylist, epoch: ForgetEpoch) async throws -> Outcome {
        let now = client.clock.now
        let kept = try await links.edit(playlist.id, ifEpoch: epoch) { saved in
            (saved ?? PlaylistMetadata(id: playlist.id)).listedUnchanged(playlist, at: now)
        }
        guard kept else { return .forgotten }
        if let cover = SpotifyImage.best(in: playlist.images), (try? await links.cover(for: playlist.id)) == nil {
            await fetchCover(cover.url, for: playlist.id, ifEpoch: epoch)
        }
        return .unchanged
    }

    /// Refreshes one playlist's metadata, entries (when its snapshot changed) and cover.
    public func refresh(playlist id: SpotifyID, progress: (@Sendable (FetchProgress) -> Void)? = nil) async throws
        -> Outcome
    {
        try await SpotifyClient.withOrigin(origin) { try await read(playlist: id, progress: progress) }
    }

    /// Reads playlist `id` from Spotify and saves what the answer says, unless its details were
    /// forgotten meanwhile: the epoch is read first, and every save names it.
    private func read(playlist id: SpotifyID, progress: (@Sendable (FetchProgress) -> Void)?) async throws -> Outcome {
        let epoch = try await links.forgetEpoch()
        let saved = try await links.metadata(for: id) ?? PlaylistMetadata(id: id)
        let playlist: Playlist
        do {
            playlist = try await client.playlist(id)
        } catch let error as SpotifyAPIError {
            let gone: (PlaylistAvailability, Outcome)
            switch error.code {
            case .notFound where SpotifyID.isEditorial(id): gone = (.spotifyOwned, .spotifyOwned)
            case .notFound: gone = (.notFound, .notFound)
            case .forbidden, .playlistNotOwned: gone = (.forbidden, .forbidden)
            default:
                // Refusals of the whole account (not on the user list, the owner's Premium, a
                // missing scope) stop the refresh: asking again cannot help.
                if error.refusesAccount { throw error }
                return .failed(error)
            }
            let now = client.clock.now
            let marked = try await links.edit(id, ifEpoch: epoch) { saved in
                (saved ?? PlaylistMetadata(id: id)).gone(gone.0, at: now)
            }
            return marked ? gone.1 : .forgotten
        }
        let summary = playlist.summary
        let entriesKnown = saved.totalDuration != nil && saved.trackCount != nil
        let unchanged = summary.snapshotID != nil && summary.snapshotID == saved.snapshotID && entriesKnown
        let entries: PlaylistAnswer.Entries
        if unchanged {
            entries = .unchanged
        } else if let firstPage = playlist.items {
            let items: [PlaylistEntry]
            let nullEntries: Int
            if firstPage.next == nil, firstPage.offset == 0 {
                items = firstPage.items
                nullEntries = firstPage.nullCount
                progress?(FetchProgress(fetched: items.count, total: firstPage.total))
            } else {
                do {
                    let all = try await client.allPlaylistEntries(id, progress: progress)
                    items = all.items
                    nullEntries = all.nullCount
                } catch let error as SpotifyAPIError {
                    return .failed(error)
                }
            }
            let durations = items.compactMap(\.item.duration)
            entries = .read(
                count: items.count + nullEntries, unavailable: items.count - durations.count + nullEntries,
                explicit: items.count(where: \.item.isExplicit), duration: durations.reduce(.zero, +))
        } else {
            entries = .notServed
        }
        let answer = PlaylistAnswer(playlist: summary, itemCount: playlist.itemCount, entries: entries)
        let now = client.clock.now
        let refreshed = try await links.edit(id, ifEpoch: epoch) { saved in
            (saved ?? PlaylistMetadata(id: id)).refreshed(with: answer, at: now)
        }
        guard refreshed else { return .forgotten }
        if let cover = SpotifyImage.best(in: summary.images), (try? await links.cover(for: id)) == nil || !unchanged {
            await fetchCover(cover.url, for: id, ifEpoch: epoch)
        }
        if case .read = entries { return .refreshed(entriesFetched: true) }
        return .refreshed(entriesFetched: false)
    }

    /// Fetches the cover at `url` and saves it, unless a forget came after `epoch`.
    private func fetchCover(_ url: URL, for id: SpotifyID, ifEpoch epoch: ForgetEpoch) async {
        let request = HTTPRequest(method: .get, url: url)
        guard
            let (response, data) = try? await transport.send(
                request, body: nil, timeout: .seconds(20), maxBodyBytes: 4 << 20),
            response.status.code == 200, !data.isEmpty
        else { return }
        _ = try? await links.saveCover(data, for: id, ifEpoch: epoch)
    }
}
