package import Foundation
import SpotifyLinkSupport

/// Reads a `Retry-After` header: delta seconds or an HTTP date.
package enum RetryAfter {
    /// The wait the header asks for, or `nil` when it is missing, negative or unreadable (the
    /// caller then backs off on its own).
    package static func parse(_ value: String?, now: Date) -> Duration? {
        guard let raw = value?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if raw.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(raw), seconds.isFinite {
            return .clampedSeconds(seconds)
        }
        guard let date = HTTPDate.parse(raw) else { return nil }
        return .clampedSeconds(date.timeIntervalSince(now))
    }
}

/// The IMF-fixdate form of HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`), parsed and formatted
/// without `DateFormatter`, which is slow and not safe to use from many threads on Linux.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    package static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        // Years outside 1...9999 are unreadable: the day arithmetic below would overflow on a
        // `Retry-After: Sun, 06 Nov 930000000000000000 08:49:37 GMT` (found by fuzzing).
        guard time.count == 3, (1...9999).contains(year), (1...31).contains(day), (0...23).contains(time[0]),
            (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86400 + time[0] * 3600 + time[1] * 60 + time[2]))
    }

    /// Formats `date` (clamped to the years 1 to 9999).
    package static func format(_ date: Date) -> String {
        let total = Int(min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799).rounded(.down))
        let days = Int((Double(total) / 86400).rounded(.down))
        let seconds = total - days * 86400
        let (year, month, day) = civil(fromDays: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60)) GMT"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
