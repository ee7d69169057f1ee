// Stand-in: what Apple's Foundation has and swift-corelibs-foundation lacks, as the package uses
// it: the CoreFoundation types Foundation re-exports, and Apple-only members. The check appends
// these declarations to the Foundation interface it makes for the Apple target (AppleCheck/check.py),
// so they come with `import Foundation`, as on Apple platforms. Each declaration: Apple's
// documentation page, and its availability there as an attribute the compiler enforces.

// MARK: CoreFoundation

// CFString and CFDictionary are CoreFoundation classes on Apple platforms, toll-free bridged to
// NSString and NSDictionary: Swift code passes `query as CFDictionary` and reads `key as String`.
// Modelled as the Foundation classes they bridge to, so a dropped cast fails as on Apple.

/// https://developer.apple.com/documentation/corefoundation/cftyperef (iOS 2, macOS 10.0)
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfstring (iOS 2, macOS 10.0)
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cfdictionary (iOS 2, macOS 10.0)
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/kernel/osstatus (iOS 2, macOS 10.0)
public typealias OSStatus = Int32

// MARK: ProcessInfo

extension ProcessInfo {
    /// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    /// iOS 8.2, iPadOS 8.2, Mac Catalyst 13.1, tvOS 9.0, visionOS 1.0, watchOS 2.0; not macOS
    /// (NSProcessInfo.h: `API_UNAVAILABLE(macos)`).
    @available(iOS 8.2, *)
    @available(macOS, unavailable)
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void)

    /// https://developer.apple.com/documentation/foundation/processinfo/activityoptions
    /// iOS 7.0, macOS 10.9.
    @available(iOS 7.0, macOS 10.9, *)
    public struct ActivityOptions: OptionSet, Sendable {
        public let rawValue: UInt64
        public init(rawValue: UInt64)
        /// https://developer.apple.com/documentation/foundation/processinfo/activityoptions/userinitiatedallowingidlesystemsleep
        public static var userInitiatedAllowingIdleSystemSleep: ActivityOptions { get }
    }

    /// https://developer.apple.com/documentation/foundation/processinfo/beginactivity(options:reason:)
    /// iOS 7.0, macOS 10.9.
    @available(iOS 7.0, macOS 10.9, *)
    public func beginActivity(options: ActivityOptions = [], reason: String) -> any NSObjectProtocol

    /// https://developer.apple.com/documentation/foundation/processinfo/endactivity(_:)
    /// iOS 7.0, macOS 10.9.
    @available(iOS 7.0, macOS 10.9, *)
    public func endActivity(_ activity: any NSObjectProtocol)

    /// https://developer.apple.com/documentation/foundation/processinfo/ismaccatalystapp
    /// iOS 13.0, macOS 10.15.
    @available(iOS 13.0, macOS 10.15, *)
    public var isMacCatalystApp: Bool { get }
}

// MARK: FileManager

extension FileManager {
    /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    /// iOS 7.0, iPadOS 7.0, Mac Catalyst 13.1, macOS 10.8, tvOS 9.0, visionOS 1.0, watchOS 2.0. In iOS
    /// `nil` when the group identifier is invalid; in macOS a URL of the expected form always.
    @available(iOS 7.0, macOS 10.8, *)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL?
}

// MARK: NSRange

/// https://developer.apple.com/documentation/foundation/nsrange (iOS 2, macOS 10.0): `_NSRange`,
/// a C struct on Apple platforms (swift-corelibs-foundation takes it from its CoreFoundation,
/// which the printed interface does not carry).
public struct _NSRange: Hashable, Sendable {
    public var location: Int
    public var length: Int
    public init()
    public init(location: Int, length: Int)
}
/// https://developer.apple.com/documentation/foundation/nsrange (iOS 2, macOS 10.0)
public typealias NSRange = _NSRange

// MARK: Error bridging

// The compiler calls these for `error as NSError` (Foundation declares them public, with an
// underscore, so the interface printer leaves them out).
public func _convertErrorToNSError(_ error: any Error) -> NSError
public func _convertNSErrorToError(_ error: NSError?) -> any Error

// MARK: Bridging

// `key as String` for a CFString and `query as CFDictionary` for a Swift dictionary are bridging
// conversions: the compiler allows them where the type conforms to `_ObjectiveCBridgeable`, which
// Foundation declares (with an underscore, so the interface printer leaves the conformances out).

extension String: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSString
    public func _bridgeToObjectiveC() -> NSString
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?)
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout String?) -> Bool
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String
}

extension Dictionary: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSDictionary
    public func _bridgeToObjectiveC() -> NSDictionary
    public static func _forceBridgeFromObjectiveC(_ source: NSDictionary, result: inout [Key: Value]?)
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSDictionary, result: inout [Key: Value]?) -> Bool
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSDictionary?) -> [Key: Value]
}

/// https://developer.apple.com/documentation/foundation/localizedstringresource (iOS 16, macOS 13):
/// a string literal is one (an App Intent's title). The open-source Foundation has none. Apple's
/// interpolation takes fewer types than the default one here: looser, never stricter.
@available(iOS 16.0, macOS 13.0, *)
public struct LocalizedStringResource: ExpressibleByStringInterpolation, Sendable {
    public typealias StringLiteralType = String
    /// https://developer.apple.com/documentation/foundation/localizedstringresource/init(stringliteral:) (iOS 16, macOS 13)
    public init(stringLiteral value: String)
    /// https://developer.apple.com/documentation/foundation/localizedstringresource/init(stringinterpolation:) (iOS 16, macOS 13)
    public init(stringInterpolation: DefaultStringInterpolation)
}
