// Stand-in: what Foundation declares of `Date.FormatStyle` and the printed interface loses, as the
// package uses it. Its date and time styles and its FormatStyle conformance sit in extensions of a
// type that is itself declared in an extension of `Date`, which the interface printer does not
// print. The check appends these lines to FoundationInternationalization's interface
// (AppleCheck/check.py). Each declaration: Apple's documentation page and its availability.

/// https://developer.apple.com/documentation/foundation/date/formatstyle (iOS 15, macOS 12)
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension FoundationEssentials.Date.FormatStyle {
    /// https://developer.apple.com/documentation/foundation/date/formatstyle/datestyle
    public struct DateStyle: Swift.Codable, Swift.Hashable, Swift.Sendable {
        public static let omitted: FoundationEssentials.Date.FormatStyle.DateStyle
        public static let numeric: FoundationEssentials.Date.FormatStyle.DateStyle
        public static let abbreviated: FoundationEssentials.Date.FormatStyle.DateStyle
        public static let long: FoundationEssentials.Date.FormatStyle.DateStyle
        public static let complete: FoundationEssentials.Date.FormatStyle.DateStyle
    }

    /// https://developer.apple.com/documentation/foundation/date/formatstyle/timestyle
    public struct TimeStyle: Swift.Codable, Swift.Hashable, Swift.Sendable {
        public static let omitted: FoundationEssentials.Date.FormatStyle.TimeStyle
        public static let shortened: FoundationEssentials.Date.FormatStyle.TimeStyle
        public static let standard: FoundationEssentials.Date.FormatStyle.TimeStyle
        public static let complete: FoundationEssentials.Date.FormatStyle.TimeStyle
    }

}

/// https://developer.apple.com/documentation/foundation/date/formatstyle: a `FormatStyle` of
/// `Date` to `String` (iOS 15, macOS 12).
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension FoundationEssentials.Date.FormatStyle: FoundationEssentials.FormatStyle, Swift.Hashable, Swift.Codable {
    public typealias FormatInput = FoundationEssentials.Date
    public typealias FormatOutput = Swift.String
    public func format(_ value: FoundationEssentials.Date) -> Swift.String
    public func locale(_ locale: FoundationEssentials.Locale) -> FoundationEssentials.Date.FormatStyle
    public static func == (lhs: FoundationEssentials.Date.FormatStyle, rhs: FoundationEssentials.Date.FormatStyle) -> Swift.Bool
    public func hash(into hasher: inout Swift.Hasher)
    public init(from decoder: any Swift.Decoder) throws
    public func encode(to encoder: any Swift.Encoder) throws
}
