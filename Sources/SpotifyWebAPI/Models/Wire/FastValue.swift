package import Foundation
package import JSONReading

/// A response the client can read with ``JSONReader`` before falling back to `JSONDecoder`.
///
/// Both paths run the model's one statement (``WireModel/Fields``); `FastDecodingTests` and the
/// `fast-decoding` fuzz target hold the two value sources to the same answers.
package protocol FastDecodable: Decodable {
    /// Reads one value of this type from the document; declines where `init(from:)` would throw.
    static func read(_ value: inout FastValue) throws(JSONReader.Declined) -> Self
}

/// An element of a paging object that the fast path reads.
package protocol FastPageItem: WireModel {
    /// A page's elements of this type, typed `Any`: a page whose item type is known only at run
    /// time makes one dynamic call, and reads its elements by code specialized for the type.
    /// Each conformance writes `try value.items(Self.self).map { $0 as Any }`: a default
    /// implementation would be one generic body for all, and read every element unspecialized
    /// (measured: 214 MB/s against 333).
    static func readPageItems(_ value: inout FastValue) throws(JSONReader.Declined) -> Any?
}

extension FastDecodable where Self: WireModel {
    package static func read(_ value: inout FastValue) throws(JSONReader.Declined) -> Self {
        // Anything `init(from:)` would throw for is left to JSONDecoder, which words the error.
        guard let model = try value.model(Self.self) else { throw JSONReader.Declined() }
        return model
    }
}

extension FastDecodable {
    /// The value in `data`, or `nil` when the fast reader declines it.
    package static func fastDecoded(from data: Data) -> Self? {
        data.withUnsafeBytes { bytes -> Self? in
            do {
                var value = FastValue(try JSONReader(bytes))
                let model = try read(&value)
                try value.reader.finish()
                return model
            } catch {
                return nil
            }
        }
    }
}

/// Decodes a response body the way the client does: the fast reader for the paging objects it
/// knows, `JSONDecoder` (with ``makeSpotifyDecoder()``) for everything else and for any document
/// the fast reader declines.
package func decodeSpotifyResponse<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    if let fast = T.self as? any FastDecodable.Type, let value = fast.fastDecoded(from: data) as? T {
        return value
    }
    return try makeSpotifyDecoder().decode(T.self, from: data)
}

/// The value at a ``JSONReader``'s position, read as a statement reads it: the client's fast path.
/// It declines (throws) wherever it is not certain to read what `JSONDecoder` would, and keeps one
/// copy of what a page repeats.
package struct FastValue: WireValue {
    /// The document.
    var reader: JSONReader
    /// URLs already read in this document, by their text: a page repeats its albums' cover URLs
    /// once per track, and one `URL` each instead of one per track keeps a long fetch smaller.
    private var internedURLs: [String: URL] = [:]
    /// Album and artist names and IDs already read in this document, by value: the tracks of one
    /// album repeat them, and one copy each is kept.
    private var internedStrings: Set<String> = []
    /// Each album's cover list as first read in this document, by album ID: a later track of the
    /// album whose list is equal shares it. (Finding equal lists by hashing them instead cost a
    /// tenth of the decoding speed.)
    private var albumCovers: [String: [SpotifyImage]] = [:]

    /// A reader over the document `reader` reads.
    package init(_ reader: JSONReader) {
        self.reader = reader
    }

    package mutating func null() throws(JSONReader.Declined) -> Bool { try reader.skipNull() }
    package mutating func string() throws(JSONReader.Declined) -> String? { try reader.lenientString() }
    package mutating func rawString() throws(JSONReader.Declined) -> JSONReader.RawString? {
        try reader.lenientRawString()
    }
    package mutating func optionalString() throws(JSONReader.Declined) -> (value: String?, wellTyped: Bool) {
        try reader.optionalString()
    }
    package mutating func optionalInt() throws(JSONReader.Declined) -> (value: Int?, wellTyped: Bool) {
        try reader.optionalInt()
    }
    package mutating func bool() throws(JSONReader.Declined) -> Bool? { try reader.lenientBool() }
    package mutating func date() throws(JSONReader.Declined) -> Date? { try reader.lenientDate() }

    package mutating func object<Object: WireObject>(into fields: inout Object) throws(JSONReader.Declined) -> Bool {
        guard try reader.peek() == .object else {
            try reader.skipValue()
            return false
        }
        try reader.openObject()
        let table = Object.CodingKeys.table
        var seen = SeenKeys()
        var first = true
        while let name = try reader.nextMember(&first) {
            if let (key, position) = table.find(name) {
                // A repeated key: JSONDecoder keeps one of the two, and which is its own business.
                try seen.insert(position)
                try fields.read(key, from: &self)
            } else {
                try reader.skipValue()
            }
        }
        return true
    }

    package mutating func elements<Object: WireObject>(
        of type: Object.Type, _ each: (WireElement<Object>) -> Void
    ) throws(JSONReader.Declined) -> Bool {
        guard try reader.peek() == .array else {
            try reader.skipValue()
            return false
        }
        try reader.openArray()
        var first = true
        while try reader.nextElement(&first) {
            if try reader.skipNull() {
                each(.null)
            } else {
                var fields = Object()
                each(try object(into: &fields) ? .object(fields) : .notObject)
            }
        }
        return true
    }

    package mutating func pageItems<Item: Decodable & Sendable>(
        _ type: Item.Type
    ) throws(JSONReader.Declined) -> PageItems<Item>? {
        // Items the fast path cannot read leave the page to JSONDecoder.
        guard let known = Item.self as? any FastPageItem.Type else { throw JSONReader.Declined() }
        guard let read = try known.readPageItems(&self) else { return nil }
        guard let items = read as? PageItems<Item> else { preconditionFailure("\(Item.self) read as another type") }
        return items
    }

    /// `items` as an array of `Item`: absent or `null` is an empty page, anything else not an array
    /// fails the page.
    mutating func items<Item: FastPageItem>(_ type: Item.Type) throws(JSONReader.Declined) -> PageItems<Item>? {
        var page = PageItems<Item>()
        if try reader.skipNull() { return page }
        guard try reader.peek() == .array else {
            try reader.skipValue()
            return nil
        }
        // The loop of `elements(of:_:)`, written out: handing each element's fields to a closure
        // copied them, a dozen references each.
        try reader.openArray()
        var first = true
        while try reader.nextElement(&first) {
            if try reader.skipNull() {
                page.nullCount += 1
                continue
            }
            var fields = Item.Fields()
            if try object(into: &fields), let item = Item(wire: fields) {
                page.items.append(item)
            } else {
                page.undecodableCount += 1
            }
        }
        return page
    }

    package mutating func interned(_ text: String?) -> String? {
        guard let text else { return nil }
        return internedStrings.insert(text).memberAfterInsert
    }

    package mutating func internedURL(_ text: String) -> URL? {
        if let known = internedURLs[text] { return known }
        let made = URL(string: text)
        internedURLs[text] = made
        return made
    }

    package mutating func covers(_ images: [SpotifyImage], album: String?) -> [SpotifyImage] {
        guard let album, !images.isEmpty else { return images }
        if let first = albumCovers[album], first == images { return first }
        albumCovers[album] = images
        return images
    }
}
