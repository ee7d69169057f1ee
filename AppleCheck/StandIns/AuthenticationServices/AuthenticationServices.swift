// Stand-in: the AuthenticationServices names the package and its app examples use, and the SwiftUI
// overlay (`_AuthenticationServices_SwiftUI`, which Swift loads when a file imports both
// AuthenticationServices and SwiftUI): modelled here as part of this module, so a file needs both
// imports, as with the real frameworks (SwiftUI for View, this module for the session).
public import Foundation
public import SwiftUI

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession
/// (iOS 12, macOS 10.15)
open class ASWebAuthenticationSession: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
    /// (iOS 17.4, macOS 14.4)
    public final class Callback: NSObject {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
        /// (iOS 17.4, macOS 14.4)
        public class func customScheme(_ customScheme: String) -> Callback { fatalError("stand-in") }
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
        /// (iOS 17.4, macOS 14.4)
        public class func https(host: String, path: String) -> Callback { fatalError("stand-in") }
    }
}

/// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession
/// (iOS 16.4, macOS 13.3; the SwiftUI overlay)
@MainActor public struct WebAuthenticationSession {
    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/browsersession
    public struct BrowserSession: Sendable {
        public static let ephemeral = BrowserSession()
    }

    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/authenticate(using:callback:preferredbrowsersession:additionalheaderfields:)
    /// (iOS 17.4, macOS 14.4)
    public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: BrowserSession? = nil, additionalHeaderFields: [String: String]
    ) async throws -> URL { fatalError("stand-in") }
}

extension EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/webauthenticationsession
    /// (iOS 16.4, macOS 13.3; the AuthenticationServices overlay)
    @MainActor public var webAuthenticationSession: WebAuthenticationSession { fatalError("stand-in") }
}
