// Stand-in: the UIKit names the package's app examples use (the iOS family only: the ios flavor
// of the check builds this module, the macos flavor AppKit).
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/uikit/uiimage (iOS 2): Sendable in Apple's SDK.
@available(iOS 2.0, *)
open class UIImage: NSObject, @unchecked Sendable {
    /// https://developer.apple.com/documentation/uikit/uiimage/init(data:) (iOS 2)
    public init?(data: Data) { fatalError("stand-in") }
}
