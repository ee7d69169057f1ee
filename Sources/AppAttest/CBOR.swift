/// A CBOR value (RFC 8949), as far as App Attest's objects use CBOR: integers, byte and text
/// strings, arrays, maps and the simple values. Floats, tags and indefinite lengths are refused:
/// App Attest never sends them, and a reader that accepts less can be wrong about less.
package enum CBOR: Sendable, Hashable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1): `-1 - n`, kept as `n` so the whole range fits.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A text string (major type 3), valid UTF-8.
    case text(String)
    /// An array (major type 4).
    case array([CBOR])
    /// A map (major type 5), in the order written; keys are unique.
    case map([(key: CBOR, value: CBOR)])
    /// `false` or `true`.
    case bool(Bool)
    /// `null`.
    case null
    /// `undefined`.
    case undefined

    /// The value under `key` (a text key) in a map; `nil` for another value or a missing key.
    package subscript(_ key: String) -> CBOR? {
        self[.text(key)]
    }

    /// The value under `key` in a map; `nil` for another value or a missing key.
    package subscript(_ key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The bytes of a byte string.
    package var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The text of a text string.
    package var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The elements of an array.
    package var array: [CBOR]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// An integer's value, when it fits an `Int`.
    package var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    package static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value): hasher.combine(0); hasher.combine(value)
        case .negative(let value): hasher.combine(1); hasher.combine(value)
        case .bytes(let value): hasher.combine(2); hasher.combine(value)
        case .text(let value): hasher.combine(3); hasher.combine(value)
        case .array(let value): hasher.combine(4); hasher.combine(value)
        case .map(let pairs):
            hasher.combine(5)
            hasher.combine(pairs.count)
            for pair in pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
        case .bool(let value): hasher.combine(7); hasher.combine(value)
        case .null: hasher.combine(8)
        case .undefined: hasher.combine(9)
        }
    }
}

/// Why bytes are not one well-formed CBOR value the reader takes.
package struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, and where.
    package var description: String
    /// The byte offset of the item that was refused.
    package var offset: Int

    init(_ description: String, at offset: Int) {
        self.description = "\(description) (byte \(offset))"
        self.offset = offset
    }
}

extension CBOR {
    /// The limits a decode holds to: an attacker's bytes never make it allocate or recurse
    /// beyond them.
    package struct Limits: Sendable {
        /// How deep arrays and maps may nest.
        package var depth = 16
        /// How many items (every value, key and element) one decode reads in all.
        package var items = 4096

        /// The defaults: far above what App Attest sends (an attestation is 3 levels, about 20
        /// items), far below what could hurt.
        package init() {}
    }

    /// Decodes exactly one CBOR value filling `bytes`.
    /// - Throws: ``CBORError`` for truncated or trailing bytes, a float, tag or indefinite length,
    ///   invalid UTF-8, a duplicate map key, a non-shortest length, or a limit passed.
    package init(decoding bytes: some Collection<UInt8>, limits: Limits = Limits()) throws(CBORError) {
        let (value, length) = try Self.prefix(of: bytes, limits: limits)
        guard length == bytes.count else {
            throw CBORError("\(bytes.count - length) bytes after the value", at: length)
        }
        self = value
    }

    /// Decodes the one CBOR value at the start of `bytes`, and how many bytes it took: for a value
    /// that other bytes follow (the authenticator data's key, then its extensions).
    /// - Throws: ``CBORError`` as ``init(decoding:limits:)`` does, bytes after the value aside.
    package static func prefix(of bytes: some Collection<UInt8>, limits: Limits = Limits()) throws(CBORError) -> (
        value: CBOR, length: Int
    ) {
        var reader = CBORReader(bytes: Array(bytes), limits: limits)
        let value = try reader.value(depth: 0)
        return (value, reader.offset)
    }
}

/// Reads CBOR items from bytes, bounded by ``CBOR/Limits``.
private struct CBORReader {
    let bytes: [UInt8]
    let limits: CBOR.Limits
    var offset = 0
    var items = 0

    init(bytes: [UInt8], limits: CBOR.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func value(depth: Int) throws(CBORError) -> CBOR {
        let start = offset
        items += 1
        guard items <= limits.items else { throw CBORError("more than \(limits.items) items", at: start) }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 25, 26, 27: throw CBORError("a float", at: start)
            case 31: throw CBORError("a break outside an indefinite-length item", at: start)
            default: throw CBORError("simple value \(info)", at: start)
            }
        }
        guard info != 31 else { throw CBORError("an indefinite length", at: start) }
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument, at: start))
        case 3:
            let raw = try take(argument, at: start)
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw CBORError("text that is not UTF-8", at: start)
            }
            return .text(text)
        case 4:
            guard depth < limits.depth else { throw CBORError("nesting deeper than \(limits.depth)", at: start) }
            let count = try self.count(argument, perItem: 1, at: start)
            var elements: [CBOR] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
            return .array(elements)
        case 5:
            guard depth < limits.depth else { throw CBORError("nesting deeper than \(limits.depth)", at: start) }
            let count = try self.count(argument, perItem: 2, at: start)
            var pairs: [(key: CBOR, value: CBOR)] = []
            pairs.reserveCapacity(count)
            var keys = Set<CBOR>()
            for _ in 0..<count {
                let keyOffset = offset
                let key = try value(depth: depth + 1)
                guard keys.insert(key).inserted else { throw CBORError("a duplicate map key", at: keyOffset) }
                pairs.append((key, try value(depth: depth + 1)))
            }
            return .map(pairs)
        default:
            throw CBORError("a tag", at: start)
        }
    }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw CBORError("the data ends inside an item", at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The item's argument; a longer encoding than needed is refused (deterministic encoding), so
    /// one value has one spelling.
    mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0...23: return UInt64(info)
        case 24...27:
            let length = 1 << Int(info - 24)
            var value: UInt64 = 0
            for _ in 0..<length { value = value << 8 | UInt64(try byte()) }
            let shortest: UInt64 = info == 24 ? 24 : 1 << (4 * length)
            guard value >= shortest else { throw CBORError("a length or number not in its shortest form", at: start) }
            return value
        default:
            throw CBORError("reserved additional information \(info)", at: start)
        }
    }

    /// `length` bytes from here, refused when fewer are left.
    mutating func take(_ length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        guard length <= UInt64(bytes.count - offset) else {
            throw CBORError("a string of \(length) bytes where \(bytes.count - offset) are left", at: start)
        }
        let end = offset + Int(length)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    /// An array's or map's count, refused when the bytes left cannot hold it (each item takes a
    /// byte at least) or it passes the item limit: no allocation from a claimed count alone.
    func count(_ claimed: UInt64, perItem: UInt64, at start: Int) throws(CBORError) -> Int {
        let left = UInt64(bytes.count - offset)
        guard claimed <= UInt64(limits.items) else {
            throw CBORError("\(claimed) entries, more than \(limits.items) items", at: start)
        }
        guard claimed <= left / perItem else {
            throw CBORError("\(claimed) entries where \(left) bytes are left", at: start)
        }
        return Int(claimed)
    }
}

extension CBOR {
    /// The value's encoding, each length in its shortest form and map entries in their order: the
    /// bytes ``init(decoding:limits:)`` reads back as this value. For any bytes the reader takes,
    /// decoding then encoding gives the same bytes (the fuzzer holds it to that).
    package var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let value): Self.head(0, value, into: &out)
        case .negative(let value): Self.head(1, value, into: &out)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            Self.head(3, UInt64(text.utf8.count), into: &out)
            out += text.utf8
        case .array(let elements):
            Self.head(4, UInt64(elements.count), into: &out)
            for element in elements { element.encode(into: &out) }
        case .map(let pairs):
            Self.head(5, UInt64(pairs.count), into: &out)
            for pair in pairs {
                pair.key.encode(into: &out)
                pair.value.encode(into: &out)
            }
        case .bool(let value): out.append(value ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xFF: out += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: out.append(type | 25); out += bigEndian(argument, bytes: 2)
        case 0x1_0000...0xFFFF_FFFF: out.append(type | 26); out += bigEndian(argument, bytes: 4)
        default: out.append(type | 27); out += bigEndian(argument, bytes: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
