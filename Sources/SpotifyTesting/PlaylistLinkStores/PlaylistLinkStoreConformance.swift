import Foundation
@_spi(Storage) public import PlaylistLinks
import SpotifyLinkSupport
import SpotifyWebAPI
import Synchronization
public import Testing
public import VirtualTime

/// The specification of a `PlaylistLinkStore`, as checks a backend runs on itself: every store of
/// this package runs them (SQLite in memory and on a file, PostgreSQL, ``InMemoryPlaylistLinkStore``),
/// and a backend of your own does the same in one test:
///
/// ```swift
/// @Test(arguments: PlaylistLinkStoreConformance.checks)
/// func myStoreKeepsTheContract(_ check: PlaylistLinkStoreConformance.Check) async throws {
///     try await check.run { clock in try await MyStore.empty(clock: clock) }
/// }
/// ```
///
/// Each check makes the stores it needs with the factory it is given (each empty, on the virtual
/// clock it is handed, with a small cover budget: one check fills it) and reaches them through
/// `LinkedPlaylists`, as apps and the refresher do.
/// A check records what it finds with Swift Testing's `#expect`, so it runs inside a test.
@_spi(Storage)
public enum PlaylistLinkStoreConformance {
    /// Makes an empty store whose clock is the one given.
    public typealias MakeStore = @Sendable (VirtualClock) async throws -> any PlaylistLinkStore

    /// One rule of the contract, checked on the stores a factory makes.
    public struct Check: Sendable, CustomStringConvertible, CustomTestStringConvertible {
        /// What the check holds a store to, in a few words.
        public let description: String
        let body: @Sendable (MakeStore) async throws -> Void

        /// Runs the check on stores `make` makes.
        public func run(_ make: @escaping MakeStore) async throws { try await body(make) }

        /// The check's name in a test's report.
        public var testDescription: String { description }
    }

    /// Every check of the contract.
    public static let checks: [Check] = [
        Check(
            description: "details past their limit are dropped when a card is read", body: dropsDetailsPastTheirLimit),
        Check(description: "a cover not shown for 30 days is deleted", body: deletesCoversNotShown),
        Check(description: "a forget keeps the links and nothing Spotify said", body: forgetKeepsOnlyTheLinks),
        Check(
            description: "a write that read the epoch before a forget is refused", body: refusesWritesOfAnEarlierEpoch),
        Check(description: "a forget waits for an edit under way, and clears it", body: forgetsAnEditUnderWay),
        Check(description: "a save landing during a link is not lost", body: keepsASaveLandingDuringALink),
        Check(description: "an edit of another playlist is refused", body: refusesAnEditOfAnotherPlaylist),
        Check(description: "a record has one link; relinking replaces it", body: replacesARecordsLink),
        Check(description: "linking by ID keeps what is saved", body: linkingByIDKeepsWhatIsSaved),
        Check(description: "a record without a namespace or an ID is refused", body: refusesRecordsWithoutAnID),
        Check(description: "unlinking says whether there was a link", body: unlinksAndKeepsTheMetadata),
        Check(description: "links come oldest first", body: listsLinksOldestFirst),
        Check(description: "a card joins the link, the metadata and the cover", body: joinsACard),
        Check(description: "covers stay within the budget, never the one just saved", body: keepsCoversWithinBudget),
        Check(description: "the library keeps its order and filters alike", body: keepsTheLibrarysOrder),
        Check(description: "an export restores into another store", body: restoresAnExport),
        Check(description: "an import keeps a newer link unless asked", body: keepsNewerLinksOnImport),
        Check(description: "a bad import changes nothing", body: refusesABadImport),
        Check(description: "an absurd duration is saved without a crash", body: savesAnAbsurdDuration),
        Check(description: "a cover shows only beside its details", body: showsACoverOnlyBesideDetails),
        Check(description: "an undone delete brings its link back", body: undoesARemoval),
        Check(description: "an earlier version's fields migrate once", body: migratesLegacyFields),
    ]

    // MARK: - The checks

    static let focus = SpotifyID(unchecked: "37i9dQZF1DXcBWIGoYBM5M")
    static let deepWork = SpotifyID(unchecked: "4rOoJ6Egrf8K2IrywzwOMk")
    static let session = RecordID(namespace: "session", id: "1")

    /// Details of playlist `id` named `name`, as Spotify would say them, saved on a fresh virtual
    /// clock's present.
    static func described(_ id: SpotifyID, _ name: String, savedAt: Date? = VirtualClock().now) -> PlaylistMetadata {
        var metadata = PlaylistMetadata(id: id, availability: .available)
        metadata.name = name
        metadata.trackCount = 12
        metadata.totalDuration = .seconds(2400)
        metadata.explicitCount = 3
        metadata.snapshotID = "snap-\(name)"
        metadata.savedAt = savedAt
        return metadata
    }

    /// Details not refreshed for the policy's 90 days are dropped when a card is read, offline
    /// and with no timer; the link stays, the card says when, and saving details again restores it.
    static func dropsDetailsPastTheirLimit(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
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
        #expect(card.metadata == .expired(focus, at: clock.now), "what a drop leaves is the rule's")
        #expect(card.cover == nil)
        #expect(try await store.cover(for: focus) == nil)
        #expect(try await store.link(for: session)?.playlist == focus)
        // Details from Spotify again: kept, stamped now, no longer dropped.
        try await store.saveMetadata(described(focus, "Focus", savedAt: nil))
        card = try #require(try await store.linked.card(for: session, retention: policy, at: clock.now))
        #expect(card.metadata.name == "Focus" && card.metadata.droppedAt == nil && card.metadata.savedAt == clock.now)
        // Details never taken from Spotify have no age, and stay.
        let never = RecordID(namespace: "session", id: "never")
        try await store.linked.link(never, to: deepWork)
        clock.advance(by: .seconds(400 * 86_400))
        card = try #require(try await store.linked.card(for: never, retention: policy, at: clock.now))
        #expect(card.metadata == PlaylistMetadata(id: deepWork))
    }

    /// A cover not shown for the policy's 30 days is deleted when any card is read; showing it
    /// keeps it, and the details stay.
    static func deletesCoversNotShown(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
        let other = RecordID(namespace: "session", id: "2")
        let policy = RetentionPolicy(detailsKeptFor: .seconds(365 * 86_400))
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.saveMetadata(described(deepWork, "Deep Work"))
        try await store.linked.link(session, to: focus)
        try await store.linked.link(other, to: deepWork)
        try await store.saveCover(Data("focus".utf8), for: focus)
        try await store.saveCover(Data("deep".utf8), for: deepWork)
        for _ in 0..<3 {
            clock.advance(by: .seconds(20 * 86_400))
            #expect(
                try await store.linked.card(for: session, retention: policy, at: clock.now)?.cover
                    == Data("focus".utf8))
        }
        // Sixty days on, the card never shown lost its cover (to the read of the other card), not
        // its details.
        #expect(try await store.cover(for: deepWork) == nil)
        let card = try #require(try await store.linked.card(for: other, retention: policy, at: clock.now))
        #expect(card.cover == nil && card.metadata.name == "Deep Work")
    }

    /// A card of a playlist known by its ID alone shows no cover, though one is saved, and does
    /// not count it as shown: 30 days on it is deleted. Details make the same bytes shown.
    /// A record deleted in the app and the delete undone: its link comes back as it was, with
    /// its card; a link the record was given since wins over the undo.
    static func undoesARemoval(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
        try await store.saveMetadata(described(deepWork, "Deep Work"))
        try await store.linked.link(session, to: deepWork)
        let linked = try #require(try await store.linked.link(for: session))
        clock.advance(by: .seconds(60))
        let removed = try #require(try await store.linked.removeLinkForUndo(for: session))
        #expect(removed == linked)
        #expect(try await store.linked.card(for: session) == nil)
        #expect(try await store.linked.removeLinkForUndo(for: session) == nil, "nothing left to remove")
        try await store.linked.undoRemoval(removed)
        #expect(try await store.linked.link(for: session) == linked, "the same playlist, linked at the same time")
        #expect(try await store.linked.card(for: session)?.metadata.name == "Deep Work")
        // Linked again after the delete: the later choice stays.
        let again = try #require(try await store.linked.removeLinkForUndo(for: session))
        clock.advance(by: .seconds(60))
        try await store.linked.link(session, to: focus)
        try await store.linked.undoRemoval(again)
        #expect(try await store.linked.link(for: session)?.playlist == focus)
    }

    /// The routine app's SchemaV6 fields (ID, name, image URL) become a link with those details,
    /// once: a second run, or a record linked already, changes nothing; a bad ID is refused.
    static func migratesLegacyFields(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        let routine = RecordID(namespace: "routine", id: "7E0C5B1A-2B7D-4C55-9D0E-6A1F3C2B9A10")
        let cover = "https://i.scdn.co/image/ab67706c0000da84deep"
        #expect(
            try await store.linked.migrateLegacyLink(
                routine, playlistID: "spotify:playlist:\(deepWork.rawValue)", name: " Deep Work ", imageURL: cover))
        let card = try #require(try await store.linked.card(for: routine))
        #expect(card.metadata.id == deepWork && card.metadata.name == "Deep Work")
        #expect(card.metadata.coverURL?.absoluteString == cover)
        #expect(card.metadata.savedAt != nil, "temporary from now, under the retention policy")
        #expect(
            try await !store.linked.migrateLegacyLink(routine, playlistID: focus.rawValue, name: "Focus", imageURL: nil)
        )
        #expect(try await store.linked.link(for: routine)?.playlist == deepWork)
        let other = RecordID(namespace: "routine", id: "other")
        await #expect(throws: PlaylistLinksError.self) {
            try await store.linked.migrateLegacyLink(other, playlistID: "not a playlist", name: "X", imageURL: nil)
        }
        #expect(try await store.linked.link(for: other) == nil)
        // An image URL that is not https is not kept.
        let third = RecordID(namespace: "routine", id: "third")
        try await store.linked.migrateLegacyLink(
            third, playlistID: "https://open.spotify.com/playlist/\(focus.rawValue)", name: nil,
            imageURL: "javascript:alert(1)")
        #expect(try await store.linked.card(for: third)?.metadata.coverURL == nil)
    }

    static func showsACoverOnlyBesideDetails(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
        try await store.linked.link(session, to: deepWork)
        try await store.saveCover(Data("deep".utf8), for: deepWork)
        clock.advance(by: .seconds(2 * 86_400))
        let card = try await store.linked.card(for: session, retention: .default, at: clock.now)
        #expect(card?.cover == nil, "no detail is saved: the card shows no cover")
        #expect(try await store.linked.card(for: session)?.cover == nil)
        clock.advance(by: .seconds(29 * 86_400))
        _ = try await store.linked.card(for: session, retention: .default, at: clock.now)
        #expect(try await store.cover(for: deepWork) == nil, "a cover no card showed for 31 days is deleted")
        try await store.saveCover(Data("deep".utf8), for: deepWork)
        try await store.saveMetadata(described(deepWork, "Deep Work", savedAt: nil))
        #expect(try await store.linked.card(for: session)?.cover == Data("deep".utf8))
    }

    /// A disconnect forgets what Spotify said (names, owners, counts, durations, covers, the
    /// picker's library) and keeps the app's links, each naming its playlist by ID.
    static func forgetKeepsOnlyTheLinks(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.saveMetadata(described(deepWork, "Deep Work"))
        try await store.linked.link(session, to: focus)
        try await store.saveCover(Data("cover".utf8), for: focus)
        try await store.replaceLibrary([LibraryPlaylist(id: deepWork, name: "Deep Work", ownerName: "Ada")])
        let before = try await store.forgetEpoch()
        try await store.linked.forgetSpotifyDetails()
        #expect(try await store.forgetEpoch() > before, "a forget increases the epoch")
        #expect(try await store.link(for: session)?.playlist == focus)
        let card = try #require(try await store.card(for: session))
        #expect(card.metadata == .forgotten(focus), "what a forget leaves is the rule's")
        #expect(card.cover == nil)
        #expect(try await store.cover(for: focus) == nil)
        #expect(try await store.library().isEmpty)
        // A playlist no link names goes altogether.
        #expect(try await store.snapshot().metadata == [.forgotten(focus)])
        // Relinking from the picker saves what it says again.
        try await store.linked.link(session, to: LibraryPlaylist(id: deepWork, name: "Deep Work", ownerName: "Ada"))
        #expect(try await store.card(for: session)?.metadata.name == "Deep Work")
    }

    /// An edit, a cover and a library that carry what was read before a forget (a refresh whose
    /// answer arrives after a disconnect) are refused, and write nothing; the same writes naming
    /// the epoch after the forget, or none, go through.
    static func refusesWritesOfAnEarlierEpoch(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        try await store.linked.link(session, to: focus)
        let epoch = try await store.forgetEpoch()
        #expect(try await store.forgetEpoch() == epoch, "reading the epoch does not change it")
        #expect(try await store.linked.edit(focus, ifEpoch: epoch) { _ in described(focus, "Focus") })
        try await store.linked.forgetSpotifyDetails()
        let late = try await store.linked.edit(focus, ifEpoch: epoch) { _ in described(focus, "Focus") }
        #expect(!late, "an edit of the epoch before the forget was applied")
        #expect(try await store.metadata(for: focus) == .forgotten(focus))
        #expect(try await !store.saveCover(Data("cover".utf8), for: focus, ifEpoch: epoch))
        #expect(try await store.cover(for: focus) == nil)
        #expect(try await !store.replaceLibrary([LibraryPlaylist(id: focus, name: "Focus")], ifEpoch: epoch))
        #expect(try await store.library().isEmpty)
        let now = try await store.forgetEpoch()
        #expect(try await store.linked.edit(focus, ifEpoch: now) { _ in described(focus, "Focus") })
        #expect(try await store.saveCover(Data("cover".utf8), for: focus, ifEpoch: now))
        #expect(try await store.card(for: session)?.metadata.name == "Focus")
    }

    /// A forget that starts while a guarded edit is inside its transaction ends after it, and
    /// clears what it wrote: the store never keeps details written beside a forget.
    static func forgetsAnEditUnderWay(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        try await store.linked.link(session, to: focus)
        let epoch = try await store.forgetEpoch()
        let forget = Lock<Task<Void, any Error>?>(nil)
        let applied = try await store.linked.edit(focus, ifEpoch: epoch) { saved in
            // Started, not awaited: inside the edit's transaction the forget must wait for its end.
            forget.withLock { $0 = Task { try await store.forgetSpotifyDetails() } }
            return described(focus, "Focus")
        }
        let task = try #require(forget.withLock { $0 }, "the edit never ran")
        try await task.value
        #expect(applied)
        #expect(try await store.metadata(for: focus) == .forgotten(focus), "the forget left the edit's details")
    }

    /// A refresh saves a playlist's duration while the picker links a record to the same playlist
    /// at its newer snapshot: whenever the save lands, the duration survives. With the link's read
    /// and write in two transactions, a save landing between them was overwritten by the link's
    /// merge of the older version (which cleared the duration).
    static func keepsASaveLandingDuringALink(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        var older = described(focus, "Focus")
        older.snapshotID = "snap-A"
        older.totalDuration = nil
        try await store.saveMetadata(older)
        var refreshed = described(focus, "Focus")
        refreshed.snapshotID = "snap-B"
        refreshed.totalDuration = .seconds(2400)
        let landing = refreshed
        let save = Lock<Task<Void, any Error>?>(nil)
        try await store.editPlaylist(focus, linking: session, ifEpoch: nil) { saved in
            // Started, not awaited: inside the transaction the save must wait for its end.
            save.withLock { $0 = Task { try await store.saveMetadata(landing) } }
            return .linking(
                LibraryPlaylist(id: focus, name: "Focus", ownerName: "Ada", trackCount: 12, snapshotID: "snap-B"),
                over: saved)
        }
        let task = try #require(save.withLock { $0 }, "the other writer never saved")
        try await task.value
        let card = try #require(try await store.card(for: session))
        #expect(card.metadata.snapshotID == "snap-B")
        #expect(card.metadata.totalDuration == .seconds(2400), "the refresh's duration was overwritten by the link")
        #expect(try await store.link(for: session)?.playlist == focus)
    }

    /// An edit that names another playlist is refused by every store, and nothing is saved.
    static func refusesAnEditOfAnotherPlaylist(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        let error = await #expect(throws: PlaylistLinksError.self) {
            try await store.editPlaylist(focus, linking: session, ifEpoch: nil) { _ in PlaylistMetadata(id: deepWork) }
        }
        #expect(error?.code == .invalidArgument)
        #expect(try await store.link(for: session) == nil)
        #expect(try await store.metadata(for: deepWork) == nil)
        #expect(try await store.metadata(for: focus) == nil)
    }

    static func replacesARecordsLink(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
        try await store.linked.link(session, to: focus)
        clock.advance(by: .seconds(60))
        try await store.linked.link(session, to: deepWork)
        let link = try #require(try await store.link(for: session))
        #expect(link.playlist == deepWork)
        #expect(link.linkedAt == clock.now)
        #expect(try await store.links().count == 1)
        // The first playlist's entry stays for the picker and other records.
        #expect(try await store.metadata(for: focus) != nil)
    }

    static func linkingByIDKeepsWhatIsSaved(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.linked.link(session, to: focus)
        #expect(try await store.metadata(for: focus) == described(focus, "Focus"))
        try await store.saveLink(RecordID(namespace: "session", id: "2"), to: PlaylistMetadata(id: focus))
        #expect(try await store.metadata(for: focus) == PlaylistMetadata(id: focus))
    }

    static func refusesRecordsWithoutAnID(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        for record in [RecordID(namespace: "", id: "1"), RecordID(namespace: "session", id: "")] {
            let viaLink = try await #require(throws: PlaylistLinksError.self) {
                try await store.linked.link(record, to: focus)
            }
            #expect(viaLink.code == .invalidArgument)
            let viaPicker = try await #require(throws: PlaylistLinksError.self) {
                try await store.linked.link(record, to: LibraryPlaylist(id: focus, name: "Focus"))
            }
            #expect(viaPicker.code == .invalidArgument)
        }
        #expect(try await store.links().isEmpty)
    }

    static func unlinksAndKeepsTheMetadata(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        let record = RecordID(namespace: "routine", id: "morning")
        try await store.saveMetadata(described(focus, "Focus"))
        try await store.linked.link(record, to: focus)
        #expect(try await store.linked.removeLink(for: record))
        #expect(try await !store.linked.removeLink(for: record))
        #expect(try await store.link(for: record)?.playlist == nil)
        #expect(try await store.card(for: record) == nil)
        #expect(try await store.metadata(for: focus)?.name == "Focus")
    }

    static func listsLinksOldestFirst(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
        for id in ["3", "1", "2"] {
            try await store.linked.link(RecordID(namespace: "session", id: id), to: focus)
            clock.advance(by: .seconds(1))
        }
        #expect(try await store.links().map(\.record.id) == ["3", "1", "2"])
    }

    static func joinsACard(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
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

    /// Three covers of 10 bytes in a store of 25: the one shown longest ago goes, never the one
    /// just saved, though it is the largest.
    static func keepsCoversWithinBudget(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
        let third = SpotifyID(unchecked: "1A2B3C4D5E6F7G8H9I0J1K")
        for id in [focus, deepWork, third] { try await store.saveMetadata(described(id, id.rawValue)) }
        let limit = store.coverCacheLimit
        try #require(limit <= 1 << 20, "make the store with a small cover budget: this check writes it twice over")
        let size = limit * 2 / 5
        try await store.saveCover(Data(repeating: 1, count: size), for: focus)
        clock.advance(by: .seconds(1))
        try await store.saveCover(Data(repeating: 2, count: size), for: deepWork)
        clock.advance(by: .seconds(1))
        try await store.saveCover(Data(repeating: 3, count: limit - size), for: third)
        #expect(try await store.cover(for: focus) == nil, "the oldest cover stayed past the budget")
        #expect(try await store.cover(for: deepWork) != nil)
        #expect(try await store.cover(for: third) != nil)
        try await store.saveCover(Data(repeating: 4, count: limit + 1), for: focus)
        #expect(try await store.cover(for: focus)?.count == limit + 1, "the cover just saved was evicted")
        #expect(try await store.cover(for: deepWork) == nil)
        #expect(try await store.cover(for: third) == nil)
    }

    static func keepsTheLibrarysOrder(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
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

    /// A move between two stores of the kind: what one exports, the other imports, links and
    /// metadata alike.
    static func restoresAnExport(_ make: MakeStore) async throws {
        try await restoresAnExport(from: make, to: make)
    }

    /// What a store `from` makes exports, a store `to` makes imports, links and metadata alike.
    public static func restoresAnExport(from: MakeStore, to: MakeStore) async throws {
        let clock = VirtualClock()
        let source = try await from(clock)
        try await source.saveMetadata(described(focus, "Focus"))
        try await source.linked.link(session, to: focus)
        clock.advance(by: .seconds(5))
        try await source.linked.link(RecordID(namespace: "routine", id: "evening"), to: deepWork)
        let target = try await to(VirtualClock())
        try await target.linked.link(session, to: deepWork)
        try await target.linked.link(RecordID(namespace: "session", id: "9"), to: deepWork)

        let report = try await target.linked.importJSON(try await source.linked.exportJSON())
        #expect(report.replaced.map(\.record) == [session])
        #expect(report.added.map(\.record) == [RecordID(namespace: "routine", id: "evening")])
        #expect(report.kept.isEmpty && report.unchanged.isEmpty)
        #expect(try await target.links().filter { $0.record.id != "9" } == source.links())
        #expect(try await target.link(for: RecordID(namespace: "session", id: "9"))?.playlist == deepWork)
        #expect(try await target.metadata(for: focus) == described(focus, "Focus"))
        #expect(try await target.metadata(for: deepWork) != nil)
    }

    /// An import never silently turns a record back to an older playlist: a link made here after the
    /// export stays unless the restore is asked to replace it, and the report says which.
    static func keepsNewerLinksOnImport(_ make: MakeStore) async throws {
        let clock = VirtualClock()
        let store = try await make(clock)
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

    static func refusesABadImport(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        try await store.linked.link(session, to: focus)
        let before = try await store.linked.exportJSON()
        let badID =
            #"{"format":"spotifylink-links","version":1,"playlists":[],"links":[{"record":{"namespace":"s","id":"2"},"playlist":"../../x","linkedAt":"2026-01-01T00:00:00Z"}]}"#
        let noRecord =
            #"{"format":"spotifylink-links","version":1,"playlists":[],"links":[{"record":{"namespace":"","id":"2"},"playlist":"37i9dQZF1DXcBWIGoYBM5M","linkedAt":"2026-01-01T00:00:00Z"}]}"#
        for data in [
            Data("{}".utf8), Data(badID.utf8), Data(noRecord.utf8),
            Data(#"{"format":"spotifylink-links","version":2,"links":[],"playlists":[]}"#.utf8),
        ] {
            let error = await #expect(throws: PlaylistLinksError.self) { try await store.linked.importJSON(data) }
            #expect(error?.code == .invalidImport)
        }
        #expect(try await store.linked.exportJSON() == before)
    }

    /// A duration no playlist has (a song of `Int.max` milliseconds, from Spotify or a backup, or a
    /// sum past it) is saved as the largest the store keeps, and read back, never a crash.
    static func savesAnAbsurdDuration(_ make: MakeStore) async throws {
        let store = try await make(VirtualClock())
        var absurd = described(focus, "Focus")
        absurd.totalDuration = .milliseconds(Int64.max) * 4
        try await store.saveLink(session, to: absurd)
        let saved = try #require(try await store.metadata(for: focus)?.totalDuration)
        #expect(saved >= .milliseconds(Int64.max), "the duration was cut short: \(saved)")
        #expect(try await store.card(for: session)?.metadata.name == "Focus")
    }
}
