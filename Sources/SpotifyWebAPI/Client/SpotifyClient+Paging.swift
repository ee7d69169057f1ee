/// How far a multi-page read has come.
public struct FetchProgress: Sendable, Hashable {
    /// Elements fetched so far.
    public var fetched: Int
    /// `nil` while unknown (Spotify did not send `total`).
    public var total: Int?

    /// Progress of `fetched` elements out of `total`.
    public init(fetched: Int, total: Int?) {
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
        var pages: [Page<Item>] = [first]
        var fetched = first.elementCount
        var peak = 1
        progress?(FetchProgress(fetched: fetched, total: first.total))
        if let total = first.total {
            let offsets = Array(stride(from: pageSize, to: total, by: pageSize))
            var slots = [Page<Item>?](repeating: nil, count: offsets.count)
            var allowed = PageConcurrency(initial: concurrency, maximum: maximumConcurrency ?? concurrency)
            var limitsSeen = await admission.rateLimitCount
            let launched = try await withBoundedTaskGroup(over: offsets, limit: allowed.current) { offset in
                try await fetch(offset, pageSize)
            } received: { index, page in
                slots[index] = page
                fetched += page.elementCount
                progress?(FetchProgress(fetched: fetched, total: total))
                let limits = await admission.rateLimitCount
                allowed.answered(rateLimited: limits > limitsSeen)
                limitsSeen = limits
                return allowed.current
            }
            peak = max(peak, launched)
            pages += slots.compactMap { $0 }
        } else {
            var offset = first.elementCount
            var last = first
            while last.next != nil, last.elementCount > 0 {
                last = try await fetch(offset, pageSize)
                pages.append(last)
                offset += last.elementCount
                fetched += last.elementCount
                progress?(FetchProgress(fetched: fetched, total: nil))
            }
        }
        let nullCount = pages.reduce(0) { $0 + $1.nullCount }
        let undecodableCount = pages.reduce(0) { $0 + $1.undecodableCount }
        return PagedCollection(
            items: Self.concatenating(&pages), total: first.total, nullCount: nullCount,
            undecodableCount: undecodableCount, pageCount: pages.count, peakConcurrency: peak)
    }

    /// The pages' items in order, in one array sized once; each page lets go of its items as they
    /// are copied. `flatMap` grew the array by doubling while every page still held its own: for
    /// 10,000 entries about three times the result's size at the peak.
    static func concatenating<Item>(_ pages: inout [Page<Item>]) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(pages.reduce(0) { $0 + $1.items.count })
        for index in pages.indices {
            items.append(contentsOf: pages[index].items)
            pages[index].items = []
        }
        return items
    }
}
