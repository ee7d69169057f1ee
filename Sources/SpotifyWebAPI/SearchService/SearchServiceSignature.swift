import Foundation

/// What an app and the search service agree on for one request: the header names and the bytes an
/// App Attest assertion (or, in development, a shared key's HMAC) signs.
///
/// The signed bytes bind everything the service acts on: the method, the path, every query item
/// (sorted, so the order an HTTP stack writes them in does not matter) and a one-time challenge the
/// service issued. A request replayed, sent to another route, or with another search text no
/// longer matches its signature.
package enum SearchServiceSignature {
    /// The device key's ID, Base64 (App Attest's `generateKey()`).
    package static let keyIDHeader = "SpotifyLink-Key-ID"
    /// The App Attest assertion over ``clientData(method:path:query:challenge:)``, Base64.
    package static let assertionHeader = "SpotifyLink-Assertion"
    /// In development only: HMAC-SHA256 of the client data with the shared development key, Base64.
    package static let developmentHeader = "SpotifyLink-Development"
    /// In development only: the device's name for its limits (a simulator has no App Attest key).
    package static let deviceHeader = "SpotifyLink-Device"
    /// The one-time challenge the request is signed with.
    package static let challengeHeader = "SpotifyLink-Challenge"
    /// The service's next challenge for this device, in every answer to a signed request.
    package static let nextChallengeHeader = "SpotifyLink-Next-Challenge"
    /// The version of the signed form, its first line.
    package static let version = "spotifylink-search-1"

    /// The bytes a request's assertion signs:
    /// `spotifylink-search-1\nGET\n/v1/search\nlimit=10&q=%E3%81%95\n<challenge>`.
    package static func clientData(
        method: String, path: String, query: [(name: String, value: String)], challenge: String
    )
        -> [UInt8]
    {
        Array([version, method.uppercased(), path, canonicalQuery(query), challenge].joined(separator: "\n").utf8)
    }

    /// The query items sorted by name, then value, each percent-encoded but for RFC 3986's
    /// unreserved characters, joined with `&`: one spelling for every way a query can be written.
    package static func canonicalQuery(_ items: [(name: String, value: String)]) -> String {
        items.map { (encode($0.name), encode($0.value)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// RFC 3986's unreserved characters: what a signed query keeps unencoded.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` percent-encoded but for the unreserved characters, as a signed query is written.
    package static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
