#if canImport(AuthenticationServices)
    public import AuthenticationServices

    extension BrowserSignIn.Callback {
        /// This callback as the system's web authentication session takes it, for
        /// `WebAuthenticationSession.authenticate(using:callback:preferredBrowserSession:additionalHeaderFields:)`
        /// (SwiftUI) or `ASWebAuthenticationSession(url:callback:completionHandler:)`, which are
        /// iOS 17.4 and macOS 14.4 (`SpotifyConnectionModel.connect(using: web)` chooses the form
        /// the system has).
        @available(iOS 17.4, macOS 14.4, *)
        public var webAuthentication: ASWebAuthenticationSession.Callback {
            switch self {
            case .customScheme(let scheme): .customScheme(scheme)
            case .https(let host, let path): .https(host: host, path: path)
            }
        }
    }
#endif
