import Foundation
@_spi(Storage) import PlaylistLinks
import PostgresTestServer
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

extension TestPostgres {
    /// Why a suite that needs the server is skipped in a run without one.
    static let skipReason: Comment = "no PostgreSQL: run under scripts/with-postgres.sh"
}

/// A second ``PlaylistLinkStore``, in dictionaries behind an actor, as a server's own database
/// would sit behind the protocol: it shows that the protocol alone carries everything the layers
/// above need, and the suite below holds both stores to the same contract.
actor DictionaryLinkStore: PlaylistLinkStore {
    private let clock: any SpotifyClock
    private var linksByRecord: [RecordID: PlaylistLink] = [:]
    private var metadataByID: [SpotifyID: PlaylistMetadata] = [:]
    private var covers: [SpotifyID: Data] = [:]
    private var coverShownAt: [SpotifyID: Date] = [:]
    private var savedLibrary: [LibraryPlaylist] = []

    init(clock: any SpotifyClock) { self.clock = clock }

    func saveLink(_ record: RecordID, to metadata: PlaylistMetadata, replacingMetadata: Bool) throws {
        guard !record.namespace.isEmpty, !record.id.isEmpty else {
            throw PlaylistLinksError(code: .invalidArgument, message: "A record needs a namespace and an ID.")
        }
        if replacingMetadata || metadataByID[metadata.id] == nil {
            metadataByID[metadata.id] = metadata.stamped(clock.now)
        }
        linksByRecord[record] = PlaylistLink(record: record, playlist: metadata.id, linkedAt: clock.now)
    }

    func saveLink(
        _ record: RecordID, to id: SpotifyID,
        merging merge: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) throws {
        try Self.check(record)
        metadataByID[id] = try Self.merged(metadataByID[id], for: id, merge).stamped(clock.now)
        linksByRecord[record] = PlaylistLink(record: record, playlist: id, linkedAt: clock.now)
    }

    func removeLink(for record: RecordID) -> Bool { linksByRecord.removeValue(forKey: record) != nil }
    func link(for record: RecordID) -> PlaylistLink? { linksByRecord[record] }
    func links() -> [PlaylistLink] {
        linksByRecord.values.sorted { ($0.linkedAt, $0.record.description) < ($1.linkedAt, $1.record.description) }
    }
    func metadata(for id: SpotifyID) -> PlaylistMetadata? { metadataByID[id] }
    func snapshot() -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        (links(), metadataByID.values.sorted { $0.id.rawValue < $1.id.rawValue })
    }
    func saveMetadata(_ metadata: PlaylistMetadata) { metadataByID[metadata.id] = metadata.stamped(clock.now) }

    func card(for record: RecordID) -> PlaylistCard? {
        guard let link = linksByRecord[record], let metadata = metadataByID[link.playlist] else { return nil }
        return PlaylistCard(record: record, metadata: metadata, linkedAt: link.linkedAt, cover: covers[link.playlist])
    }

    func saveCover(_ bytes: Data, for id: SpotifyID) {
        covers[id] = bytes
        coverShownAt[id] = clock.now
    }

    func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date) -> PlaylistCard? {
        for (id, metadata) in metadataByID {
            guard let saved = metadata.savedAt ?? metadata.fetchedAt, saved < detailsSavedBefore else { continue }
            var dropped = PlaylistMetadata(id: id)
            dropped.droppedAt = now
            metadataByID[id] = dropped
        }
        for (id, shown) in coverShownAt where shown < coversShownBefore || metadataByID[id]?.droppedAt != nil {
            covers[id] = nil
            coverShownAt[id] = nil
        }
        guard let card = card(for: record) else { return nil }
        if covers[card.metadata.id] != nil { coverShownAt[card.metadata.id] = now }
        return card
    }

    func cover(for id: SpotifyID) -> Data? { covers[id] }
    func replaceLibrary(_ playlists: [LibraryPlaylist]) { savedLibrary = playlists }
    func library() -> [LibraryPlaylist] { savedLibrary }

    func forgetSpotifyDetails() {
        covers = [:]
        coverShownAt = [:]
        savedLibrary = []
        let linked = Set(linksByRecord.values.map(\.playlist))
        metadataByID = Dictionary(uniqueKeysWithValues: linked.map { ($0, PlaylistMetadata(id: $0)) })
    }

    func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) -> RestoreReport {
        var report = RestoreReport()
        for playlist in metadata { metadataByID[playlist.id] = playlist.stamped(clock.now) }
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

/// The stores the contract is checked on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteInMemory, sqliteFile, dictionary, postgres

    /// Every store this run can reach: PostgreSQL when `scripts/with-postgres.sh` gave one.
    static var available: [StoreKind] { allCases.filter { $0 != .postgres || TestPostgres.url != nil } }

    var testDescription: String { rawValue }

    func make(clock: VirtualClock) async throws -> any PlaylistLinkStore {
        switch self {
        case .sqliteInMemory: try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
        case .sqliteFile:
            try SQLitePlaylistLinkStore(
                location: .file(
                    FileManager.default.temporaryDirectory.appendingPathComponent(
                        "conformance-\(UUID().uuidString)/links.sqlite")),
                clock: clock)
        case .dictionary: DictionaryLinkStore(clock: clock)
        case .postgres: try await TestPostgres.linkStore(user: UUID().uuidString, clock: clock)
        }
    }
}

private let focus = SpotifyID(unchecked: "37i9dQZF1DXcBWIGoYBM5M")
private let deepWork = SpotifyID(unchecked: "4rOoJ6Egrf8K2IrywzwOMk")

extension PlaylistMetadata {
    func with(savedAt: Date?) -> PlaylistMetadata {
        var copy = self
        copy.savedAt = savedAt
        return copy
    }
}

private func described(_ id: SpotifyID, _ name: String) -> PlaylistMetadata {
    var metadata = PlaylistMetadata(id: id, availability: .available)
    metadata.name = name
    metadata.trackCount = 12
    metadata.totalDuration = .seconds(2400)
    metadata.snapshotID = "snap-\(name)"
    metadata.savedAt = VirtualClock().now  // as a store on a fresh virtual clock stamps it
    return metadata
}

@Suite("The PlaylistLinkStore contract, on every store")
struct StoreConformanceTests {
    /// Details not refreshed for the policy's 90 days are dropped when a card is read, offline
    /// and with no timer; the link stays, the card says when, and saving details again restores it.
    @Test(arguments: StoreKind.available)
    func detailsPastTheirLimitAreDroppedWhenTheCardIsRead(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let session = RecordID(namespace: "session", id: "1")
        // Covers kept a year: the cover goes here because its details do.
        let policy = RetentionPolicy(coverUnusedFor: .seconds(365 * 86_400))
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.linked.link(session, to: focus)
        try await store.saveCover(Data("cover".utf8), for: focus)
        clock.advance(by: .seconds(89 * 86_400))
        var card = try #require(try await store.linked.card(for: session, retention: policy, at: clock.now))
        #expect(card.metadata.name == "Focus" && card.metadata.droppedAt == nil && card.cover != nil)
        // Reading does not renew the details: only Spotify does.
        clock.advance(by: .seconds(2 * 86_400))
        card = try #require(try await store.linked.card(for: session, retention: policy, at: clock.now))
        #expect(card.metadata.name == nil && card.metadata.trackCount == nil && card.metadata.totalDuration == nil)
        #expect(card.metadata.droppedAt == clock.now)
        #expect(card.cover == nil)
        #expect(try await store.cover(for: focus) == nil)
        #expect(try await store.link(for: session)?.playlist == focus)
        // Details from Spotify again: kept, stamped now, no longer dropped.
        try await store.saveMetadata(described(focus, "Focus").with(savedAt: nil))
        card = try #require(try await store.linked.card(for: session, retention: policy, at: clock.now))
        #expect(card.metadata.name == "Focus" && card.metadata.droppedAt == nil && card.metadata.savedAt == clock.now)
    }

    /// A cover not shown for the policy's 30 days is deleted when any card is read; showing it
    /// keeps it, and the details stay.
    @Test(arguments: StoreKind.available)
    func aCoverNotShownFor30DaysIsDeleted(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let shown = RecordID(namespace: "session", id: "1")
        let other = RecordID(namespace: "session", id: "2")
        let policy = RetentionPolicy(detailsKeptFor: .seconds(365 * 86_400))
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.saveMetadata(described(deepWork, "Deep Work"))
        try await store.linked.link(shown, to: focus)
        try await store.linked.link(other, to: deepWork)
        try await store.saveCover(Data("focus".utf8), for: focus)
        try await store.saveCover(Data("deep".utf8), for: deepWork)
        for _ in 0..<3 {
            clock.advance(by: .seconds(20 * 86_400))
            #expect(
                try await store.linked.card(for: shown, retention: policy, at: clock.now)?.cover == Data("focus".utf8))
        }
        // Sixty days on, the card never shown lost its cover (to the read of the other card), not
        // its details.
        #expect(try await store.cover(for: deepWork) == nil)
        let card = try #require(try await store.linked.card(for: other, retention: policy, at: clock.now))
        #expect(card.cover == nil && card.metadata.name == "Deep Work")
    }

    /// A disconnect forgets what Spotify said (names, owners, counts, durations, covers, the
    /// picker's library) and keeps the app's links, each naming its playlist by ID.
    @Test(arguments: StoreKind.available)
    func forgettingKeepsTheLinksAndNothingSpotifySaid(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        let session = RecordID(namespace: "session", id: "1")
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.saveMetadata(described(deepWork, "Deep Work"))
        try await store.linked.link(session, to: focus)
        try await store.saveCover(Data("cover".utf8), for: focus)
        try await store.replaceLibrary([LibraryPlaylist(id: deepWork, name: "Deep Work", ownerName: "Ada")])
        try await store.forgetSpotifyDetails()
        #expect(try await store.link(for: session)?.playlist == focus)
        let card = try #require(try await store.card(for: session))
        #expect(card.metadata == PlaylistMetadata(id: focus))
        #expect(card.cover == nil)
        #expect(try await store.cover(for: focus) == nil)
        #expect(try await store.library().isEmpty)
        // A playlist no link names goes altogether.
        #expect(try await store.snapshot().metadata == [PlaylistMetadata(id: focus)])
        // Relinking from the picker saves what it says again.
        try await store.linked.link(session, to: LibraryPlaylist(id: deepWork, name: "Deep Work", ownerName: "Ada"))
        #expect(try await store.card(for: session)?.metadata.name == "Deep Work")
    }

    /// A refresh saves a playlist's duration while the picker links a record to the same playlist
    /// at its newer snapshot: whenever the save lands, the duration survives. With the link's read
    /// and write in two transactions, a save landing between them was overwritten by the link's
    /// merge of the older version (which cleared the duration).
    @Test(arguments: StoreKind.available)
    func aRefreshLandingDuringALinkIsNotLost(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        var older = described(focus, "Focus")
        older.snapshotID = "snap-A"
        older.totalDuration = nil
        try await store.saveMetadata(older)
        var refreshed = described(focus, "Focus")
        refreshed.snapshotID = "snap-B"
        refreshed.totalDuration = .seconds(2400)
        let interleaving = InterleavingStore(base: store, landing: refreshed)
        let session = RecordID(namespace: "session", id: "1")
        try await interleaving.linked.link(
            session,
            to: LibraryPlaylist(id: focus, name: "Focus", ownerName: "Ada", trackCount: 12, snapshotID: "snap-B"))
        try await interleaving.landed()
        let card = try #require(try await store.card(for: session))
        #expect(card.metadata.snapshotID == "snap-B")
        #expect(card.metadata.totalDuration == .seconds(2400), "the refresh's duration was overwritten by the link")
        #expect(try await store.link(for: session)?.playlist == focus)
    }

    /// A merge that names another playlist is refused by every store, and nothing is saved.
    @Test(arguments: StoreKind.available)
    func aMergeOfAnotherPlaylistIsRefused(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        let session = RecordID(namespace: "session", id: "1")
        let error = await #expect(throws: PlaylistLinksError.self) {
            try await store.saveLink(session, to: focus) { _ in PlaylistMetadata(id: deepWork) }
        }
        #expect(error?.code == .invalidArgument)
        #expect(try await store.link(for: session) == nil)
        #expect(try await store.metadata(for: deepWork) == nil)
    }

    @Test(arguments: StoreKind.available)
    func aRecordHasOneLinkAndRelinkingReplacesIt(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let record = RecordID(namespace: "session", id: "1")
        try await store.linked.link(record, to: focus)
        clock.advance(by: .seconds(60))
        try await store.linked.link(record, to: deepWork)
        let link = try #require(try await store.link(for: record))
        #expect(link.playlist == deepWork)
        #expect(link.linkedAt == clock.now)
        #expect(try await store.links().count == 1)
        // The first playlist's entry stays for the picker and other records.
        #expect(try await store.metadata(for: focus) != nil)
    }

    @Test(arguments: StoreKind.available)
    func linkingByIDKeepsWhatIsCachedAndLinkingFromThePickerReplacesIt(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.linked.link(RecordID(namespace: "session", id: "1"), to: focus)
        #expect(try await store.metadata(for: focus) == described(focus, "Focus"))
        try await store.saveLink(
            RecordID(namespace: "session", id: "2"), to: PlaylistMetadata(id: focus), replacingMetadata: true)
        #expect(try await store.metadata(for: focus) == PlaylistMetadata(id: focus))
    }

    @Test(arguments: StoreKind.available)
    func aRecordWithoutANamespaceOrAnIDIsRefusedWhicheverWayItIsLinked(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        for record in [RecordID(namespace: "", id: "1"), RecordID(namespace: "session", id: "")] {
            let viaLink = try await #require(throws: PlaylistLinksError.self) {
                try await store.linked.link(record, to: focus)
            }
            #expect(viaLink.code == .invalidArgument)
            let viaSave = try await #require(throws: PlaylistLinksError.self) {
                try await store.saveLink(record, to: PlaylistMetadata(id: focus), replacingMetadata: true)
            }
            #expect(viaSave.code == .invalidArgument)
        }
        #expect(try await store.links().isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func unlinkingSaysWhetherThereWasALinkAndKeepsTheMetadata(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        let record = RecordID(namespace: "routine", id: "morning")
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.linked.link(record, to: focus)
        #expect(try await store.removeLink(for: record))
        #expect(try await !store.removeLink(for: record))
        #expect(try await store.link(for: record)?.playlist == nil)
        #expect(try await store.card(for: record) == nil)
        #expect(try await store.metadata(for: focus)?.name == "Focus")
    }

    @Test(arguments: StoreKind.available)
    func linksComeOldestFirst(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        for id in ["3", "1", "2"] {
            try await store.linked.link(RecordID(namespace: "session", id: id), to: focus)
            clock.advance(by: .seconds(1))
        }
        #expect(try await store.links().map(\.record.id) == ["3", "1", "2"])
    }

    @Test(arguments: StoreKind.available)
    func aCardJoinsTheLinkTheMetadataAndTheCover(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let record = RecordID(namespace: "session", id: "7")
        try await store.linked.link(record, to: focus)
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.saveCover(Data([0x89, 0x50, 0x4E, 0x47]), for: focus)
        let card = try #require(try await store.card(for: record))
        #expect(
            card
                == PlaylistCard(
                    record: record, metadata: described(focus, "Focus"), linkedAt: clock.now,
                    cover: Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(card.uri == "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M")
    }

    @Test(arguments: StoreKind.available)
    func theLibraryKeepsItsOrderAndFiltersTheSameOnEveryStore(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        let names = ["Nocafé", "Le Cafe", "Café Bar", "Bar None"]
        let library = names.enumerated().map { index, name in
            LibraryPlaylist(
                id: SpotifyID(unchecked: String(repeating: "A", count: 21) + "\(index)"), name: name, ownerName: "me",
                access: index < 3 ? PlaylistAccess.allCases[index] : nil)
        }
        try await store.replaceLibrary(library)
        #expect(try await store.library() == library)
        #expect(try await store.linked.filterLibrary("caf").map(\.name) == ["Café Bar", "Le Cafe", "Nocafé"])
        try await store.replaceLibrary(Array(library.prefix(1)))
        #expect(try await store.library().map(\.name) == ["Nocafé"])
    }

    /// A move between stores: what one exports, any other imports, links and metadata alike.
    @Test(arguments: StoreKind.available, StoreKind.available)
    func anExportOfOneStoreRestoresIntoAnother(_ from: StoreKind, _ to: StoreKind) async throws {
        let clock = VirtualClock()
        let source = try await from.make(clock: clock)
        try await source.saveMetadata(described(focus, "Focus"))
        try await source.linked.link(RecordID(namespace: "session", id: "1"), to: focus)
        clock.advance(by: .seconds(5))
        try await source.linked.link(RecordID(namespace: "routine", id: "evening"), to: deepWork)
        let target = try await to.make(clock: VirtualClock())
        try await target.linked.link(RecordID(namespace: "session", id: "1"), to: deepWork)
        try await target.linked.link(RecordID(namespace: "session", id: "9"), to: deepWork)

        let report = try await target.linked.importJSON(try await source.linked.exportJSON())
        #expect(report.replaced.map(\.record) == [RecordID(namespace: "session", id: "1")])
        #expect(report.added.map(\.record) == [RecordID(namespace: "routine", id: "evening")])
        #expect(report.kept.isEmpty && report.unchanged.isEmpty)
        #expect(try await target.links().filter { $0.record.id != "9" } == source.links())
        #expect(try await target.link(for: RecordID(namespace: "session", id: "9"))?.playlist == deepWork)
        #expect(try await target.metadata(for: focus) == described(focus, "Focus"))
        #expect(try await target.metadata(for: deepWork) != nil)
    }

    /// An import never silently turns a record back to an older playlist: a link made here after the
    /// export stays unless the restore is asked to replace it, and the report says which.
    @Test(arguments: StoreKind.available)
    func anImportKeepsANewerLinkUnlessAskedToReplaceIt(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let session = RecordID(namespace: "session", id: "1")
        try await store.linked.link(session, to: focus)
        let exported = try #require(try await store.link(for: session))
        let export = try await store.linked.exportJSON()
        clock.advance(by: .seconds(60))
        try await store.linked.link(session, to: deepWork)

        let kept = try await store.linked.importJSON(export)
        #expect(kept.kept == [exported] && kept.replaced.isEmpty && kept.added.isEmpty)
        #expect(try await store.link(for: session)?.playlist == deepWork)

        let replaced = try await store.linked.importJSON(export, replacingNewer: true)
        #expect(replaced.replaced == [exported] && replaced.kept.isEmpty)
        #expect(try await store.link(for: session) == exported)

        let again = try await store.linked.importJSON(export)
        #expect(again.unchanged == [exported] && again.kept.isEmpty && again.replaced.isEmpty)
    }

    @Test(arguments: StoreKind.available)
    func aBadImportChangesNothing(_ kind: StoreKind) async throws {
        let store = try await kind.make(clock: VirtualClock())
        try await store.linked.link(RecordID(namespace: "session", id: "1"), to: focus)
        let before = try await store.linked.exportJSON()
        let badID =
            #"{"format":"spotifylink-links","version":1,"playlists":[],"links":[{"record":{"namespace":"s","id":"2"},"playlist":"../../x","linkedAt":"2026-01-01T00:00:00Z"}]}"#
        for data in [
            Data("{}".utf8), Data(badID.utf8),
            Data(#"{"format":"spotifylink-links","version":2,"links":[],"playlists":[]}"#.utf8),
        ] {
            await #expect(throws: PlaylistLinksError.self) { try await store.linked.importJSON(data) }
        }
        #expect(try await store.linked.exportJSON() == before)
    }
}

/// A store whose other writer (a refresh, a widget's process) saves `landing` at the worst moment
/// of a link: right after the link reads what is cached of the playlist. A link that reads and
/// writes in two steps meets the save between them; a store's merging `saveLink` meets it inside
/// its transaction, where the save waits for the link's end.
final class InterleavingStore: PlaylistLinkStore {
    let base: any PlaylistLinkStore
    let landing: PlaylistMetadata
    private let save = Lock<Task<Void, any Error>?>(nil)

    init(base: any PlaylistLinkStore, landing: PlaylistMetadata) {
        self.base = base
        self.landing = landing
    }

    /// Waits until the other writer's save has landed, with its error.
    func landed() async throws {
        let task = try #require(save.withLock { $0 }, "the other writer never saved")
        try await task.value
    }

    func metadata(for id: SpotifyID) async throws -> PlaylistMetadata? {
        let cached = try await base.metadata(for: id)
        let task = Task { [base, landing] in try await base.saveMetadata(landing) }
        save.withLock { $0 = task }
        try await task.value
        return cached
    }

    func saveLink(
        _ record: RecordID, to id: SpotifyID,
        merging merge: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws {
        try await base.saveLink(record, to: id) { [self] cached in
            // Started, not awaited: inside the transaction the save must wait for its end.
            save.withLock { $0 = Task { [base, landing] in try await base.saveMetadata(landing) } }
            return merge(cached)
        }
    }

    func saveLink(_ record: RecordID, to metadata: PlaylistMetadata, replacingMetadata: Bool) async throws {
        try await base.saveLink(record, to: metadata, replacingMetadata: replacingMetadata)
    }
    func removeLink(for record: RecordID) async throws -> Bool { try await base.removeLink(for: record) }
    func link(for record: RecordID) async throws -> PlaylistLink? { try await base.link(for: record) }
    func links() async throws -> [PlaylistLink] { try await base.links() }
    func snapshot() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        try await base.snapshot()
    }
    func saveMetadata(_ metadata: PlaylistMetadata) async throws { try await base.saveMetadata(metadata) }
    func card(for record: RecordID) async throws -> PlaylistCard? { try await base.card(for: record) }
    func saveCover(_ bytes: Data, for id: SpotifyID) async throws { try await base.saveCover(bytes, for: id) }
    func cover(for id: SpotifyID) async throws -> Data? { try await base.cover(for: id) }
    func replaceLibrary(_ playlists: [LibraryPlaylist]) async throws { try await base.replaceLibrary(playlists) }
    func library() async throws -> [LibraryPlaylist] { try await base.library() }
    func forgetSpotifyDetails() async throws { try await base.forgetSpotifyDetails() }
    func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date) async throws
        -> PlaylistCard?
    {
        try await base.card(
            for: record, detailsSavedBefore: detailsSavedBefore, coversShownBefore: coversShownBefore, at: now)
    }
    func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) async throws
        -> RestoreReport
    {
        try await base.restore(links: links, metadata: metadata, replacingNewer: replacingNewer)
    }
}
