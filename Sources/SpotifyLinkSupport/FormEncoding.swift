import Foundation

/// `application/x-www-form-urlencoded` and URL queries, in one place for the client, the sign-in,
/// the emulator and the test tools.
package enum FormEncoding {
    /// RFC 3986's unreserved characters: kept as they are, everything else percent-encoded (UTF-8),
    /// as token requests and RFC 6749 §2.3.1 client credentials need.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// One value or name, encoded.
    package static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `name=value&…`, each part encoded.
    package static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// One encoded name or value, decoded (`+` is a space); `nil` on bad percent-encoding.
    package static func decode(_ part: Substring) -> String? {
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The raw (still encoded) name-value pairs of `query`, in order; empty parts are skipped.
    package static func rawPairs(_ query: String) -> [(name: Substring, value: Substring)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (pieces[0], pieces.count > 1 ? pieces[1] : "")
        }
    }

    /// The name-value pairs of `query`, decoded; `nil` on bad percent-encoding or a NUL byte.
    package static func decode(_ query: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for (rawName, rawValue) in rawPairs(query) {
            guard let name = decode(rawName), let value = decode(rawValue), !name.contains("\u{0}"),
                !value.contains("\u{0}")
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// The name-value pairs of `query`, decoded where they can be and kept as sent where not.
    package static func decodeLeniently(_ query: String) -> [(String, String)] {
        rawPairs(query).map { (decode($0.name) ?? String($0.name), decode($0.value) ?? String($0.value)) }
    }
}

/// Text for HTML pages.
package enum HTML {
    /// `text` with `&`, `<`, `>` and `"` escaped, safe in element content and quoted attributes.
    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
