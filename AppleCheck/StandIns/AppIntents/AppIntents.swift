// Stand-in: the App Intents names the example apps use (an intent that opens the app at a routine,
// one that opens the latest session's playlist, a control's action). Each declaration: Apple's
// documentation page, and its availability there as an attribute the compiler enforces. An
// `AppIntent` is `Sendable` (its pages list it among what the intent protocols inherit), so an
// intent's stored properties must be too.
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/appintents/persistentlyidentifiable (iOS 16, macOS 13)
@available(iOS 16.0, macOS 13.0, *)
public protocol PersistentlyIdentifiable {
    /// https://developer.apple.com/documentation/appintents/persistentlyidentifiable/persistentidentifier (iOS 16, macOS 13)
    static var persistentIdentifier: String { get }
}

@available(iOS 16.0, macOS 13.0, *)
extension PersistentlyIdentifiable {
    /// https://developer.apple.com/documentation/appintents/persistentlyidentifiable/persistentidentifier (iOS 16, macOS 13):
    /// the type's name unless the type gives one.
    public static var persistentIdentifier: String { String(describing: Self.self) }
}

/// https://developer.apple.com/documentation/appintents/intentresult (iOS 16, macOS 13): `Sendable`,
/// as a main-actor `perform()` returning `some IntentResult` compiles in Xcode's Swift 6 mode.
@available(iOS 16.0, macOS 13.0, *)
public protocol IntentResult: Sendable {}

/// https://developer.apple.com/documentation/appintents/intentresultcontainer (iOS 16, macOS 13)
@available(iOS 16.0, macOS 13.0, *)
public struct IntentResultContainer<Value, OpensAppIntent, Content, Dialog>: IntentResult {
    public init() {}
}

@available(iOS 16.0, macOS 13.0, *)
extension IntentResult {
    /// https://developer.apple.com/documentation/appintents/intentresult/result() (iOS 16, macOS 13)
    public static func result() -> Self where Self == IntentResultContainer<Never, Never, Never, Never> {
        IntentResultContainer()
    }
}

/// https://developer.apple.com/documentation/appintents/appintent (iOS 16, macOS 13)
@available(iOS 16.0, macOS 13.0, *)
public protocol AppIntent: PersistentlyIdentifiable, Sendable {
    /// https://developer.apple.com/documentation/appintents/appintent/init() (iOS 16, macOS 13)
    init()
    /// https://developer.apple.com/documentation/appintents/appintent/title (iOS 16, macOS 13)
    static var title: LocalizedStringResource { get }
    /// https://developer.apple.com/documentation/appintents/appintent/performresult (iOS 16, macOS 13)
    associatedtype PerformResult: IntentResult
    /// https://developer.apple.com/documentation/appintents/appintent/perform() (iOS 16, macOS 13)
    func perform() async throws -> PerformResult
    /// https://developer.apple.com/documentation/appintents/appintent/openappwhenrun (iOS 16, macOS 13)
    static var openAppWhenRun: Bool { get }
}

@available(iOS 16.0, macOS 13.0, *)
extension AppIntent {
    /// https://developer.apple.com/documentation/appintents/appintent/openappwhenrun (iOS 16, macOS 13): false unless the intent says.
    public static var openAppWhenRun: Bool { false }
    /// https://developer.apple.com/documentation/appintents/appintent/parameter (iOS 16, macOS 13)
    public typealias Parameter<Value> = IntentParameter<Value>
}

/// https://developer.apple.com/documentation/appintents/intentparameter (iOS 16, macOS 13)
@available(iOS 16.0, macOS 13.0, *)
@propertyWrapper public final class IntentParameter<Value>: @unchecked Sendable {
    /// https://developer.apple.com/documentation/appintents/intentparameter/init(title:description:requestvaluedialog:inputoptions:) (iOS 16, macOS 13)
    public init(title: LocalizedStringResource) {}
    /// https://developer.apple.com/documentation/appintents/intentparameter/wrappedvalue (iOS 16, macOS 13)
    public var wrappedValue: Value { get { fatalError("stand-in") } set {} }
}
