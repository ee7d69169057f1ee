import Foundation

/// `2025-01-01T00:00:00Z` for whole seconds, written by hand: the emulator stamps every playlist
/// entry, and `Date.formatted(.iso8601)` costs more than the rest of an entry together.
enum ISOTime {
    static func string(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let seconds = total - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(year)-\(two(month))-\(two(day))T\(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60))Z"
    }
}
