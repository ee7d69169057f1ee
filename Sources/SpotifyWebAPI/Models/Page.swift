public import Foundation

/// A Spotify paging object.
///
/// `null` elements are dropped and counted in ``nullCount``; elements the model cannot read are
/// dropped and counted in ``undecodableCount``, so one odd element never fails a page.
public struct Page<Item: Decodable & Sendable>: Sendable, Decodable {
    /// This page's own URL.
    package var href: URL?
    /// The elements Spotify sent that could be read, in order.
    public var items: [Item]
    /// The page size asked for.
    public var limit: Int
    /// The index of this page's first element in the whole list.
    public var offset: Int
    /// The next page's URL; `nil` on the last page.
    public var next: URL?
    /// The previous page's URL; `nil` on the first page.
    package var previous: URL?
    /// The number of elements across all pages; `nil` when Spotify sends `null`.
    public var total: Int?
    /// `null` elements dropped from this page.
    public var nullCount: Int
    /// Elements dropped because the model could not read them.
    public var undecodableCount: Int

    enum CodingKeys: String, CodingKey { case href, items, limit, offset, next, previous, total }

    /// A page of `items` (for tests and stores that keep pages).
    package init(
        items: [Item], limit: Int, offset: Int, total: Int?, next: URL? = nil, previous: URL? = nil, href: URL? = nil
    ) {
        self.items = items
        self.limit = limit
        self.offset = offset
        self.total = total
        self.next = next
        self.previous = previous
        self.href = href
        self.nullCount = 0
        self.undecodableCount = 0
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        href = container.decodeLeniently(URL.self, forKey: .href)
        let elements = try container.decodeArrayOrEmpty(LenientElement<Item>.self, forKey: .items)
        var items: [Item] = []
        items.reserveCapacity(elements.count)
        var nulls = 0
        var undecodable = 0
        for element in elements {
            switch element {
            case .item(let item): items.append(item)
            case .null: nulls += 1
            case .undecodable: undecodable += 1
            }
        }
        self.items = items
        self.nullCount = nulls
        self.undecodableCount = undecodable
        limit = container.decodeLeniently(Int.self, forKey: .limit) ?? elements.count
        offset = container.decodeLeniently(Int.self, forKey: .offset) ?? 0
        next = container.decodeLeniently(URL.self, forKey: .next)
        previous = container.decodeLeniently(URL.self, forKey: .previous)
        total = container.decodeLeniently(Int.self, forKey: .total)
    }

    /// How many elements this page had, `null` and unreadable ones included.
    public var elementCount: Int { items.count + nullCount + undecodableCount }
}
