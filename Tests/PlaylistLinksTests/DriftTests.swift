import Foundation
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyTesting
import SpotifyWebAPI
import Testing

@_spi(Storage) @testable import PlaylistLinks

@Suite("PlaylistLinks and the late-2026 service", .serialized)
struct LinksDriftTests {
    @Test func spotifysOwnPlaylistIsKeptWithAReasonAndNotAskedForAgain() async throws {
        let clock = VirtualClock(mode: .automatic)
        let links = try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let hits = try await playlistID(emulator, "Today's Top Hits")
            try await links.linked.link(session42, to: hits)
            let refresher = MetadataRefresher(links: links.linked, client: await emulatorClient(emulator, clock: clock))
            #expect(try await refresher.refresh(record: session42) == .spotifyOwned)
            let card = try #require(try await links.card(for: session42))
            #expect(card.metadata.availability == .spotifyOwned)
            #expect(card.webURL.absoluteString == "https://open.spotify.com/playlist/\(hits.rawValue)")
            await emulator.resetStatistics()
            try await clock.sleep(for: .seconds(86_400 * 2))
            #expect(try await refresher.refreshStale(olderThan: .seconds(3600)).isEmpty)
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
        }
    }

    @Test(arguments: ["403-not-registered", "403-premium"])
    func aRefusalOfTheAccountStopsTheBackgroundRefresh(kind: String) async throws {
        let clock = VirtualClock(mode: .automatic)
        let links = try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
        try await withEmulator { (emulator: EmulatorServer) async throws in
            for (index, name) in ["Deep Work", "Morning Focus", "Single Spin"].enumerated() {
                try await links.linked.link(
                    RecordID(namespace: "s", id: "\(index)"), to: try await playlistID(emulator, name))
            }
            await emulator.control("faults", ["kind": kind, "count": "100"])
            let refresher = MetadataRefresher(links: links.linked, client: await emulatorClient(emulator, clock: clock))
            await #expect {
                try await refresher.refreshStale(olderThan: .zero, concurrency: 1)
            } throws: { error in
                (error as? SpotifyAPIError)?.refusesAccount == true
            }
            // The first refusal ends the run: one request, not one per playlist.
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 1)
            // Nothing saved is lost or marked as gone.
            #expect(try await links.links().count == 3)
            #expect(
                try await links.metadata(for: try await playlistID(emulator, "Deep Work"))?.availability == .unknown)
        }
    }

    @Test func aTransient401IsWaitedOutWithoutARefresh() async throws {
        let clock = VirtualClock(mode: .automatic)
        try await withEmulator { (emulator: EmulatorServer) async throws in
            await emulator.control("faults", ["kind": "401-transient"])
            let client = await emulatorClient(emulator, clock: clock)
            #expect(try await client.currentUser().id == "emu-user")
            #expect(clock.totalSlept == .seconds(1))
            #expect(await emulator.requestCount("POST /api/token") == 0)
        }
    }
}
