package import Foundation

/// A response the client can read with ``JSONReader`` before falling back to `JSONDecoder`.
///
/// A conformance reads exactly what the type's `init(from:)` would make of the same bytes, or
/// throws ``JSONReader/Declined``; `FastDecodingTests` and the `fast-decoding` fuzz target hold
/// the two paths to the same answers.
package protocol FastDecodable: Decodable {
    /// Reads one value of this type from `reader`.
    static func read(_ reader: inout JSONReader) throws(JSONReader.Declined) -> Self
}

/// An element of a paging object that the fast path reads.
package protocol FastPageItem: Decodable, Sendable {
    /// Reads one element (never `null`, which the page counts itself), or `nil` where
    /// `init(from:)` would throw: the page counts it as undecodable. The whole value is consumed
    /// either way.
    static func readElement(_ reader: inout JSONReader) throws(JSONReader.Declined) -> Self?
}

extension FastDecodable {
    /// The value in `data`, or `nil` when the fast reader declines it.
    package static func fastDecoded(from data: Data) -> Self? {
        data.withUnsafeBytes { bytes -> Self? in
            do {
                var reader = try JSONReader(bytes)
                let value = try read(&reader)
                try reader.finish()
                return value
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

extension JSONReader {
    /// A date as `JSONDecoder`'s `.iso8601` strategy reads it, or `nil` for a value that is not a
    /// string. Only the form Spotify sends, `2025-01-01T00:00:00Z` with a year from 1900, is read
    /// here; any other string is declined and left to Foundation's parser.
    package mutating func lenientDate() throws(Declined) -> Date? {
        guard try peek() == .string else {
            try skipValue()
            return nil
        }
        let text = try readString()
        guard let seconds = Self.internetDateSeconds(text) else { throw Declined() }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Seconds since 1970 for `YYYY-MM-DDTHH:MM:SSZ`, or `nil` for anything else (including a
    /// day the month does not have, or a leap second).
    static func internetDateSeconds(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                bytes[19] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for position in from..<(from + count) {
                    let digit = bytes[position] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int(digit)
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                year >= 1900, (1...12).contains(month), hour < 24, minute < 60, second < 60,
                day >= 1, day <= daysIn(month: month, year: year)
            else { return nil }
            return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `decodeLeniently([SpotifyImage].self)`: the images, or `[]` when the value is not an array
    /// or any element is not an image (one bad element fails the whole array, as in `JSONDecoder`).
    package mutating func lenientImages() throws(Declined) -> [SpotifyImage] {
        guard try peek() == .array else {
            try skipValue()
            return []
        }
        try openArray()
        var images: [SpotifyImage] = []
        var valid = true
        var first = true
        while try nextElement(&first) {
            let image = try readImage()
            if let image, valid { images.append(image) } else { valid = false }
        }
        return valid ? images : []
    }

    /// One `SpotifyImage` as its synthesized `Decodable` reads it: `url` required, `width` and
    /// `height` integers or absent or `null`; `nil` for anything else.
    private mutating func readImage() throws(Declined) -> SpotifyImage? {
        var seen = SeenKeys()
        var url: URL?
        var width: Int?
        var height: Int?
        var valid = true
        let isObject = try readObject { (reader, key) throws(Declined) in
            switch key {
            case "url":
                try seen.insert(0)
                url = try reader.lenientString().flatMap { text in
                    if let known = reader.internedURLs[text] { return known }
                    let made = URL(string: text)
                    reader.internedURLs[text] = made
                    return made
                }
            case "width":
                try seen.insert(1)
                let read = try reader.optionalInt()
                width = read.value
                valid = valid && read.wellTyped
            case "height":
                try seen.insert(2)
                let read = try reader.optionalInt()
                height = read.value
                valid = valid && read.wellTyped
            default:
                try reader.skipValue()
            }
        }
        guard isObject, valid, let url else { return nil }
        return SpotifyImage(url: url, width: width, height: height)
    }

    /// An object read for one optional string member, as the small synthesized helpers (`Named`,
    /// `Show`, `AddedBy`, `ExternalURLs`) read one: the string, and `valid` false when the value is
    /// not an object or the member has another type (which fails such a helper).
    mutating func stringMember(_ wanted: StaticString) throws(Declined) -> (value: String?, valid: Bool) {
        var seen = SeenKeys()
        var member: (value: String?, wellTyped: Bool) = (nil, true)
        let isObject = try readObject { (reader, key) throws(Declined) in
            if wanted ~= key {
                try seen.insert(0)
                member = try reader.optionalString()
            } else {
                try reader.skipValue()
            }
        }
        return isObject && member.wellTyped ? (member.value, true) : (nil, false)
    }
}
