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

    /// A children's app hides the songs Spotify marks explicit: from the results already read,
    /// with no request, and it says how many it hid.
    @Test func explicitSongsAreHiddenWhenAskedWithoutARequest() async throws {
        let harness = try await UIHarness.connected()
        let search = TrackSearchModel(spotify: harness.spotify, debounce: .milliseconds(300))
        search.query = "wild"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(300))
        try await waitUntil("the first page of songs for “wild”") { search.phase == .ready && !search.results.isEmpty }
        let shown = search.results
        let explicit = shown.filter { $0.explicit == true }
        #expect(!explicit.isEmpty, "the emulator marks songs named “Wild …” explicit")
        #expect(search.hiddenExplicitCount == 0)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        search.hidesExplicit = true
        #expect(search.results == shown.filter { $0.explicit != true })
        #expect(search.hiddenExplicitCount == explicit.count)
        search.hidesExplicit = false
        #expect(search.results == shown)
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before)
        // The next page is filtered as it comes.
        search.hidesExplicit = true
        if search.canLoadMore {
            await search.loadMore()
            #expect(search.results.allSatisfy { $0.explicit != true })
        }
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
