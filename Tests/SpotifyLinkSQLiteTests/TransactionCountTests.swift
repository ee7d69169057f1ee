import Foundation
import GRDB
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

/// How many transactions the SQLite file runs for what an app does most: a card on screen (with
/// its retention, as the card model reads it) and an export. A database trace hook counts every
/// transaction begun and every one that wrote.
@Suite("A card and an export are each one SQLite transaction")
struct TransactionCountTests {
    /// The transactions the traced file ran.
    final class Transactions: Sendable {
        private let counts = Lock<(begun: Int, wrote: Int)>((0, 0))

        /// Transactions begun, reads and writes.
        var begun: Int { counts.withLock { $0.begun } }
        /// Write transactions (those that took the file's write lock).
        var wrote: Int { counts.withLock { $0.wrote } }

        /// GRDB's configuration of the file, tracing each statement.
        var configuration: DatabaseConfiguration {
            var configuration = DatabaseConfiguration()
            configuration.prepareDatabase { db in
                db.trace(options: .statement) { event in
                    let statement = "\(event)".uppercased()
                    self.counts.withLock { counts in
                        if statement.hasPrefix("BEGIN") { counts.begun += 1 }
                        // GRDB begins a pool's writes IMMEDIATE (taking the write lock), its reads DEFERRED.
                        if statement.hasPrefix("BEGIN IMMEDIATE") { counts.wrote += 1 }
                    }
                }
            }
            return configuration
        }

        /// Resets both counts.
        func reset() { counts.withLock { $0 = (0, 0) } }
    }

    static let session = RecordID(namespace: "session", id: "1")
    static let focus = SpotifyID(unchecked: "37i9dQZF1DXcBWIGoYBM5M")

    /// An empty store on a file of its own, whose transactions `transactions` counts, and the
    /// file's folder (for the test to remove).
    static func store(_ transactions: Transactions, clock: VirtualClock) throws -> (SQLitePlaylistLinkStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("transactions-\(UUID().uuidString)")
        let store = try SQLitePlaylistLinkStore(
            location: .file(folder.appendingPathComponent("links.sqlite")), configuration: transactions.configuration,
            clock: clock)
        return (store, folder)
    }

    /// ``store(_:clock:)`` with `session` linked to `focus`, whose details (named "Focus") and
    /// cover are saved at the clock's present.
    static func linkedStore(_ transactions: Transactions, clock: VirtualClock) async throws
        -> (SQLitePlaylistLinkStore, URL)
    {
        let (store, folder) = try store(transactions, clock: clock)
        var details = PlaylistMetadata(id: focus, availability: .available)
        details.name = "Focus"
        try await store.saveLink(session, to: details)
        try await store.saveCover(Data("cover".utf8), for: focus)
        return (store, folder)
    }

    /// Twenty views of a card within a day: each is one read transaction, and only the first notes
    /// the cover shown. Before, each view ran three transactions (the retention's check, the card,
    /// the cover's note) and took the write lock every time.
    @Test func aCardShownTwentyTimesADayIsOneReadEachAndOneWrite() async throws {
        let clock = VirtualClock()
        let transactions = Transactions()
        let (store, folder) = try await Self.linkedStore(transactions, clock: clock)
        defer { try? FileManager.default.removeItem(at: folder) }
        clock.advance(by: .seconds(2 * 86_400))  // the cover was last noted shown two days ago

        transactions.reset()
        for view in 0..<20 {
            clock.advance(by: .seconds(60))
            let card = try await store.linked.card(for: Self.session, retention: .default, at: clock.now)
            #expect(card?.cover == Data("cover".utf8) && card?.metadata.name == "Focus", "view \(view)")
        }
        #expect(transactions.begun == 21, "one read each, and one write for the cover's note")
        #expect(transactions.wrote == 1, "the cover's note, once")
    }

    /// A card whose details are past their retention is dropped, read and noted in one write.
    @Test func aCardPastItsRetentionIsOneWrite() async throws {
        let clock = VirtualClock()
        let transactions = Transactions()
        let (store, folder) = try await Self.linkedStore(transactions, clock: clock)
        defer { try? FileManager.default.removeItem(at: folder) }
        clock.advance(by: .seconds(91 * 86_400))

        transactions.reset()
        let card = try #require(try await store.linked.card(for: Self.session, retention: .default, at: clock.now))
        #expect(card.metadata.name == nil && card.metadata.droppedAt == clock.now && card.cover == nil)
        #expect(transactions.begun == 2 && transactions.wrote == 1, "the read that finds it due, then one write")
        #expect(try await store.cover(for: Self.focus) == nil)
    }

    /// A list of a namespace's cards (the CLI's `session list`) reads them all in one transaction
    /// however many there are, without covers and without other namespaces' records; details past
    /// their retention are dropped first, in one write (issue 66 item 9: a card read per session
    /// took a minute for 100,000).
    @Test func aListOfCardsIsOneReadHoweverMany() async throws {
        let clock = VirtualClock()
        let transactions = Transactions()
        let (store, folder) = try await Self.linkedStore(transactions, clock: clock)
        defer { try? FileManager.default.removeItem(at: folder) }
        for number in 2...50 {
            try await store.linked.link(RecordID(namespace: "session", id: "\(number)"), to: Self.focus)
        }
        try await store.linked.link(RecordID(namespace: "routine", id: "1"), to: Self.focus)
        func cards() async throws -> [String: PlaylistCard] {
            let now = clock.now
            return try await store.cardsWithoutCovers(
                in: "session",
                detailsSavedBefore: now.addingTimeInterval(-RetentionPolicy.default.detailsKeptFor.seconds),
                coversShownBefore: now.addingTimeInterval(-RetentionPolicy.default.coverUnusedFor.seconds), at: now)
        }

        transactions.reset()
        let fresh = try await cards()
        #expect(fresh.count == 50 && fresh.values.allSatisfy { $0.metadata.name == "Focus" && $0.cover == nil })
        #expect(fresh["1"]?.record == Self.session)
        #expect(transactions.begun == 2 && transactions.wrote == 0, "the limits' check and the list")

        clock.advance(by: .seconds(91 * 86_400))
        transactions.reset()
        let past = try await cards()
        #expect(
            past.count == 50 && past.values.allSatisfy { $0.metadata.name == nil && $0.metadata.droppedAt == clock.now }
        )
        #expect(transactions.begun == 3 && transactions.wrote == 1, "the check, one write that drops, the list")
        #expect(try await store.cover(for: Self.focus) == nil)
    }

    /// An export reads the links and the playlists in one transaction.
    @Test func anExportIsOneRead() async throws {
        let clock = VirtualClock()
        let transactions = Transactions()
        let (store, folder) = try Self.store(transactions, clock: clock)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await store.linked.link(Self.session, to: Self.focus)

        transactions.reset()
        let export = try await store.linked.exportJSON()
        #expect(transactions.begun == 1 && transactions.wrote == 0)
        let restored = LinkedPlaylists.inMemory()
        #expect(try await restored.importJSON(export).added.map(\.playlist) == [Self.focus])
    }
}
