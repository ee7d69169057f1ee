// Stand-in: the ActivityKit names the package and the routine example use (a running routine's
// Live Activity). iOS only: Apple ships no ActivityKit for macOS, and the check builds this module
// in the ios flavor alone, so `canImport(ActivityKit)` is false on macOS as on a Mac. Each
// declaration: Apple's documentation page, and its availability there as an attribute the compiler
// enforces. Apple's module is not built in the Swift 6 language mode; `Activity` is not declared
// `Sendable` here (its page lists no such conformance), the stricter reading.
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/activitykit/activityattributes (iOS 16.1)
@available(iOS 16.1, *)
public protocol ActivityAttributes: Decodable, Encodable {
    /// https://developer.apple.com/documentation/activitykit/activityattributes/contentstate (iOS 16.1)
    associatedtype ContentState: Decodable, Encodable, Hashable
}

/// https://developer.apple.com/documentation/activitykit/activitycontent (iOS 16.2; Sendable on its page)
@available(iOS 16.2, *)
public struct ActivityContent<State>: @unchecked Sendable where State: Decodable, State: Encodable, State: Hashable {
    /// https://developer.apple.com/documentation/activitykit/activitycontent/init(state:staledate:relevancescore:) (iOS 16.2)
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) { self.state = state }
    /// https://developer.apple.com/documentation/activitykit/activitycontent/state (iOS 16.2)
    public let state: State
}

/// https://developer.apple.com/documentation/activitykit/pushtype (iOS 16.1)
@available(iOS 16.1, *)
public struct PushType: Equatable, Sendable {
    /// https://developer.apple.com/documentation/activitykit/pushtype/token (iOS 16.1)
    public static let token = PushType()
}

/// https://developer.apple.com/documentation/activitykit/activityuidismissalpolicy (iOS 16.1)
@available(iOS 16.1, *)
public struct ActivityUIDismissalPolicy: Sendable {
    /// https://developer.apple.com/documentation/activitykit/activityuidismissalpolicy/default (iOS 16.1)
    public static let `default` = ActivityUIDismissalPolicy()
    /// https://developer.apple.com/documentation/activitykit/activityuidismissalpolicy/immediate (iOS 16.1)
    public static let immediate = ActivityUIDismissalPolicy()
    /// https://developer.apple.com/documentation/activitykit/activityuidismissalpolicy/after(_:) (iOS 16.1)
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy() }
}

/// https://developer.apple.com/documentation/activitykit/activity (iOS 16.1)
@available(iOS 16.1, *)
public final class Activity<Attributes> where Attributes: ActivityAttributes {
    /// https://developer.apple.com/documentation/activitykit/activity/contentstate-swift.typealias (iOS 16.1)
    public typealias ContentState = Attributes.ContentState
    private init() { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/activitykit/activity/id (iOS 16.1)
    public var id: String { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/activitykit/activity/attributes (iOS 16.1)
    public var attributes: Attributes { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/activitykit/activity/content (iOS 16.2)
    @available(iOS 16.2, *)
    public var content: ActivityContent<Activity<Attributes>.ContentState> { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/activitykit/activity/activities (iOS 16.1)
    public static var activities: [Activity<Attributes>] { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/activitykit/activity/request(attributes:content:pushtype:) (iOS 16.2)
    @available(iOS 16.2, *)
    public static func request(
        attributes: Attributes, content: ActivityContent<Activity<Attributes>.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/activitykit/activity/update(_:) (iOS 16.2)
    @available(iOS 16.2, *)
    public func update(_ content: ActivityContent<Activity<Attributes>.ContentState>) async {}
    /// https://developer.apple.com/documentation/activitykit/activity/end(_:dismissalpolicy:) (iOS 16.2)
    @available(iOS 16.2, *)
    public func end(
        _ content: ActivityContent<Activity<Attributes>.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default
    ) async {}
}

/// https://developer.apple.com/documentation/activitykit/activityauthorizationinfo (iOS 16.1)
@available(iOS 16.1, *)
public final class ActivityAuthorizationInfo {
    /// https://developer.apple.com/documentation/activitykit/activityauthorizationinfo/init() (iOS 16.1)
    public init() {}
    /// https://developer.apple.com/documentation/activitykit/activityauthorizationinfo/areactivitiesenabled (iOS 16.1)
    public var areActivitiesEnabled: Bool { fatalError("stand-in") }
}
