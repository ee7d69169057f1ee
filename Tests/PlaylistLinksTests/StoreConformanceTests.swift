import Foundation
@_spi(Storage) import PlaylistLinks
import PostgresTestServer
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
@_spi(Storage) import SpotifyTesting
import SpotifyWebAPI
import Testing

extension TestPostgres {
    /// Why a suite that needs the server is skipped in a run without one.
    static let skipReason: Comment = "no PostgreSQL: run under scripts/with-postgres.sh"
}

/// The stores the contract is checked on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqliteInMemory, sqliteFile, inMemory, postgres

    /// Every store this run can reach: PostgreSQL when `scripts/with-postgres.sh` gave one.
    static var available: [StoreKind] { allCases.filter { $0 != .postgres || TestPostgres.url != nil } }

    var testDescription: String { rawValue }

    /// The cover budget the contract's stores keep: small, since one check fills it.
    static let coverCacheLimit = 1_000

    func make(clock: VirtualClock) async throws -> any PlaylistLinkStore {
        switch self {
        case .sqliteInMemory:
            try SQLitePlaylistLinkStore(location: .inMemory, clock: clock, coverCacheLimit: Self.coverCacheLimit)
        case .sqliteFile:
            try SQLitePlaylistLinkStore(
                location: .file(
                    FileManager.default.temporaryDirectory.appendingPathComponent(
                        "conformance-\(UUID().uuidString)/links.sqlite")),
                clock: clock, coverCacheLimit: Self.coverCacheLimit)
        case .inMemory: InMemoryPlaylistLinkStore(clock: clock, coverCacheLimit: Self.coverCacheLimit)
        case .postgres:
            try await TestPostgres.linkStore(
                user: UUID().uuidString, clock: clock, coverCacheLimit: Self.coverCacheLimit)
        }
    }
}

/// Every store of the package held to the contract `SpotifyTesting` ships
/// (`PlaylistLinkStoreConformance`), which a backend outside the package runs the same way.
@Suite("The PlaylistLinkStore contract, on every store")
struct StoreConformanceTests {
    @Test(arguments: StoreKind.available, PlaylistLinkStoreConformance.checks)
    func keepsTheContract(_ kind: StoreKind, _ check: PlaylistLinkStoreConformance.Check) async throws {
        try await check.run { clock in try await kind.make(clock: clock) }
    }

    /// A move between stores of different kinds: what one exports, any other imports.
    @Test(arguments: StoreKind.available, StoreKind.available)
    func anExportOfOneStoreRestoresIntoAnother(_ from: StoreKind, _ to: StoreKind) async throws {
        try await PlaylistLinkStoreConformance.restoresAnExport(
            from: { try await from.make(clock: $0) }, to: { try await to.make(clock: $0) })
    }
}

/// Another writer (a widget's process, a second window) landing between the steps of an
/// operation that reads before it writes, held there deterministically (`SuspensionPoints`).
@Suite("Links: another writer between an operation's read and its write, on every store")
struct InterleavedWriterTests {
    static let deepWork = SpotifyID(unchecked: "37i9dQZF1DWZeKCadgRdKQ")
    static let focus = SpotifyID(unchecked: "37i9dQZF1DX0XUsuxWHRQd")

    /// Runs `operation` on `store` traced, holds it at the first `label`, lets `other` write
    /// meanwhile on the store itself, then lets the operation finish.
    static func interleave<T: Sendable>(
        _ store: any PlaylistLinkStore, before label: String,
        _ operation: @escaping @Sendable (LinkedPlaylists) async throws -> T,
        other: @Sendable (LinkedPlaylists) async throws -> Void
    ) async throws -> T {
        let points = SuspensionPoints()
        points.park(atFirst: label)
        let traced = LinkedPlaylists(TracedLinkStore(store, points: points))
        let running = Task { try await SuspensionPoints.$isTraced.withValue(true) { try await operation(traced) } }
        try await waitUntil("the operation held before \(label)") { points.parked == label }
        try await other(LinkedPlaylists(store))
        points.release()
        return try await running.value
    }

    /// A delete's undo brings back the link the delete removed: when another writer linked the
    /// record to another playlist just before the delete, that link is the one removed, returned
    /// and restored, not the one an earlier read saw.
    @Test(arguments: StoreKind.available)
    func anUndoneDeleteBringsBackTheLinkItRemoved(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let session = RecordID(namespace: "session", id: "42")
        try await LinkedPlaylists(store).link(session, to: Self.deepWork)
        let removed = try await Self.interleave(store, before: "links.removeLink") {
            try await $0.removeLinkForUndo(for: session)
        } other: { links in
            clock.advance(by: .seconds(60))
            try await links.link(session, to: Self.focus)
        }
        #expect(removed?.playlist == Self.focus, "the link the delete removed")
        #expect(try await LinkedPlaylists(store).link(for: session) == nil)
        try await LinkedPlaylists(store).undoRemoval(try #require(removed))
        #expect(try await LinkedPlaylists(store).link(for: session)?.playlist == Self.focus)
    }

    /// A migration of the old fields never replaces a link another writer made after it looked:
    /// the user's choice wins over the old fields, and the migration says it made no link.
    @Test(arguments: StoreKind.available)
    func aMigrationLeavesALinkMadeMeanwhile(_ kind: StoreKind) async throws {
        let clock = VirtualClock()
        let store = try await kind.make(clock: clock)
        let routine = RecordID(namespace: "routine", id: "7E0C5B1A-2B7D-4C55-9D0E-6A1F3C2B9A10")
        let migrated = try await Self.interleave(store, before: "links.editPlaylist") {
            try await $0.migrateLegacyLink(
                routine, playlistID: Self.deepWork.rawValue, name: "Deep Work", imageURL: nil)
        } other: { links in
            clock.advance(by: .seconds(60))
            try await links.link(routine, to: Self.focus)
        }
        #expect(!migrated, "no link was made: the record had one")
        #expect(try await LinkedPlaylists(store).link(for: routine)?.playlist == Self.focus)
    }
}
