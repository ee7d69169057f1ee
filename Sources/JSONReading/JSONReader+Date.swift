package import Foundation

extension JSONReader {
    /// A date as `JSONDecoder`'s `.iso8601` strategy reads it, or `nil` for a value that is not a
    /// string. Only the form the Web API sends, `2025-01-01T00:00:00Z` with a year from 1900, is read
    /// here; any other string is declined and left to Foundation's parser.
    @inlinable
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
    package static func internetDateSeconds(_ text: String) -> Int? {
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
}
