public import Foundation
package import JSONReading

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
        self = try Self.decoded(from: decoder)
    }

    /// The statement of a paging object. `items` absent or `null` is an empty page; any other
    /// value that is not an array fails it.
    package struct Fields: WireObject {
        package typealias CodingKeys = PageKeys

        var href: URL?
        var items: PageItems<Item>? = PageItems()
        var limit: Int?
        var offset: Int?
        var next: URL?
        var previous: URL?
        var total: Int?

        package init() {}

        package mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined) {
            switch key {
            case .href: href = try value.url()
            case .items: items = try value.pageItems(Item.self)
            case .limit: limit = try value.int()
            case .offset: offset = try value.int()
            case .next: next = try value.url()
            case .previous: previous = try value.url()
            case .total: total = try value.int()
            }
        }
    }

    /// How many elements this page had, `null` and unreadable ones included.
    public var elementCount: Int { items.count + nullCount + undecodableCount }
}

extension Page: WireModel {
    package init?(wire fields: Fields) {
        guard let elements = fields.items else { return nil }
        self.init(
            items: elements.items, limit: 0, offset: fields.offset ?? 0, total: fields.total, next: fields.next,
            previous: fields.previous, href: fields.href)
        nullCount = elements.nullCount
        undecodableCount = elements.undecodableCount
        limit = fields.limit ?? elementCount
    }
}

extension Page: FastDecodable where Item: FastPageItem {}

/// A paging object's members (outside `Page`: a generic type has no stored static properties).
package enum PageKeys: String, WireKey {
    case href, items, limit, offset, next, previous, total
    package static let table = WireKeyTable<Self>()
}
