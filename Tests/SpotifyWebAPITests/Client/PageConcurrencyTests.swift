import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

@testable import SpotifyWebAPI

@Suite("Adaptive paging concurrency")
struct PageConcurrencyTests {
    @Test func growsWhileCalmToTheMaximumAndHalvesOnA429() {
        var allowed = PageConcurrency(initial: 4, maximum: 8)
        var steps: [Int] = []
        for _ in 0..<30 {
            allowed.answered(rateLimited: false)
            steps.append(allowed.current)
        }
        // Each calm answer adds one, never past 8.
        #expect(steps.prefix(5) == [5, 6, 7, 8, 8])
        #expect(steps.max() == 8 && steps.last == 8)
        allowed.answered(rateLimited: true)
        #expect(allowed.current == 4)
        // After a 429, growth waits for as many calm answers as are allowed.
        for _ in 0..<4 { allowed.answered(rateLimited: false) }
        #expect(allowed.current == 4)
        allowed.answered(rateLimited: false)
        #expect(allowed.current == 5)
        allowed.answered(rateLimited: true)
        #expect(allowed.current == 2)
        allowed.answered(rateLimited: true)
        allowed.answered(rateLimited: true)
        allowed.answered(rateLimited: true)
        #expect(allowed.current == 1)
        #expect(PageConcurrency(initial: 12, maximum: 8).current == 8)
        #expect(PageConcurrency(initial: 0, maximum: 0).current == 1)
    }

    @Test func aTenThousandEntryPlaylistReachesEightInFlightInOrder() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let id = try SpotifyID(try #require(await emulator.playlists().first { $0.entries == 10_000 }).id)
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
                transport: PatientTransport())
            let all = try await client.allPlaylistEntries(id)
            #expect(all.pageCount == 200)
            #expect(all.peakConcurrency == 8)
            #expect(all.items.count + all.nullCount == 10_000)
            // In playlist order: the emulator adds entries an hour apart.
            let dates = all.items.compactMap(\.addedAt)
            #expect(dates == dates.sorted())
            let running = try SpotifyID(try #require(await emulator.playlists().first { $0.entries == 500 }).id)
            let fixed = try await client.allPlaylistEntries(running, concurrency: 2)
            #expect(fixed.peakConcurrency == 2 && fixed.items.count + fixed.nullCount == 500)
        }
    }
}
