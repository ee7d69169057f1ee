import Foundation

/// Spotify's rules for redirect URIs, checked before sign-in starts and by `spotlink doctor`.
package enum RedirectURIPolicy {
    /// What kind of redirect a URI is.
    package enum Kind: Sendable, Equatable {
        /// `http://127.0.0.1[:PORT]/...` or `http://[::1][:PORT]/...`: a local listener receives it.
        case loopback(host: String, port: Int?, path: String)
        /// An `https` URL the app's server receives.
        case https
        /// An app's own scheme, as `myapp://callback`.
        case customScheme(String)
    }

    /// Checks `text` against the contract's rules.
    /// - Throws: ``OAuthError`` with code ``OAuthError/Code/configuration`` and the fix in its message.
    package static func validate(_ text: String) throws -> Kind {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw problem(text, "it is not a URL. Use http://127.0.0.1/callback for a desktop or command-line app.")
        }
        let host = components.host?.lowercased() ?? ""
        switch scheme {
        case "https":
            guard !host.isEmpty else { throw problem(text, "it has no host.") }
            return .https
        case "http":
            switch host {
            case "127.0.0.1", "::1", "[::1]":
                return .loopback(
                    host: host == "127.0.0.1" ? host : "::1", port: components.port,
                    path: components.path.isEmpty ? "/" : components.path)
            case "localhost":
                throw problem(
                    text,
                    "Spotify refuses 'localhost'. Use the literal address instead: \(text.replacingOccurrences(of: "localhost", with: "127.0.0.1"))."
                )
            case "0.0.0.0":
                throw problem(text, "0.0.0.0 is not a loopback address. Use http://127.0.0.1/callback.")
            default:
                throw problem(
                    text, "plain http is allowed only for the loopback addresses 127.0.0.1 and [::1]. Use https.")
            }
        default:
            guard components.host != nil || !components.path.isEmpty else { throw problem(text, "it names no target.") }
            guard scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
                throw problem(text, "the scheme has characters a URL scheme cannot have.")
            }
            return .customScheme(scheme)
        }
    }

    private static func problem(_ text: String, _ reason: String) -> OAuthError {
        OAuthError(code: .configuration, message: "The redirect URI '\(text.prefix(200))' will not work: \(reason)")
    }
}
