import Foundation
import SpotifyEmulator
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

@MainActor
@Suite("TrackSearchModel against the emulator", .serialized)
struct TrackSearchModelTests {
    @Test func japaneseTypedQuicklySearchesOnceAfterThePauseAndOpensInSpotify() async throws {
        let harness = try await UIHarness.connected()
        let search = TrackSearchModel(
            spotify: harness.spotify, debounce: .milliseconds(300))
        let before = await harness.emulator.requestCount("GET /v1/search")
        search.query = "よ"
        search.query = "よあ"
        search.query = "よあけ"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(299))
        #expect(await harness.emulator.requestCount("GET /v1/search") == before)
        harness.clock.advance(by: .milliseconds(1))
        try await waitUntil("results") { search.results.map(\.name) == ["夜明けのうた"] }
        #expect(await harness.emulator.requestCount("GET /v1/search") == before + 1)
        #expect(search.phase == .ready)
        #expect(!search.canLoadMore)
        let track = try #require(search.results.first)
        let link = try #require(search.openInSpotify(track))
        #expect(
            link.urls.map(\.absoluteString) == [
                "spotify:track:\(track.id!.rawValue)", "https://open.spotify.com/track/\(track.id!.rawValue)",
            ])
        #expect(track.previewURL == nil)
        await harness.stop()
    }

    @Test func moreResultsOnDemandAndAnEmptyAnswerSaysSo() async throws {
        let harness = try await UIHarness.connected()
        let search = TrackSearchModel(
            spotify: harness.spotify, debounce: .milliseconds(300))
        search.query = "a"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(300))
        try await waitUntil("first page") { search.phase == .ready && !search.results.isEmpty }
        #expect(search.canLoadMore)
        let firstPage = search.results.count
        await search.loadMore()
        #expect(search.results.count > firstPage)
        search.query = "zzzz no such song"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(300))
        try await waitUntil("empty") { search.phase == .empty(.noSongsMatch("zzzz no such song")) }
        await harness.stop()
    }

    @Test func disconnectedItSendsNothingAndSaysWhy() async throws {
        let harness = try await UIHarness()
        let search = TrackSearchModel(spotify: harness.spotify)
        search.query = "さくら"
        try await waitUntil("the search says to connect") { search.phase == .empty(.connectToSearch) }
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.transport.requestCount == 0)
        await harness.stop()
    }
}
