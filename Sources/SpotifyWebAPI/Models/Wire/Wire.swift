package import Foundation
package import JSONReading

// Each model the client reads states its wire keys and what each member's value is once, in its
// `Fields` statement: a `CodingKeys` enum, and one `read(_:from:)` switch over it. Both ways of
// reading a document run that one statement: `init(from:)` over any `Decoder` (``DecoderPath``),
// and the client's fast path over the document's bytes (``FastValue``, on ``JSONReader``). A field
// added to a model is one case and one line; the two paths cannot disagree on which keys there are.

/// A JSON object's member names: the raw values are the wire keys.
package protocol WireKey: CodingKey, CaseIterable, RawRepresentable, Sendable
where RawValue == String, AllCases == [Self] {
    /// The names as bytes, made once per enum: `static let table = WireKeyTable<Self>()`.
    static var table: WireKeyTable<Self> { get }
}

/// A ``WireKey`` enum's names as bytes, for finding a member's key without making a `String`:
/// an open-addressed hash table on a name's length and first and last bytes, so a member the
/// model does not read (most of what Spotify sends) is usually turned away by one empty slot.
///
/// Made once per enum and never freed (a `static let`), so it holds plain pointers: reading it
/// costs no reference counting, once per object of every page.
package struct WireKeyTable<Key: WireKey>: @unchecked Sendable {
    private static var slotCount: Int { 128 }
    private let keys: UnsafeMutableBufferPointer<Key>
    /// Every name's bytes, one after another.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Where each name starts in ``bytes``, and where the last one ends.
    private let starts: UnsafeMutableBufferPointer<Int>
    /// Each slot's key position plus one; 0 for an empty slot.
    private let slots: UnsafeMutableBufferPointer<UInt8>

    /// The table of every case of `Key`.
    package init() {
        let cases = Key.allCases
        precondition(cases.count <= 64, "SeenKeys tells at most 64 keys apart")
        keys = .allocate(capacity: cases.count)
        _ = keys.initialize(from: cases)
        let names = cases.flatMap(\.rawValue.utf8)
        bytes = .allocate(capacity: max(names.count, 1))
        _ = bytes.initialize(from: names)
        starts = .allocate(capacity: cases.count + 1)
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0)
        var offset = 0
        for (position, key) in cases.enumerated() {
            let name = Array(key.rawValue.utf8)
            starts[position] = offset
            offset += name.count
            var slot = Self.slot(count: name.count, first: name.first ?? 0, last: name.last ?? 0)
            while slots[slot] != 0 { slot = (slot + 1) % Self.slotCount }
            slots[slot] = UInt8(position + 1)
        }
        starts[cases.count] = offset
    }

    @inline(__always)
    private static func slot(count: Int, first: UInt8, last: UInt8) -> Int {
        (count &* 31 &+ Int(first) &* 7 &+ Int(last)) & (slotCount - 1)
    }

    /// The key named `name` and its position among the cases; `nil` for a name the enum lacks.
    @inline(__always)
    func find(_ name: JSONReader.Key) -> (key: Key, position: Int)? {
        let count = name.count
        let first = count > 0 ? name.start[0] : 0
        let last = count > 0 ? name.start[count - 1] : 0
        var slot = Self.slot(count: count, first: first, last: last)
        while case let entry = slots[slot], entry != 0 {
            let position = Int(entry) - 1
            let start = starts[position]
            if starts[position + 1] - start == count {
                var offset = 0
                while offset < count, bytes[start + offset] == name.start[offset] { offset += 1 }
                if offset == count { return (keys[position], position) }
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return nil
    }
}

/// One JSON object as a model reads it: the fields before any member, and what each member adds.
package protocol WireObject {
    /// The member names this object reads; any other member is skipped.
    associatedtype CodingKeys: WireKey
    /// The fields of an object with none of the keys.
    init()
    /// Reads the value of member `key`, which it must consume whatever it is.
    mutating func read(_ key: CodingKeys, from value: inout some WireValue) throws(JSONReader.Declined)
}

/// A model read through a ``WireObject`` statement.
package protocol WireModel: Decodable, Sendable {
    /// The statement of the model's members.
    associatedtype Fields: WireObject
    /// The model the fields make; `nil` when they make none (a required member missing or of
    /// another type), which fails `init(from:)` and makes an element of a page undecodable.
    init?(wire fields: Fields)
}

extension WireModel {
    /// `init(from:)` through the statement: the decoder's object, member by member.
    package static func decoded(from decoder: any Decoder) throws -> Self {
        // Anything but an object fails here, in JSONDecoder's words.
        let container = try decoder.container(keyedBy: Fields.CodingKeys.self)
        var fields = Fields()
        guard DecoderPath.members(of: container, into: &fields), let model = Self(wire: fields) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "A \(Self.self) needs a member that is missing or of another type."))
        }
        return model
    }
}

/// One element of an array, as ``WireValue/elements(of:_:)`` hands it over.
package enum WireElement<Object: WireObject> {
    case null
    /// A string, number, boolean or array.
    case notObject
    case object(Object)
}

/// The value of one member or element, as a statement reads it: each read consumes the value, and
/// reads it leniently (`nil` for a value of another type), as `decodeLeniently` does.
package protocol WireValue {
    /// Consumes a `null` if that is the value; `true` when it did.
    mutating func null() throws(JSONReader.Declined) -> Bool
    /// A string, or `nil` for anything else.
    mutating func string() throws(JSONReader.Declined) -> String?
    /// A string as it stands in the document (no `String` made where the path can avoid it).
    mutating func rawString() throws(JSONReader.Declined) -> JSONReader.RawString?
    /// `decodeIfPresent(String.self)`: the string, `nil` for `null`, and `wellTyped: false` for any
    /// other type (which fails a synthesized `Decodable` around it).
    mutating func optionalString() throws(JSONReader.Declined) -> (value: String?, wellTyped: Bool)
    /// `decodeIfPresent(Int.self)`, with `wellTyped` as in ``optionalString()``.
    mutating func optionalInt() throws(JSONReader.Declined) -> (value: Int?, wellTyped: Bool)
    /// `true` or `false`, or `nil` for anything else.
    mutating func bool() throws(JSONReader.Declined) -> Bool?
    /// A date in the `.iso8601` form, or `nil` for a value that is not a string.
    mutating func date() throws(JSONReader.Declined) -> Date?
    /// Reads the object's members into `fields`, in place; `false` (the value consumed) when the
    /// value is not an object. In place, because an item's fields are large and a page has fifty.
    mutating func object<Object: WireObject>(into fields: inout Object) throws(JSONReader.Declined) -> Bool
    /// Hands each element of an array to `each`; `false` when the value is not an array.
    mutating func elements<Object: WireObject>(
        of type: Object.Type, _ each: (WireElement<Object>) -> Void
    ) throws(JSONReader.Declined) -> Bool
    /// A paging object's `items`, or `nil` when the value is neither an array nor `null`.
    mutating func pageItems<Item: Decodable & Sendable>(_ type: Item.Type) throws(JSONReader.Declined) -> PageItems<
        Item
    >?

    /// `text`, as the copy the document read first when it read the same text before.
    mutating func interned(_ text: String?) -> String?
    /// `text` as a URL: the one made before for the same text, where the path keeps them.
    mutating func internedURL(_ text: String) -> URL?
    /// An album's covers, the list read before for the same album when it is equal.
    mutating func covers(_ images: [SpotifyImage], album: String?) -> [SpotifyImage]
}

/// A paging object's elements: the ones read, and how many were `null` or unreadable.
package struct PageItems<Item> {
    var items: [Item] = []
    var nullCount = 0
    var undecodableCount = 0
}

extension WireValue {
    package mutating func interned(_ text: String?) -> String? { text }
    package mutating func internedURL(_ text: String) -> URL? { URL(string: text) }
    package mutating func covers(_ images: [SpotifyImage], album: String?) -> [SpotifyImage] { images }

    /// The object's fields, or `nil` when the value is not an object.
    mutating func object<Object: WireObject>(_ type: Object.Type) throws(JSONReader.Declined) -> Object? {
        var fields = Object()
        return try object(into: &fields) ? fields : nil
    }

    /// ``string()``, kept once per document: an album's and its artists' IDs repeat on each track.
    mutating func internedString() throws(JSONReader.Declined) -> String? {
        interned(try string())
    }

    /// ``optionalString()``, kept once per document: an album's and its artists' names repeat on
    /// each track.
    mutating func internedOptionalString() throws(JSONReader.Declined) -> (value: String?, wellTyped: Bool) {
        let read = try optionalString()
        return (interned(read.value), read.wellTyped)
    }

    /// An integer, or `nil` for anything else.
    mutating func int() throws(JSONReader.Declined) -> Int? { try optionalInt().value }

    /// A string that is a URL, or `nil`.
    mutating func url() throws(JSONReader.Declined) -> URL? {
        try string().flatMap { URL(string: $0) }
    }

    /// A Spotify ID: a string that is a valid ID, or `nil`; from the document's bytes where it can.
    mutating func id() throws(JSONReader.Declined) -> SpotifyID? {
        switch try rawString() {
        case .bytes(let bytes): SpotifyID(characters: bytes)
        case .text(let text): SpotifyID.isValid(text) ? SpotifyID(unchecked: text) : nil
        case nil: nil
        }
    }

    /// A model's value, or `nil` when it is not an object or its fields make none.
    mutating func model<Model: WireModel>(_ type: Model.Type) throws(JSONReader.Declined) -> Model? {
        try object(Model.Fields.self).flatMap(Model.init(wire:))
    }

    /// `decodeLeniently([SpotifyImage].self) ?? []`: the images, or `[]` when the value is not an
    /// array or any element is not an image (one bad element fails the whole array, as in
    /// `JSONDecoder`).
    mutating func images() throws(JSONReader.Declined) -> [SpotifyImage] {
        var images: [SpotifyImage] = []
        var valid = true
        let isArray = try elements(of: SpotifyImage.Fields.self) { element in
            if case .object(let fields) = element, valid, let image = SpotifyImage(wire: fields) {
                images.append(image)
            } else {
                valid = false
            }
        }
        return isArray && valid ? images : []
    }

    /// The string member of a small object Spotify wraps one string in (`{"id": …}`,
    /// `{"spotify": …}`); `nil` also when the value is not an object or the member has another
    /// type, which fails such a wrapper.
    mutating func member<Key: WireKey>(_ key: Key.Type) throws(JSONReader.Declined) -> String? {
        guard let wrapper = try object(StringMember<Key>.self), wrapper.wellTyped else { return nil }
        return wrapper.value
    }
}

/// An object holding one string member, the only case of `Key`.
struct StringMember<Key: WireKey>: WireObject {
    typealias CodingKeys = Key
    var value: String?
    var wellTyped = true

    mutating func read(_ key: Key, from value: inout some WireValue) throws(JSONReader.Declined) {
        (self.value, wellTyped) = try value.optionalString()
    }
}

/// A response holding one required page under `Key`'s one case (`{"tracks": {…}}`), the shape of
/// a search's answer.
package struct SinglePage<Key: WireKey, Item: FastPageItem>: WireObject {
    package typealias CodingKeys = Key
    var page: Page<Item>?

    package init() {}

    package mutating func read(_ key: Key, from value: inout some WireValue) throws(JSONReader.Declined) {
        page = try value.model(Page<Item>.self)
    }
}
