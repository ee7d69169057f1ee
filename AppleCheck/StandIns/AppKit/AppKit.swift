// Stand-in: the AppKit names the package uses (macOS only: the macos flavor of the check builds
// this module, the ios flavor UIKit); its presence is what `canImport(AppKit)` asks.
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/appkit/nsimage (macOS 10.0)
@available(macOS 10.0, *)
open class NSImage: NSObject {
    /// https://developer.apple.com/documentation/appkit/nsimage/init(data:) (macOS 10.0)
    public init?(data: Data) { fatalError("stand-in") }
}
