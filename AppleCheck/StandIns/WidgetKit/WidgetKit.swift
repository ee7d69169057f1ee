// Stand-in: the WidgetKit names the package uses (the app asks its widgets to reload when the
// extensions' snapshot changed). Each declaration: Apple's documentation page, and its
// availability there as an attribute the compiler enforces. `shared` is `static let` on Apple's
// page; Apple's module is not built in the Swift 6 language mode, so its apps use it from any
// actor, which `nonisolated(unsafe)` reproduces here.
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/widgetkit/widgetcenter (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public final class WidgetCenter {
    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/shared (iOS 14, macOS 11)
    nonisolated(unsafe) public static let shared = WidgetCenter()

    private init() {}

    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/reloadalltimelines() (iOS 14, macOS 11)
    public func reloadAllTimelines() {}

    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/reloadtimelines(ofkind:) (iOS 14, macOS 11)
    public func reloadTimelines(ofKind kind: String) {}
}
