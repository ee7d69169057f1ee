// SwiftUI's web authentication sheet, from a file that imports both AuthenticationServices and
// SwiftUI, as Apple's cross-import overlay (`_AuthenticationServices_SwiftUI`) requires.
#if canImport(AuthenticationServices) && canImport(SwiftUI)
    public import AuthenticationServices
    import SpotifyAuth
    public import SwiftUI

    extension SpotifyConnectionModel {
        /// Connects with SwiftUI's sheet: with `@Environment(\.webAuthenticationSession) var web`,
        /// `connection.connect(using: web)`.
        ///
        /// From iOS 17.4 and macOS 14.4 the sheet takes the redirect as Apple's `Callback` (a custom
        /// scheme or an https universal link); on iOS 17.0–17.3 it takes a custom scheme, and an
        /// https redirect ends with ``SpotifyMessage/updateSystemToConnect`` before any sheet opens.
        public func connect(using web: WebAuthenticationSession) {
            connect(using: BrowserSignIn.systemSheet(web))
        }

        /// Signs in again with SwiftUI's sheet, asking for `scopes` on top of those granted (see
        /// `connect(adding:using:)` with a browser).
        public func connect(adding scopes: [String], using web: WebAuthenticationSession) {
            connect(adding: scopes, using: BrowserSignIn.systemSheet(web))
        }
    }

    extension BrowserSignIn {
        /// SwiftUI's sheet in the form the running system has: `systemSheet(callbackFormAvailable:…)`
        /// chooses, and the tests run it with the release faked.
        @MainActor static func systemSheet(_ web: WebAuthenticationSession) -> Browser {
            let callbackFormAvailable: Bool
            if #available(iOS 17.4, macOS 14.4, *) {
                callbackFormAvailable = true
            } else {
                callbackFormAvailable = false
            }
            return systemSheet(
                callbackFormAvailable: callbackFormAvailable,
                callbackForm: { url, callback in
                    guard #available(iOS 17.4, macOS 14.4, *) else { throw CancellationError() }
                    return try await web.authenticate(
                        using: url, callback: callback.webAuthentication, additionalHeaderFields: [:])
                },
                customSchemeForm: { url, scheme in
                    try await web.authenticate(using: url, callbackURLScheme: scheme)
                })
        }
    }
#endif
