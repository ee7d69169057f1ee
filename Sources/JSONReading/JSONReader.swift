import Foundation

/// A forward-only, validating reader over the bytes of one JSON document: the tokenizer under the
/// Web API client's fast path for the paging objects it decodes most (entries, playlists, search
/// results). It knows JSON and `JSONDecoder`, nothing of Spotify.
///
/// It builds no tree: the caller asks for the members it knows and skips the rest. It is
/// deliberately stricter than `JSONDecoder`: anything it is not certain to read the way
/// `JSONDecoder` would (an escaped key, a fraction where an integer belongs, a date in another
/// form, a duplicated key it reads, nesting deeper than ``maximumDepth``, malformed JSON) makes it
/// throw ``Declined``, and the client decodes the same bytes with `JSONDecoder` instead. So the
/// fast path never changes a result; it only skips work when the document is ordinary.
package struct JSONReader {
    /// The reader gave up; the caller decodes the document with `JSONDecoder`.
    package struct Declined: Error {
        @inlinable
        package init() {}
    }

    /// What the next value is.
    package enum Token: Equatable {
        case object, array, string, number, `true`, `false`, null
    }

    /// An object member's name: a view of the document's bytes, valid while the reader is.
    package struct Key {
        /// The name's first byte in the document.
        package let start: UnsafePointer<UInt8>
        /// The name's length in bytes.
        package let count: Int

        @usableFromInline
        init(start: UnsafePointer<UInt8>, count: Int) {
            self.start = start
            self.count = count
        }
    }

    /// Objects and arrays nested deeper than this are declined (`JSONDecoder` allows more), which
    /// bounds the skipper's recursion.
    package static let maximumDepth = 64

    @usableFromInline
    let base: UnsafePointer<UInt8>
    @usableFromInline
    let end: Int
    @usableFromInline
    var index = 0
    @usableFromInline
    var depth = 0
    /// A reader over `bytes`, which must stay valid while the reader is used.
    /// - Throws: ``Declined`` for an empty document.
    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer) throws(Declined) {
        guard let address = bytes.baseAddress, !bytes.isEmpty else { throw Declined() }
        base = address.assumingMemoryBound(to: UInt8.self)
        end = bytes.count
    }

    /// The byte at `position`, or 0 past the end (0 is never valid where a byte is expected).
    @inline(__always)
    @usableFromInline
    func byte(_ position: Int) -> UInt8 {
        position < end ? base[position] : 0
    }

    @inline(__always)
    @usableFromInline
    mutating func skipWhitespace() {
        while true {
            switch byte(index) {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The kind of the next value, after whitespace.
    @inline(__always)
    @inlinable
    package mutating func peek() throws(Declined) -> Token {
        skipWhitespace()
        switch byte(index) {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"): return .true
        case UInt8(ascii: "f"): return .false
        case UInt8(ascii: "n"): return .null
        default: throw Declined()
        }
    }

    /// Checks that only whitespace follows the document's one value.
    @inlinable
    package mutating func finish() throws(Declined) {
        skipWhitespace()
        guard index == end else { throw Declined() }
    }

    // MARK: Objects and arrays

    /// Enters the object that ``peek()`` reported; read its members with ``nextMember(_:)``.
    @inlinable
    package mutating func openObject() throws(Declined) {
        try enter(UInt8(ascii: "{"))
    }

    /// Enters the array that ``peek()`` reported; step through it with ``nextElement(_:)``.
    @inlinable
    package mutating func openArray() throws(Declined) {
        try enter(UInt8(ascii: "["))
    }

    @usableFromInline
    mutating func enter(_ opening: UInt8) throws(Declined) {
        guard byte(index) == opening, depth < Self.maximumDepth else { throw Declined() }
        index += 1
        depth += 1
    }

    /// The next member's name, positioned at its value (which the caller must read or skip);
    /// `nil` after the closing brace. `first` starts `true` for each object.
    @inlinable
    package mutating func nextMember(_ first: inout Bool) throws(Declined) -> Key? {
        guard try advance(&first, closing: UInt8(ascii: "}")) else { return nil }
        guard byte(index) == UInt8(ascii: "\"") else { throw Declined() }
        index += 1
        let start = index
        let ascii = try scanString()
        // An escaped name could spell a known key another way: let JSONDecoder read it.
        guard byte(index) == UInt8(ascii: "\"") else { throw Declined() }
        let key = Key(start: base + start, count: index - start)
        if !ascii { try Self.validateUTF8(UnsafeBufferPointer(start: key.start, count: key.count)) }
        index += 1
        skipWhitespace()
        guard byte(index) == UInt8(ascii: ":") else { throw Declined() }
        index += 1
        return key
    }

    /// Whether there is another element, positioned at it; `false` after the closing bracket.
    @inlinable
    package mutating func nextElement(_ first: inout Bool) throws(Declined) -> Bool {
        try advance(&first, closing: UInt8(ascii: "]"))
    }

    /// Steps over the separator before the next member or element; `false` at `closing`.
    @usableFromInline
    mutating func advance(_ first: inout Bool, closing: UInt8) throws(Declined) -> Bool {
        skipWhitespace()
        // A closing bracket here follows an opening one or a value: after a comma the caller reads
        // a value or a name, so `[1,]` and `{"a":1,}` are declined there.
        if byte(index) == closing {
            index += 1
            depth -= 1
            return false
        }
        if first {
            first = false
        } else {
            guard byte(index) == UInt8(ascii: ",") else { throw Declined() }
            index += 1
            skipWhitespace()
        }
        return true
    }

    // MARK: Scalars

    /// A string as it stands in the document: its bytes when it has no escapes (a view, valid
    /// while the reader is, already checked as UTF-8), else the text the escapes make.
    package enum RawString {
        case bytes(UnsafeBufferPointer<UInt8>)
        case text(String)

        /// The string.
        package var string: String {
            switch self {
            case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
            case .text(let text): text
            }
        }

        /// Whether the string begins with `prefix` (ASCII), without making it.
        @inlinable
        package func starts(with prefix: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            switch self {
            case .bytes(let bytes): return bytes.starts(with: expected)
            case .text(let text): return text.utf8.starts(with: expected)
            }
        }
    }

    /// Reads the string that ``peek()`` reported.
    @inlinable
    package mutating func readString() throws(Declined) -> String {
        try readRawString().string
    }

    /// Reads the string that ``peek()`` reported, without making a `String` when it has no escapes.
    @inlinable
    package mutating func readRawString() throws(Declined) -> RawString {
        index += 1
        let start = index
        let ascii = try scanString()
        if byte(index) == UInt8(ascii: "\\") { return .text(try readEscapedString(from: start)) }
        let bytes = UnsafeBufferPointer(start: base + start, count: index - start)
        index += 1
        if !ascii { try Self.validateUTF8(bytes) }
        return .bytes(bytes)
    }

    /// The rest of a string that has escapes, from its first byte at `start`.
    @usableFromInline
    mutating func readEscapedString(from start: Int) throws(Declined) -> String {
        var bytes = [UInt8](UnsafeBufferPointer(start: base + start, count: index - start))
        while true {
            let current = byte(index)
            index += 1
            switch current {
            case UInt8(ascii: "\""):
                guard let text = Self.string(validatingUTF8: bytes) else { throw Declined() }
                return text
            case UInt8(ascii: "\\"):
                try appendEscape(to: &bytes)
            case 0..<0x20:
                throw Declined()
            default:
                bytes.append(current)
            }
        }
    }

    /// Decodes the escape after a backslash, appending its UTF-8 to `bytes`.
    @usableFromInline
    mutating func appendEscape(to bytes: inout [UInt8]) throws(Declined) {
        let letter = byte(index)
        index += 1
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            bytes.append(simple)
            return
        }
        guard letter == UInt8(ascii: "u") else { throw Declined() }
        var scalar = try readHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low one; a lone half is declined.
            guard byte(index) == UInt8(ascii: "\\"), byte(index + 1) == UInt8(ascii: "u") else { throw Declined() }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw Declined() }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw Declined()
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw Declined() }
        bytes.append(contentsOf: UTF8.encode(unicode)!)
    }

    @usableFromInline
    mutating func readHex4() throws(Declined) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let current = byte(index)
            let digit: UInt8
            switch current {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = current - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = current - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = current - UInt8(ascii: "A") + 10
            default: throw Declined()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Steps over a string, checking its escapes and its UTF-8 as ``readString()`` would.
    @usableFromInline
    mutating func skipString() throws(Declined) {
        index += 1
        let start = index
        let ascii = try scanString()
        if byte(index) == UInt8(ascii: "\\") {
            index = start - 1
            _ = try readString()
            return
        }
        if !ascii { try Self.validateUTF8(UnsafeBufferPointer(start: base + start, count: index - start)) }
        index += 1
    }

    /// Moves from inside a string to its closing quote or its first backslash, whichever comes
    /// first, and says whether every byte passed was ASCII.
    /// - Throws: ``Declined`` at a control character or the document's end.
    @inline(__always)
    @usableFromInline
    mutating func scanString() throws(Declined) -> Bool {
        var ascii = true
        while true {
            index = firstSpecialByte(from: index)
            let current = byte(index)
            if current == UInt8(ascii: "\"") || current == UInt8(ascii: "\\") { return ascii }
            guard current >= 0x20 else { throw Declined() }
            ascii = false
            index += 1
        }
    }

    /// The position of the first byte from `position` that a string scan must look at: a quote, a
    /// backslash, a control character or a non-ASCII byte; `end` when there is none. Eight bytes at a
    /// time: in each word, a byte's high bit is set where it is one of them (the usual
    /// has-a-zero-byte test; a borrow can only mark bytes above a marked one, so the lowest mark is
    /// right).
    @inline(__always)
    @usableFromInline
    func firstSpecialByte(from position: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = position
        while position + 8 <= end {
            // The first byte in memory is the word's lowest, on any machine.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let marks =
                (word & highs) | ((word &- ones &* 0x20) & ~word & highs)
                | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
            if marks != 0 { return position + marks.trailingZeroBitCount >> 3 }
            position += 8
        }
        while position < end {
            let current = base[position]
            if current == UInt8(ascii: "\"") || current == UInt8(ascii: "\\") || current < 0x20 || current >= 0x80 {
                return position
            }
            position += 1
        }
        return end
    }

    @usableFromInline
    static func validateUTF8(_ bytes: UnsafeBufferPointer<UInt8>) throws(Declined) {
        guard string(validatingUTF8: bytes) != nil else { throw Declined() }
    }

    /// `bytes` as text when they are valid UTF-8, else `nil`: `String(validating:as:)` where the
    /// system has it (iOS 18, macOS 15), the standard library's UTF-8 parser below.
    @usableFromInline
    static func string(validatingUTF8 bytes: some Collection<UInt8>) -> String? {
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        return stringBelowiOS18(validatingUTF8: bytes)
    }

    /// The path below iOS 18 and macOS 15, which every platform can run (the tests compare it with
    /// `String(validating:as:)`): the bytes are parsed as UTF-8 scalars, and any error refuses them.
    @inlinable
    package static func stringBelowiOS18(validatingUTF8 bytes: some Collection<UInt8>) -> String? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }

    /// Reads the number that ``peek()`` reported: its value when it is a plain integer of at most
    /// 18 digits (no fraction, no exponent, not `-0`), otherwise `nil` after checking its syntax.
    @usableFromInline
    mutating func readNumber() throws(Declined) -> Int? {
        var negative = false
        if byte(index) == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let digitsStart = index
        var value = 0
        switch byte(index) {
        case UInt8(ascii: "0"):
            index += 1
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            while case let digit = byte(index), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                if index - digitsStart < 18 { value = value &* 10 &+ Int(digit - UInt8(ascii: "0")) }
                index += 1
            }
        default:
            throw Declined()
        }
        var integral = index - digitsStart <= 18
        if byte(index) == UInt8(ascii: ".") {
            integral = false
            index += 1
            try skipDigits()
        }
        if byte(index) == UInt8(ascii: "e") || byte(index) == UInt8(ascii: "E") {
            integral = false
            index += 1
            if byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-") { index += 1 }
            try skipDigits()
        }
        guard integral, !(negative && value == 0) else { return nil }
        return negative ? -value : value
    }

    /// One or more digits.
    @usableFromInline
    mutating func skipDigits() throws(Declined) {
        let start = index
        while case let digit = byte(index), digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") { index += 1 }
        guard index > start else { throw Declined() }
    }

    @usableFromInline
    mutating func readLiteral(_ literal: StaticString) throws(Declined) {
        let bytes = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount where byte(index + offset) != bytes[offset] {
            throw Declined()
        }
        index += literal.utf8CodeUnitCount
    }

    /// Steps over the next value, checking it as `JSONDecoder` would.
    @inlinable
    package mutating func skipValue() throws(Declined) {
        switch try peek() {
        case .object:
            try openObject()
            var first = true
            while try nextMember(&first) != nil { try skipValue() }
        case .array:
            try openArray()
            var first = true
            while try nextElement(&first) { try skipValue() }
        case .string: try skipString()
        case .number: _ = try readNumber()
        case .true: try readLiteral("true")
        case .false: try readLiteral("false")
        case .null: try readLiteral("null")
        }
    }

    /// Consumes a `null` if one is next; `true` when it did.
    @inlinable
    package mutating func skipNull() throws(Declined) -> Bool {
        guard try peek() == .null else { return false }
        try readLiteral("null")
        return true
    }

    // MARK: Lenient values, as `decodeLeniently` reads them

    /// A string, or `nil` (the value skipped) for anything else.
    @inlinable
    package mutating func lenientString() throws(Declined) -> String? {
        guard try peek() == .string else {
            try skipValue()
            return nil
        }
        return try readString()
    }

    /// `decodeIfPresent(String.self)`: the string, `nil` for `null`, and `wellTyped: false` for any
    /// other type (which fails the enclosing synthesized `Decodable`).
    @inlinable
    package mutating func optionalString() throws(Declined) -> (value: String?, wellTyped: Bool) {
        switch try peek() {
        case .string: return (try readString(), true)
        case .null:
            try readLiteral("null")
            return (nil, true)
        default:
            try skipValue()
            return (nil, false)
        }
    }

    /// `decodeIfPresent(Int.self)`, with `wellTyped` as in ``optionalString()``. A number that is
    /// not a plain integer is declined, since `JSONDecoder`'s reading of `1.0` or `1e3` as an `Int`
    /// is its own business.
    @inlinable
    package mutating func optionalInt() throws(Declined) -> (value: Int?, wellTyped: Bool) {
        switch try peek() {
        case .number:
            guard let value = try readNumber() else { throw Declined() }
            return (value, true)
        case .null:
            try readLiteral("null")
            return (nil, true)
        default:
            try skipValue()
            return (nil, false)
        }
    }

    /// `true` or `false`, or `nil` for another type.
    @inlinable
    package mutating func lenientBool() throws(Declined) -> Bool? {
        switch try peek() {
        case .true:
            try readLiteral("true")
            return true
        case .false:
            try readLiteral("false")
            return false
        default:
            try skipValue()
            return nil
        }
    }

    /// A string, or `nil` (the value skipped) for anything else, as ``lenientString()``, without
    /// making a `String` when it has no escapes.
    @inlinable
    package mutating func lenientRawString() throws(Declined) -> RawString? {
        guard try peek() == .string else {
            try skipValue()
            return nil
        }
        return try readRawString()
    }
}

/// The member names a fast decoder has read in one object, so a repeated one is declined
/// (`JSONDecoder` keeps one of the two, and which is its own business).
package struct SeenKeys {
    @usableFromInline
    var bits: UInt64 = 0

    @inlinable
    package init() {}

    /// Records member `number` (below 64); throws when it was already seen.
    @inline(__always)
    @inlinable
    package mutating func insert(_ number: Int) throws(JSONReader.Declined) {
        let bit: UInt64 = 1 << UInt64(number)
        guard bits & bit == 0 else { throw JSONReader.Declined() }
        bits |= bit
    }
}
