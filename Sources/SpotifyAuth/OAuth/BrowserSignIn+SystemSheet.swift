package import Foundation

extension BrowserSignIn {
    /// The system's web authentication sheet as a ``Browser``, from its two forms: from iOS 17.4 and
    /// macOS 14.4 the one that takes a ``Callback`` (a custom scheme or an https universal link),
    /// before them the one that takes a custom scheme only
    /// (`authenticate(using:callbackURLScheme:preferredBrowserSession:)`, iOS 16.4, macOS 13.3).
    ///
    /// Below 17.4 an https redirect cannot be shown: the sign-in ends at once with
    /// ``OAuthError/Code/systemTooOld``, before any sheet opens, instead of a sheet that never comes
    /// back. The Apple adapter (SpotifyLinkUI's `connect(using: web)`) passes the release
    /// (`#available`) and the two forms; the tests pass closures and either release.
    ///
    /// - Parameters:
    ///   - callbackFormAvailable: whether the system has the `Callback` form (iOS 17.4, macOS 14.4).
    ///   - callbackForm: shows the sheet with the `Callback` form.
    ///   - customSchemeForm: shows the sheet with the custom-scheme form, given the bare scheme.
    package static func systemSheet(
        callbackFormAvailable: Bool,
        callbackForm: @escaping @Sendable (_ url: URL, _ callback: Callback) async throws -> URL,
        customSchemeForm: @escaping @Sendable (_ url: URL, _ scheme: String) async throws -> URL
    ) -> Browser {
        { url, callback in
            if callbackFormAvailable { return try await callbackForm(url, callback) }
            switch callback {
            case .customScheme(let scheme):
                return try await customSchemeForm(url, scheme)
            case .https(let host, let path):
                throw OAuthError(
                    code: .systemTooOld,
                    message: "The redirect URI https://\(host)\(path) is a universal link, which the system's "
                        + "sign-in sheet takes from iOS 17.4 and macOS 14.4 only; this device runs an older "
                        + "release. Register a custom-scheme redirect URI (myapp://spotify-callback) for older "
                        + "releases, or raise the app's deployment target to iOS 17.4.")
            }
        }
    }
}
