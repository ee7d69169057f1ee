import Foundation
import GRDB
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

@_spi(Storage) @testable import PlaylistLinks

private let key = SpotifyAppKey(issuer: "http://127.0.0.1", clientID: "spotlink-demo")

@Suite("Revalidate, don't refetch", .serialized)
struct RevalidationTests {
    func configuration(extra: Int) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.extraLibraryPlaylists = extra
        return configuration
    }

    @Test func aHundredUnchangedLibraryPlaylistsCostTwoRequestsAndTwoChangedOnesAreReadAgain() async throws {
        let clock = VirtualClock(mode: .automatic)
        let links = try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
        var configuration = EmulatorConfiguration()
        configuration.catalogFile = try CatalogFile.library(playlists: 100)
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let collections = try await emulator.playlists().map { try SpotifyID($0.id) }
            #expect(collections.count == 100)
            for (index, id) in collections.enumerated() {
                try await links.linked.link(RecordID(namespace: "routine", id: "\(index)"), to: id)
            }
            let client = await emulatorClient(emulator, clock: clock)
            let refresher = MetadataRefresher(links: links.linked, client: client)
            let first = try await refresher.refreshStale(olderThan: .zero)
            #expect(first.values.allSatisfy { $0 == .refreshed(entriesFetched: true) })
            await emulator.resetStatistics()
            try await clock.sleep(for: .seconds(86_400))

            let unchanged = try await refresher.refreshStale(olderThan: .seconds(3600))
            #expect(unchanged.count == 100)
            #expect(unchanged.values.allSatisfy { $0 == .unchanged })
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 2)
            let card = try #require(try await links.card(for: RecordID(namespace: "routine", id: "7")))
            #expect(card.metadata.fetchedAt == clock.now)
            #expect(card.metadata.trackCount != nil && card.metadata.totalDuration != nil)

            // Two change: they are read again and show the change; the others stay as cached.
            for id in collections.prefix(2) {
                await emulator.control("playlists/\(id.rawValue)/add-track", ["duration_ms": "60000"])
            }
            let before = try #require(try await links.metadata(for: collections[0]))
            await emulator.resetStatistics()
            try await clock.sleep(for: .seconds(86_400))
            let outcomes = try await refresher.refreshStale(olderThan: .seconds(3600))
            #expect(outcomes.values.filter { $0 == .unchanged }.count == 98)
            #expect(outcomes[collections[0]] == .refreshed(entriesFetched: true))
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 4)
            let after = try #require(try await links.metadata(for: collections[0]))
            #expect(after.trackCount == (before.trackCount ?? 0) + 1)
            #expect(after.totalDuration == (before.totalDuration ?? .zero) + .seconds(60))
        }
    }

    @Test func aFewPlaylistsOutsideTheLibraryAreAskedForOneByOne() async throws {
        let clock = VirtualClock(mode: .automatic)
        let links = try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
        try await withEmulator(configuration(extra: 200)) { (emulator: EmulatorServer) async throws in
            let client = await emulatorClient(emulator, clock: clock)
            // Two playlists of the user's library and one outside it: reading 5 library pages would cost more.
            for (index, name) in ["Deep Work", "Morning Focus", "Focus Flow"].enumerated() {
                try await links.linked.link(
                    RecordID(namespace: "session", id: "\(index)"), to: try await playlistID(emulator, name))
            }
            let refresher = MetadataRefresher(links: links.linked, client: client)
            _ = try await refresher.refreshStale(olderThan: .zero)
            await emulator.resetStatistics()
            try await clock.sleep(for: .seconds(7200))
            let outcomes = try await refresher.refreshStale(olderThan: .seconds(3600))
            #expect(outcomes.count == 3)
            // One library page covers the two of the library (they come first); the other costs one.
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 2)
            #expect(outcomes.values.filter { $0 == .unchanged }.count == 2)
        }
    }

    @Test func pastTheDailyBudgetTheRefresherStopsWithoutSending() async throws {
        let clock = VirtualClock(mode: .automatic)
        let links = try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
        try await withEmulator { (emulator: EmulatorServer) async throws in
            try await links.linked.link(session42, to: try await playlistID(emulator, "Deep Work"))
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
                transport: PatientTransport(), clock: clock,
                ledger: RequestLedger(key: key, dailyBudget: 0))
            let outcome = try await MetadataRefresher(links: links.linked, client: client).refresh(record: session42)
            guard case .failed(let error) = outcome else {
                Issue.record("expected stale, got \(String(describing: outcome))")
                return
            }
            #expect(error.code == .budgetExhausted && error.message.contains("daily budget"))
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
            // A person asking still gets through.
            let asked = try await MetadataRefresher(links: links.linked, client: client, origin: .person).refresh(
                record: session42)
            #expect(asked == .refreshed(entriesFetched: true))
        }
    }
}
