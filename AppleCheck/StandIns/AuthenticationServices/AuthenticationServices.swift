// Stand-in: the AuthenticationServices names the package and its app examples use. Each
// declaration: Apple's documentation page (or header), and its availability as an attribute the
// compiler enforces. The SwiftUI half (`WebAuthenticationSession` and the environment value) is
// Apple's cross-import overlay, `_AuthenticationServices_SwiftUI`, a module of its own here too.
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession
/// (iOS 12, macOS 10.15)
@available(iOS 12.0, macOS 10.15, *)
open class ASWebAuthenticationSession: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
    /// (iOS 17.4, macOS 14.4). Not final, and Sendable: `ASWebAuthenticationSessionCallback.h`
    /// declares it `AS_SWIFT_SENDABLE`.
    @available(iOS 17.4, macOS 14.4, *)
    open class Callback: NSObject, @unchecked Sendable {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
        /// (iOS 17.4, macOS 14.4)
        open class func customScheme(_ customScheme: String) -> Self { fatalError("stand-in") }
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
        /// (iOS 17.4, macOS 14.4)
        open class func https(host: String, path: String) -> Self { fatalError("stand-in") }
    }
}
