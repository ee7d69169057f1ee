// Stand-in: the UIKit names the package's app examples use (iOS family only).
public import Foundation

/// https://developer.apple.com/documentation/uikit/uiimage (iOS 2)
open class UIImage: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiimage/init(data:) (iOS 2)
    public init?(data: Data) { fatalError("stand-in") }
}
