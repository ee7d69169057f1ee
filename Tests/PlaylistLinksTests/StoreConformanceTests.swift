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
