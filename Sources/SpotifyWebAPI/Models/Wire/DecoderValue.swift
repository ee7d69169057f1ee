import Foundation
import JSONReading

/// A value inside any `Decoder`, read as a statement reads it: the `init(from:)` path, for a
/// document's top and an array's elements. It never declines; a value of another type is `nil`,
/// as `decodeLeniently` makes it.
struct DecoderValue: WireValue {
    private let decoder: any Decoder

    init(_ decoder: any Decoder) {
        self.decoder = decoder
    }

    private func single<T: Decodable>(_ type: T.Type) -> T? {
        try? decoder.singleValueContainer().decode(T.self)
    }

    func null() -> Bool {
        (try? decoder.singleValueContainer().decodeNil()) ?? false
    }

    func string() -> String? { single(String.self) }

    func rawString() -> JSONReader.RawString? { single(String.self).map { .text($0) } }

    func optionalString() -> (value: String?, wellTyped: Bool) {
        if null() { return (nil, true) }
        return single(String.self).map { ($0, true) } ?? (nil, false)
    }

    func optionalInt() -> (value: Int?, wellTyped: Bool) {
        if null() { return (nil, true) }
        return single(Int.self).map { ($0, true) } ?? (nil, false)
    }

    func bool() -> Bool? { single(Bool.self) }

    func date() -> Date? { single(Date.self) }

    func object<Object: WireObject>(into fields: inout Object) -> Bool {
        guard let container = try? decoder.container(keyedBy: Object.CodingKeys.self) else { return false }
        return Self.members(of: container, into: &fields)
    }

    /// Reads `container`'s members into `fields`: every present key of the statement, each once,
    /// straight from the container (a `superDecoder` for each member cost a third of the speed).
    static func members<Object: WireObject>(
        of container: KeyedDecodingContainer<Object.CodingKeys>, into fields: inout Object
    ) -> Bool {
        for key in container.allKeys {
            var value = MemberValue(container: container, key: key)
            // A `MemberValue` never declines, so this `try` never throws.
            guard (try? fields.read(key, from: &value)) != nil else { return false }
        }
        return true
    }

    func elements<Object: WireObject>(of type: Object.Type, _ each: (WireElement<Object>) -> Void) -> Bool {
        guard var array = try? decoder.unkeyedContainer() else { return false }
        return Self.elements(of: &array, each)
    }

    /// Hands each element of `array` to `each`.
    static func elements<Object: WireObject>(
        of array: inout any UnkeyedDecodingContainer, _ each: (WireElement<Object>) -> Void
    ) -> Bool {
        while !array.isAtEnd {
            if (try? array.decodeNil()) == true {
                each(.null)
                continue
            }
            guard let element = try? array.superDecoder() else { return false }
            var fields = Object()
            each(DecoderValue(element).object(into: &fields) ? .object(fields) : .notObject)
        }
        return true
    }

    func pageItems<Item: Decodable & Sendable>(_ type: Item.Type) -> PageItems<Item>? {
        if null() { return PageItems() }
        return single([LenientElement<Item>].self).map { PageItems(elements: $0) }
    }
}

/// One member of a keyed container, read as a statement reads it (the `init(from:)` path).
private struct MemberValue<Key: CodingKey>: WireValue {
    let container: KeyedDecodingContainer<Key>
    let key: Key

    private func decoded<T: Decodable>(_ type: T.Type) -> T? {
        try? container.decode(T.self, forKey: key)
    }

    func null() -> Bool { (try? container.decodeNil(forKey: key)) ?? false }

    func string() -> String? { decoded(String.self) }

    func rawString() -> JSONReader.RawString? { decoded(String.self).map { .text($0) } }

    func optionalString() -> (value: String?, wellTyped: Bool) {
        if null() { return (nil, true) }
        return decoded(String.self).map { ($0, true) } ?? (nil, false)
    }

    func optionalInt() -> (value: Int?, wellTyped: Bool) {
        if null() { return (nil, true) }
        return decoded(Int.self).map { ($0, true) } ?? (nil, false)
    }

    func bool() -> Bool? { decoded(Bool.self) }

    func date() -> Date? { decoded(Date.self) }

    func object<Object: WireObject>(into fields: inout Object) -> Bool {
        guard let nested = try? container.nestedContainer(keyedBy: Object.CodingKeys.self, forKey: key) else {
            return false
        }
        return DecoderValue.members(of: nested, into: &fields)
    }

    func elements<Object: WireObject>(of type: Object.Type, _ each: (WireElement<Object>) -> Void) -> Bool {
        guard let nested = try? container.nestedUnkeyedContainer(forKey: key) else { return false }
        var array: any UnkeyedDecodingContainer = nested
        return DecoderValue.elements(of: &array, each)
    }

    func pageItems<Item: Decodable & Sendable>(_ type: Item.Type) -> PageItems<Item>? {
        if null() { return PageItems() }
        return decoded([LenientElement<Item>].self).map { PageItems(elements: $0) }
    }
}

extension PageItems where Item: Decodable {
    /// The elements read, and how many were `null` or unreadable.
    init(elements: [LenientElement<Item>]) {
        items.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .item(let item): items.append(item)
            case .null: nullCount += 1
            case .undecodable: undecodableCount += 1
            }
        }
    }
}
