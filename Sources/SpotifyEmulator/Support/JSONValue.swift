package import Foundation

/// A JSON document the emulator builds its responses from: ordered keys, explicit nulls, and the
/// `fields` filter of the Web API applied on the tree.
///
/// The emulator writes its own JSON instead of encoding the client's models, so that it stays an
/// independent judge of the client.
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The serialized bytes.
    package var data: Data {
        var out = [UInt8]()
        out.reserveCapacity(256)
        write(into: &out)
        return Data(out)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): Self.writeInteger(value, into: &out)
        case .double(let value): out += Array((value.isFinite ? String(value) : "null").utf8)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// An integer's decimal digits, written in place (no `String` made for each of a page's
    /// thousands of numbers).
    private static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    private static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole (the per-byte loop was the largest part of
        // the emulator's time serving a 76 KB page).
        let copied = value.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 0x0A: out += [92, 110]
            case 0x0D: out += [92, 114]
            case 0x09: out += [92, 116]
            case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// A parsed `fields` selection, such as `items(added_at,item(name,duration_ms)),next,total`.
package struct FieldSelection: Sendable, Equatable {
    /// Selected keys and, for each, the selection inside it (`nil` = the whole value).
    package var keys: [(String, FieldSelection?)]

    package static func == (lhs: FieldSelection, rhs: FieldSelection) -> Bool {
        lhs.keys.map(\.0) == rhs.keys.map(\.0) && lhs.keys.map(\.1) == rhs.keys.map(\.1)
    }

    /// Parses Spotify's syntax; `nil` when it is malformed (unbalanced parentheses, empty names).
    package static func parse(_ text: String) -> FieldSelection? {
        var index = text.startIndex
        guard let selection = parseList(text, &index), index == text.endIndex else { return nil }
        return selection
    }

    private static func parseList(_ text: String, _ index: inout String.Index) -> FieldSelection? {
        var keys: [(String, FieldSelection?)] = []
        while index < text.endIndex {
            var name = ""
            while index < text.endIndex, !",()".contains(text[index]) {
                name.append(text[index])
                index = text.index(after: index)
            }
            name = name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            var nested: FieldSelection?
            if index < text.endIndex, text[index] == "(" {
                index = text.index(after: index)
                guard let inner = parseList(text, &index), index < text.endIndex, text[index] == ")" else { return nil }
                index = text.index(after: index)
                nested = inner
            }
            // `a.b(c)` is `a(b(c))`.
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else { return nil }
            for segment in path.dropFirst().reversed() { nested = FieldSelection(keys: [(segment, nested)]) }
            keys.append((path[0], nested))
            if index < text.endIndex, text[index] == "," {
                index = text.index(after: index)
                continue
            }
            break
        }
        return keys.isEmpty ? nil : FieldSelection(keys: keys)
    }

    /// Keeps only the selected keys; arrays are filtered element by element. At the top level a key
    /// missing from the value may be answered from its alias (`tracks` from `items`).
    package func apply(to value: JSONValue, aliases: [String: String] = [:]) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map { apply(to: $0) })
        case .object(let pairs):
            var kept: [(String, JSONValue)] = []
            for (key, nested) in keys {
                guard
                    let found = pairs.first(where: { $0.0 == key })
                        ?? aliases[key].flatMap({ alias in pairs.first { $0.0 == alias } })
                else { continue }
                kept.append((key, nested.map { $0.apply(to: found.1) } ?? found.1))
            }
            return .object(kept)
        default: return value
        }
    }
}
