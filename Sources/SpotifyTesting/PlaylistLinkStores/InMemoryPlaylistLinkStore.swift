public import Foundation
@_spi(Storage) public import PlaylistLinks
public import SpotifyWebAPI

/// A `PlaylistLinkStore` in dictionaries behind an actor: the reference a backend of your own is
/// compared with, and a store for tests that need no database.
///
/// It keeps exactly what the protocol asks and nothing more: rows, one atomic edit guarded by a
/// forget epoch, and no rule of its own (`LinkedPlaylists` applies them). A backend outside this
/// package is held to the same specification by ``PlaylistLinkStoreConformance``:
///
/// ```swift
/// @Test(arguments: PlaylistLinkStoreConformance.checks)
/// func myStoreKeepsTheContract(_ check: PlaylistLinkStoreConformance.Check) async throws {
///     try await check.run { clock in try await MyStore.empty(clock: clock) }
/// }
/// ```
@_spi(Storage)
public actor InMemoryPlaylistLinkStore: PlaylistLinkStore {
    /// The clock links are stamped with.
    public nonisolated let clock: any SpotifyClock
    /// The most bytes of cover art kept.
    public let coverCacheLimit: Int
    private var epoch = ForgetEpoch(0)
    private var linksByRecord: [RecordID: PlaylistLink] = [:]
    private var metadataByID: [SpotifyID: PlaylistMetadata] = [:]
    private var covers: [SpotifyID: (bytes: Data, shownAt: Date)] = [:]
    private var savedLibrary: [LibraryPlaylist] = []

    /// An empty store on `clock`, keeping at most `coverCacheLimit` bytes of covers.
    public init(clock: any SpotifyClock, coverCacheLimit: Int = 20 * 1024 * 1024) {
        self.clock = clock
        self.coverCacheLimit = coverCacheLimit
    }

    public func forgetEpoch() -> ForgetEpoch { epoch }

    public func editPlaylist(
        _ id: SpotifyID, linking record: RecordID?, ifEpoch epoch: ForgetEpoch?,
        _ edit: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) throws -> Bool {
        if let epoch, epoch != self.epoch { return false }
        metadataByID[id] = try Self.edited(metadataByID[id], for: id, edit)
        if let record { linksByRecord[record] = PlaylistLink(record: record, playlist: id, linkedAt: clock.now) }
        return true
    }

    public func removeLink(for record: RecordID) -> PlaylistLink? { linksByRecord.removeValue(forKey: record) }
    public func link(for record: RecordID) -> PlaylistLink? { linksByRecord[record] }

    public func links() -> [PlaylistLink] {
        linksByRecord.values.sorted {
            ($0.linkedAt, $0.record.namespace, $0.record.id) < ($1.linkedAt, $1.record.namespace, $1.record.id)
        }
    }

    public func metadata(for id: SpotifyID) -> PlaylistMetadata? { metadataByID[id] }

    public func snapshot() -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        (links(), metadataByID.values.sorted { $0.id.rawValue < $1.id.rawValue })
    }

    public func card(for record: RecordID) -> PlaylistCard? {
        guard let link = linksByRecord[record], let metadata = metadataByID[link.playlist] else { return nil }
        return PlaylistCard(
            record: record, metadata: metadata, linkedAt: link.linkedAt,
            cover: metadata.shownCover(covers[link.playlist]?.bytes))
    }

    public func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date)
        -> PlaylistCard?
    {
        for (id, metadata) in metadataByID where metadata.isSaved(before: detailsSavedBefore) {
            metadataByID[id] = .expired(id, at: now)
            covers[id] = nil
        }
        covers = covers.filter { $0.value.shownAt >= coversShownBefore }
        guard let card = card(for: record) else { return nil }
        // The cover the card shows, noted at most once a day, as this package's stores note it.
        if card.cover != nil, let cover = covers[card.metadata.id], cover.shownAt < now.addingTimeInterval(-86_400) {
            covers[card.metadata.id] = (cover.bytes, now)
        }
        return card
    }

    public func saveCover(_ bytes: Data, for id: SpotifyID, ifEpoch epoch: ForgetEpoch?) -> Bool {
        if let epoch, epoch != self.epoch { return false }
        covers[id] = (bytes, clock.now)
        let byAge = covers.sorted { ($0.value.shownAt, $0.key.rawValue) < ($1.value.shownAt, $1.key.rawValue) }
        for evicted in CoverBudget.evictions(
            byAge.map { (id: $0.key, size: $0.value.bytes.count) }, limit: coverCacheLimit, keeping: id)
        {
            covers[evicted] = nil
        }
        return true
    }

    public func cover(for id: SpotifyID) -> Data? { covers[id]?.bytes }

    public func replaceLibrary(_ playlists: [LibraryPlaylist], ifEpoch epoch: ForgetEpoch?) -> Bool {
        if let epoch, epoch != self.epoch { return false }
        savedLibrary = playlists
        return true
    }

    public func library() -> [LibraryPlaylist] { savedLibrary }

    public func forgetSpotifyDetails() {
        epoch.value += 1
        covers = [:]
        savedLibrary = []
        let linked = Set(linksByRecord.values.map(\.playlist))
        metadataByID = Dictionary(uniqueKeysWithValues: linked.map { ($0, .forgotten($0)) })
    }

    public func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) -> RestoreReport {
        var report = RestoreReport()
        for playlist in metadata { metadataByID[playlist.id] = playlist }
        for link in links {
            let decision = RestoreReport.decision(
                existing: linksByRecord[link.record], restored: link, replacingNewer: replacingNewer)
            report.note(decision, link)
            guard decision == .add || decision == .replace else { continue }
            if metadataByID[link.playlist] == nil { metadataByID[link.playlist] = PlaylistMetadata(id: link.playlist) }
            linksByRecord[link.record] = link
        }
        return report
    }
}
