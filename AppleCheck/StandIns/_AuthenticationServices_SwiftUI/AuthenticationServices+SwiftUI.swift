// Stand-in: Apple's cross-import overlay of AuthenticationServices and SwiftUI. Swift loads it
// only in a file that imports both frameworks (AppleCheck/check.py writes the
// `AuthenticationServices.swiftcrossimport` beside the module, as Apple's SDK has it), so a file
// that names `webAuthenticationSession` without one of the two imports fails, as on Apple.
@_exported public import AuthenticationServices
public import SwiftUI

/// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession
/// (iOS 16.4, macOS 13.3): a main-actor struct, Sendable.
@available(iOS 16.4, macOS 13.3, *)
@MainActor public struct WebAuthenticationSession: Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/browsersession
    public struct BrowserSession: Sendable {
        /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/browsersession/ephemeral
        public static let ephemeral = BrowserSession()
        /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/browsersession/shared
        public static let shared = BrowserSession()
    }

    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/authenticate(using:callback:preferredbrowsersession:additionalheaderfields:)
    /// (iOS 17.4, macOS 14.4)
    @available(iOS 17.4, macOS 14.4, *)
    public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: BrowserSession? = nil, additionalHeaderFields: [String: String]
    ) async throws -> URL { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/authenticate(using:callbackurlscheme:preferredbrowsersession:)
    /// (iOS 16.4, macOS 13.3; deprecated at 27.0 in favour of the Callback form)
    public func authenticate(
        using url: URL, callbackURLScheme: String, preferredBrowserSession: BrowserSession? = nil
    ) async throws -> URL { fatalError("stand-in") }
}

extension EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/webauthenticationsession
    /// (iOS 16.4, macOS 13.3)
    @available(iOS 16.4, macOS 13.3, *)
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stand-in") }
}
