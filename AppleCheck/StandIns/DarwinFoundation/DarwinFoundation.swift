// Stand-in: the members of Foundation (and the CoreFoundation types Foundation re-exports) that
// Apple's Foundation has and swift-corelibs-foundation lacks, as the package uses them. Implicitly
// imported into the project's targets (-import-module), as Foundation brings them on Apple
// platforms. Each declaration: Apple's documentation page, and its availability there.
//
// The CoreFoundation types are modelled as what Swift code does with them: `kSecClass as String`
// and `query as CFDictionary` are toll-free bridges on Apple platforms, identities here. What this
// checks is names, signatures and availability, not bridging.
public import Foundation

// MARK: CoreFoundation

/// https://developer.apple.com/documentation/corefoundation/cftyperef (iOS 2, macOS 10.0)
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/corefoundation/cfstring (iOS 2, macOS 10.0)
public typealias CFString = String
/// https://developer.apple.com/documentation/corefoundation/cfdictionary (iOS 2, macOS 10.0)
public typealias CFDictionary = [String: Any]
/// https://developer.apple.com/documentation/kernel/osstatus (iOS 2, macOS 10.0)
public typealias OSStatus = Int32

// MARK: ProcessInfo

extension ProcessInfo {
    /// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    /// iOS 8.2, iPadOS 8.2, Mac Catalyst 13.1, tvOS 9.0, visionOS 1.0, watchOS 2.0; not macOS
    /// (NSProcessInfo.h: `API_UNAVAILABLE(macos)`).
    #if APPLE_MACOS
        @available(*, unavailable, message: "performExpiringActivity(withReason:using:) is unavailable in macOS")
    #endif
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        fatalError("stand-in")
    }

    /// https://developer.apple.com/documentation/foundation/processinfo/activityoptions
    /// iOS 7.0, macOS 10.9.
    public struct ActivityOptions: OptionSet, Sendable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/foundation/processinfo/activityoptions/userinitiatedallowingidlesystemsleep
        public static let userInitiatedAllowingIdleSystemSleep = ActivityOptions(rawValue: 0x00FF_FFFF & ~(1 << 20))
    }

    /// https://developer.apple.com/documentation/foundation/processinfo/beginactivity(options:reason:)
    /// iOS 7.0, macOS 10.9.
    public func beginActivity(options: ActivityOptions = [], reason: String) -> any NSObjectProtocol {
        fatalError("stand-in")
    }

    /// https://developer.apple.com/documentation/foundation/processinfo/endactivity(_:)
    /// iOS 7.0, macOS 10.9.
    public func endActivity(_ activity: any NSObjectProtocol) {
        fatalError("stand-in")
    }
}

// MARK: FileManager

extension FileManager {
    /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    /// iOS 7.0, iPadOS 7.0, Mac Catalyst 13.1, macOS 10.8, tvOS 9.0, visionOS 1.0, watchOS 2.0. In iOS
    /// `nil` when the group identifier is invalid; in macOS a URL of the expected form always.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        fatalError("stand-in")
    }
}
