import Foundation
import JSONReading

/// A value inside any `Decoder`, read as a statement reads it: the `init(from:)` path. It never
/// declines; a value of another type is `nil`, as `decodeLeniently` makes it.
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
        return members(of: container, into: &fields)
    }

    /// Reads `container`'s members into `fields`: every present key of the statement, each once.
    func members<Object: WireObject>(
        of container: KeyedDecodingContainer<Object.CodingKeys>, into fields: inout Object
    ) -> Bool {
        for key in container.allKeys {
            guard let member = try? container.superDecoder(forKey: key) else { return false }
            var value = DecoderValue(member)
            // A `DecoderValue` never declines, so this `try` never throws.
            guard (try? fields.read(key, from: &value)) != nil else { return false }
        }
        return true
    }

    func elements<Object: WireObject>(of type: Object.Type, _ each: (WireElement<Object>) -> Void) -> Bool {
        guard var array = try? decoder.unkeyedContainer() else { return false }
        while !array.isAtEnd {
            guard let element = try? array.superDecoder() else { return false }
            let value = DecoderValue(element)
            if value.null() {
                each(.null)
            } else {
                var fields = Object()
                each(value.object(into: &fields) ? .object(fields) : .notObject)
            }
        }
        return true
    }

    func pageItems<Item: Decodable & Sendable>(_ type: Item.Type) -> PageItems<Item>? {
        if null() { return PageItems() }
        guard let elements = single([LenientElement<Item>].self) else { return nil }
        var page = PageItems<Item>()
        page.items.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .item(let item): page.items.append(item)
            case .null: page.nullCount += 1
            case .undecodable: page.undecodableCount += 1
            }
        }
        return page
    }
}
