import Foundation

/// `application/x-www-form-urlencoded`, as token requests and RFC 6749 §2.3.1 client credentials
/// need it: unreserved ASCII characters kept, everything else percent-encoded (UTF-8).
package enum FormEncoding {
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
}
