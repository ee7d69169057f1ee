/// How far a multi-page read has come.
public struct FetchProgress: Sendable, Hashable {
    /// Elements fetched so far.
    public var fetched: Int
    /// `nil` while unknown (Spotify did not send `total`).
    public var total: Int?

    /// Progress of `fetched` elements out of `total`.
    package init(fetched: Int, total: Int?) {
        self.fetched = fetched
        self.total = total
    }
}

/// Every element of a paged list, in order, with what was dropped along the way.
public struct PagedCollection<Item: Sendable & Decodable>: Sendable {
    /// Every element read, in list order.
    public var items: [Item]
    /// The list's length as Spotify reported it.
    public var total: Int?
    /// `null` elements dropped (counted in `total`).
    public var nullCount: Int
    /// Elements that could not be read, dropped.
    public var undecodableCount: Int
    /// Requests it took.
    public var pageCount: Int
    /// The most pages that were in flight at once.
    package var peakConcurrency: Int = 1
}

extension SpotifyClient {
    /// The longest list whose reported total plans the requests: the largest offset Spotify's
    /// paging accepts (`GET /me/playlists`, 100,000).
    static let longestList = 100_000

    /// Reads page 0 for the total, then the rest concurrently by offset, keeping list order.
    ///
    /// When Spotify gives no total, pages are read one after another until a short page.
    func fetchAll<Item: Sendable & Decodable>(
        pageSize: Int,
        concurrency: Int,
        maximumConcurrency: Int? = nil,
        progress: (@Sendable (FetchProgress) -> Void)?,
        page fetch: @escaping @Sendable (_ offset: Int, _ limit: Int) async throws -> Page<Item>
    ) async throws -> PagedCollection<Item> {
        let first = try await fetch(0, pageSize)
        var collection = PagedCollection<Item>(
            items: [], total: first.total, nullCount: 0, undecodableCount: 0, pageCount: 0)
        // A total beyond any list Spotify pages through is not believed: it would size the result
        // and plan that many requests. Such a list is read by following `next`, as one without a total.
        let planned = first.total.flatMap { (0...Self.longestList).contains($0) ? $0 : nil }
        if let planned { collection.items.reserveCapacity(planned) }
        collection.append(first)
        var fetched = first.elementCount
        progress?(FetchProgress(fetched: fetched, total: planned))
        if let total = planned {
            let offsets = Array(stride(from: pageSize, to: total, by: pageSize))
            // Pages that came before an earlier one; each joins the result, and is let go, as soon as
            // every page before it has.
            var waiting = [Page<Item>?](repeating: nil, count: offsets.count)
            var joined = 0
            var allowed = PageConcurrency(initial: concurrency, maximum: maximumConcurrency ?? concurrency)
            var limitsSeen = await admission.rateLimitCount
            let launched = try await withBoundedTaskGroup(over: offsets, limit: allowed.current) { offset in
                try await fetch(offset, pageSize)
            } received: { index, page in
                fetched += page.elementCount
                waiting[index] = page
                while joined < waiting.count, let next = waiting[joined] {
                    collection.append(next)
                    waiting[joined] = nil
                    joined += 1
                }
                progress?(FetchProgress(fetched: fetched, total: total))
                let limits = await admission.rateLimitCount
                allowed.answered(rateLimited: limits > limitsSeen)
                limitsSeen = limits
                return allowed.current
            }
            collection.peakConcurrency = max(1, launched)
        } else {
            var offset = first.elementCount
            var last = first
            while last.next != nil, last.elementCount > 0 {
                last = try await fetch(offset, pageSize)
                collection.append(last)
                offset += last.elementCount
                fetched += last.elementCount
                progress?(FetchProgress(fetched: fetched, total: nil))
            }
        }
        return collection
    }
}

extension PagedCollection {
    /// Adds a page's items, in list order, and its counts. The result is sized once and pages join
    /// it as they arrive: keeping every page until the end, then joining them (`flatMap`), held the
    /// list about twice, and more while the array grew by doubling.
    mutating func append(_ page: Page<Item>) {
        items.append(contentsOf: page.items)
        nullCount += page.nullCount
        undecodableCount += page.undecodableCount
        pageCount += 1
    }
}
