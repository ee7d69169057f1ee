package import Foundation

extension KeyedDecodingContainer {
    /// Decodes a value, or `nil` when it is absent, `null`, or of an unexpected type.
    func decodeLeniently<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }
}

/// One element of a paging object that decodes whatever it holds: an item, `null`, or something
/// the model cannot read. A page never fails because of one odd element.
enum LenientElement<Item: Decodable>: Decodable {
    case item(Item)
    case null
    case undecodable

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let item = try? container.decode(Item.self) {
            self = .item(item)
        } else {
            self = .undecodable
        }
    }
}

/// The JSON decoder the client uses for every response.
package func makeSpotifyDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}

/// `external_urls`: `{"spotify": "https://open.spotify.com/..."}`.
struct ExternalURLs: Decodable {
    var spotify: URL?
}
