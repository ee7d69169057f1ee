// FoundationEssentials on Linux (no ICU: an extension's process stays small); Apple's SDKs have
// Foundation alone.
#if !canImport(Darwin) && canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a tap on an extension (a widget, a Live Activity, an App Intent) asks of its app: show a
/// record, or open its playlist in Spotify. A widget cannot open Spotify itself: its tap opens
/// the app (`widgetURL`), which opens the playlist.
///
/// The link names the app's record and nothing else: never a Spotify address. The app opens the
/// playlist it saved for that record (`SpotifyLink.openInSpotify(from:)`), so a link another app
/// crafts can open nothing but what the user linked.
public struct ExtensionLink: Sendable, Equatable {
    /// What the app does with the link.
    public enum Action: String, Sendable, CaseIterable {
        /// Shows the record (the routine, the session).
        case show
        /// Opens the record's playlist in Spotify.
        case openPlaylist = "open-playlist"
    }

    /// The host every extension link has: the app tells them from its own links by it.
    public static let host = "spotifylink"

    /// The record's namespace, as the app's `RecordID` has it.
    public var namespace: String
    /// The record's ID within its namespace.
    public var recordID: String
    /// What the app does.
    public var action: Action

    /// A link that does `action` for a record.
    public init(namespace: String, recordID: String, action: Action) {
        self.namespace = namespace
        self.recordID = recordID
        self.action = action
    }

    /// The link as a URL of the app's own `scheme` (`myapp://spotifylink/open-playlist?namespace=…&record=…`),
    /// for `widgetURL(_:)` or `Link`; `nil` when `scheme` is not a URL scheme.
    public func url(scheme: String) -> URL? {
        guard Self.isScheme(scheme) else { return nil }
        var components = URLComponents()
        components.scheme = scheme
        components.host = Self.host
        components.path = "/" + action.rawValue
        // Encoded here, not by `queryItems`: Foundation's encoders differ on "&", "=" and "+"
        // across platforms and versions; this keeps only the unreserved characters of RFC 3986.
        components.percentEncodedQuery = "namespace=\(Self.encoded(namespace))&record=\(Self.encoded(recordID))"
        return components.url
    }

    /// The extension link `url` carries; `nil` for any other URL (the app's own links, another
    /// host, a missing or repeated field, an unknown action), so the app handles it as before.
    public init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.host?.lowercased() == Self.host, components.user == nil, components.password == nil,
            components.port == nil, components.fragment == nil,
            let action = Action(rawValue: String(components.path.dropFirst())), components.path.hasPrefix("/"),
            let items = components.queryItems, items.count == 2
        else { return nil }
        let namespaces = items.filter { $0.name == "namespace" }
        let records = items.filter { $0.name == "record" }
        guard namespaces.count == 1, records.count == 1, let namespace = namespaces[0].value,
            let record = records[0].value, !namespace.isEmpty, !record.isEmpty
        else { return nil }
        self.init(namespace: namespace, recordID: record, action: action)
    }

    /// `text` with every byte but RFC 3986's unreserved characters percent-encoded.
    private static func encoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-._~".unicodeScalars.contains(scalar))
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return result
    }

    private static func isScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }
}

extension ExtensionSnapshot.Playlist {
    /// The link that does `action` for this row's record (its tap in a widget).
    public func link(_ action: ExtensionLink.Action) -> ExtensionLink {
        ExtensionLink(namespace: namespace, recordID: recordID, action: action)
    }
}

extension RoutineActivityAttributes {
    /// The link that does `action` for this routine (its Live Activity's tap).
    public func link(_ action: ExtensionLink.Action) -> ExtensionLink {
        ExtensionLink(namespace: namespace, recordID: recordID, action: action)
    }
}
