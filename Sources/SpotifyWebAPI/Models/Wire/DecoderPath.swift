import Foundation
import JSONReading

/// The `init(from:)` path's reading of a statement: an object's members straight from its keyed
/// container (``MemberValue``), and an array's elements through a decoder each. It never
/// declines; a value of another type is `nil`, as `decodeLeniently` makes it.
enum DecoderPath {
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
            if let container = try? element.container(keyedBy: Object.CodingKeys.self),
                members(of: container, into: &fields)
            {
                each(.object(fields))
            } else {
                each(.notObject)
            }
        }
        return true
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
        return DecoderPath.members(of: nested, into: &fields)
    }

    func elements<Object: WireObject>(of type: Object.Type, _ each: (WireElement<Object>) -> Void) -> Bool {
        guard let nested = try? container.nestedUnkeyedContainer(forKey: key) else { return false }
        var array: any UnkeyedDecodingContainer = nested
        return DecoderPath.elements(of: &array, each)
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
