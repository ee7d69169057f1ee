import Foundation
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The one debounced, paged search the picker and the song search share.
@MainActor
@Suite("One paged search")
struct PagedSearchTests {
    /// Spotify's search serves results up to offset + limit = 1,000: the last page asked for
    /// starts at 990, never at 1,000 (which Spotify refuses).
    @Test func pagingStopsAtSpotifysThousandthResult() async throws {
        var offsets: [Int] = []
        let page = Data(
            #"{"items":[{"name":"さくら"}],"next":"https://api.spotify.com/v1/search?offset=1","total":5000}"#.utf8)
        let search = PagedSearch<Track>(
            pageSize: 10, debounce: .milliseconds(300), clock: VirtualClock(mode: .automatic)
        ) {
            _, limit, offset in
            offsets.append(offset)
            #expect(offset + limit <= 1000)
            return try JSONDecoder().decode(Page<Track>.self, from: page)
        }
        _ = await search.search("さくら") {}
        while search.canLoadMore { _ = await search.loadMore {} }
        #expect(offsets.count == 100)
        #expect(offsets.last == 990)
        #expect(search.items.count == 100)
    }

    /// A page asked for before the text changed is dropped when it comes, and says so with `nil`.
    @Test func anAnswerForOlderTextIsDropped() async throws {
        let gate = TestGate()
        let page = Data(#"{"items":[{"name":"old"}],"next":null}"#.utf8)
        let search = PagedSearch<Track>(pageSize: 10, debounce: .zero, clock: VirtualClock(mode: .automatic)) {
            text, _, _ in
            if text == "foc" { await gate.hold() }
            return try JSONDecoder().decode(Page<Track>.self, from: page)
        }
        let slow = Task { await search.search("foc") {} }
        try await waitUntil("the first search is sent") { search.inFlight == 1 }
        #expect(await search.search("focus") {} != nil)
        gate.open()
        #expect(await slow.value == nil)
        #expect(search.items.count == 1)
    }
}
