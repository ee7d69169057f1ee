/// A Spotify catalog ID: exactly 22 base62 characters.
public struct SpotifyID: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    public let rawValue: String

    /// Validates `rawValue` as a catalog ID.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code/invalidIdentifier``.
    public init(_ rawValue: String) throws(SpotifyAPIError) {
        guard Self.isValid(rawValue) else {
            throw SpotifyAPIError(
                code: .invalidIdentifier,
                message: "'\(SpotifyAPIError.sanitized(rawValue, limit: 40))' is not a Spotify ID: "
                    + "an ID is 22 letters and digits, as in spotify:playlist:3cEYpjA9oz9GiPac4AsH4n.",
                parameter: "id"
            )
        }
        self.rawValue = rawValue
    }

    package init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(value) } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether `text` has the shape of a catalog ID.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 22 else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
        }
    }

    public var description: String { rawValue }
    public static func < (lhs: SpotifyID, rhs: SpotifyID) -> Bool { lhs.rawValue < rhs.rawValue }
}
