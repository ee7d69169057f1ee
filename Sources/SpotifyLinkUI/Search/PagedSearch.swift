import SpotifyWebAPI

/// The one debounced, paged search over Spotify that the playlist picker and the song search
/// share: a search starts after a pause in typing, pages are appended in order, and only the
/// answers for the current text count (a slow answer for "foc" never lands after "focus").
///
/// It holds the results and where the next page starts; the models decide what their list
/// shows. Spotify's search serves at most 1,000 results (offset + limit), so paging stops there.
@MainActor
package final class PagedSearch<Item: Decodable & Sendable> {
    /// What one search or page came to, for the text it was asked for.
    package enum Outcome {
        /// The page arrived; ``PagedSearch/items`` holds every page so far.
        case answered
        /// Spotify refused or could not be reached.
        case failed(any Error)
    }

    /// Asks Spotify for `limit` results for the text from `offset`.
    package typealias Fetch = @MainActor (_ text: String, _ limit: Int, _ offset: Int) async throws -> Page<Item>

    /// Spotify's search ends at this many results (offset + limit).
    package static var resultLimit: Int { 1000 }

    /// Every result for the current text, pages in order.
    package private(set) var items: [Item] = []
    /// Searches sent and not yet answered, stale ones included.
    package private(set) var inFlight = 0
    /// Whether Spotify has more results for the current text.
    package var canLoadMore: Bool { nextOffset != nil }

    private let pageSize: Int
    private let debounce: Duration
    private let clock: any SpotifyClock
    private let fetch: Fetch
    private var generation = 0
    private var text = ""
    private var nextOffset: Int?
    private var pause: Task<Void, any Error>?

    /// A search of `pageSize` results a page (Spotify allows at most 10), started `debounce`
    /// after the last change of text on `clock`.
    package init(pageSize: Int, debounce: Duration, clock: any SpotifyClock, fetch: @escaping Fetch) {
        self.pageSize = min(max(pageSize, 1), 10)
        self.debounce = debounce
        self.clock = clock
        self.fetch = fetch
    }

    /// Forgets the results and any search in flight: the text changed. Answers already on their
    /// way are dropped when they come.
    package func reset() {
        generation += 1
        pause?.cancel()
        pause = nil
        items = []
        nextOffset = nil
        text = ""
    }

    /// Waits for the pause in typing, then asks for the first page of `text`, calling `sending`
    /// as the request leaves. `nil` when the text changed meanwhile (the outcome belongs to
    /// nobody).
    package func search(_ text: String, sending: () -> Void) async -> Outcome? {
        reset()
        self.text = text
        let current = generation
        let pause = Task { try await clock.sleep(for: debounce) }
        self.pause = pause
        do { try await pause.value } catch { return nil }
        guard current == generation else { return nil }
        sending()
        return await page(from: 0, generation: current)
    }

    /// Asks for the next page of the current text; `nil` when there is none, or when the text
    /// changed before it came.
    package func loadMore(sending: () -> Void) async -> Outcome? {
        guard let offset = nextOffset, !text.isEmpty else { return nil }
        sending()
        return await page(from: offset, generation: generation)
    }

    private func page(from offset: Int, generation current: Int) async -> Outcome? {
        inFlight += 1
        defer { inFlight -= 1 }
        do {
            let page = try await fetch(text, pageSize, offset)
            // An answer for older text is dropped: the user has typed on.
            guard current == generation else { return nil }
            items += page.items
            let next = offset + pageSize
            nextOffset = page.next == nil || next + pageSize > Self.resultLimit ? nil : next
            return .answered
        } catch {
            return current == generation ? .failed(error) : nil
        }
    }
}
