/// A Spotify catalog ID: exactly 22 base62 characters.
///
/// An ID keeps its 22 characters in place, three words without heap storage, rather than as a
/// `String` of its own: a 10,000-entry playlist holds tens of thousands of IDs.
public struct SpotifyID: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// How an ID is kept.
    private enum Storage: Hashable, Sendable {
        /// A catalog ID's 22 ASCII bytes, big-endian, the last two bytes zero.
        case packed(UInt64, UInt64, UInt64)
        /// Anything else ``init(unchecked:)`` was given (a row written by an earlier version or by
        /// hand), as it is.
        case text(String)
    }

    private let storage: Storage

    /// The ID's 22 characters.
    public var rawValue: String {
        switch storage {
        case .text(let text):
            return text
        case .packed:
            return String(unsafeUninitializedCapacity: 22) { buffer in
                for index in 0..<22 { buffer[index] = byte(at: index) }
                return 22
            }
        }
    }

    /// Validates `rawValue` as a catalog ID.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code/invalidIdentifier``.
    public init(_ rawValue: String) throws(SpotifyAPIError) {
        guard let storage = Self.packed(rawValue.utf8) else {
            throw SpotifyAPIError(
                code: .invalidIdentifier,
                message: "'\(SpotifyAPIError.sanitized(rawValue, limit: 40))' is not a Spotify ID: "
                    + "an ID is 22 letters and digits, as in spotify:playlist:3cEYpjA9oz9GiPac4AsH4n.",
                parameter: "id"
            )
        }
        self.storage = storage
    }

    package init(unchecked rawValue: String) {
        self.storage = Self.packed(rawValue.utf8) ?? .text(rawValue)
    }

    /// The ID whose characters are `bytes`, or `nil` when they are not 22 letters and digits:
    /// checked and packed in one pass, with no `String` made.
    package init?(characters bytes: UnsafeBufferPointer<UInt8>) {
        guard let storage = Self.packed(bytes) else { return nil }
        self.storage = storage
    }

    /// `bytes` as three big-endian words, checked as they are packed; `nil` unless they are 22
    /// letters and digits.
    private static func packed(_ bytes: some Sequence<UInt8>) -> Storage? {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        for byte in bytes {
            guard count < 22, (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            else { return nil }
            let shifted = UInt64(byte) << UInt64(56 - 8 * (count % 8))
            switch count / 8 {
            case 0: words.0 |= shifted
            case 1: words.1 |= shifted
            default: words.2 |= shifted
            }
            count += 1
        }
        return count == 22 ? .packed(words.0, words.1, words.2) : nil
    }

    /// The byte at `index` (0..<22) of a packed ID.
    private func byte(at index: Int) -> UInt8 {
        guard case .packed(let first, let second, let third) = storage else { return 0 }
        let word = index < 8 ? first : index < 16 ? second : third
        return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
    }

    /// Whether `bytes` are this ID's characters, compared without making its `String`.
    package func hasCharacters(_ bytes: some Collection<UInt8>) -> Bool {
        guard case .packed = storage else { return bytes.elementsEqual(rawValue.utf8) }
        guard bytes.count == 22 else { return false }
        return bytes.enumerated().allSatisfy { index, character in character == byte(at: index) }
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
        packed(text.utf8) != nil
    }

    public var description: String { rawValue }

    /// Character order, as the IDs' strings compare.
    public static func < (lhs: SpotifyID, rhs: SpotifyID) -> Bool {
        if case .packed(let a0, let a1, let a2) = lhs.storage, case .packed(let b0, let b1, let b2) = rhs.storage {
            return (a0, a1, a2) < (b0, b1, b2)
        }
        return lhs.rawValue < rhs.rawValue
    }
}
