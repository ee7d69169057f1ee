// Stand-in: the SwiftUI names the package's app examples use, with Apple's signatures, each with
// its documentation page and its availability as an attribute the compiler enforces. Nothing here
// draws or runs: an example's body is only type-checked. SwiftUI re-exports UIKit on iOS and AppKit
// on macOS, as the real framework does (UIImage is usable with `import SwiftUI` alone).
//
// Isolation is Apple's: `View`, `App` and `Scene` are main-actor protocols, while the initializers
// of the views and the modifiers are `nonisolated` (a helper outside the main actor may build a
// `Text`), and `body` is main-actor.
@_exported public import Foundation  // through UIKit or AppKit, as Apple's SwiftUI
@_exported public import Observation  // SwiftUI re-exports Observation (`@Observable` needs no import of its own)

#if os(iOS)
    @_exported public import UIKit
#else
    @_exported public import AppKit
#endif

// MARK: App and scenes

/// https://developer.apple.com/documentation/swiftui/app (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor var body: Body { get }
    init()
}

@available(iOS 14.0, macOS 11.0, *)
extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main() (iOS 14, macOS 11)
    @MainActor public static func main() { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/scene (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor var body: Body { get }
}


/// https://developer.apple.com/documentation/swiftui/scenebuilder (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@resultBuilder public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// What a stand-in scene's body is: the type checker needs no more.
@available(iOS 14.0, macOS 11.0, *)
public struct StandInScene: Scene {
    public var body: StandInScene { self }
}

/// https://developer.apple.com/documentation/swiftui/windowgroup (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct WindowGroup<Content: View>: Scene {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: StandInScene { StandInScene() }
}

// MARK: Views

/// https://developer.apple.com/documentation/swiftui/view (iOS 13, macOS 10.15)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor var body: Body { get }
}

/// A primitive view has no body: Never stands for it (as in SwiftUI).
extension Never: View {
    public var body: Never { fatalError("stand-in") }
}

/// What every stand-in view and modifier returns: the type checker needs no more.
public struct StandInView: View {
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder (iOS 13, macOS 10.15)
@resultBuilder public enum ViewBuilder {
    public static func buildExpression(_ view: some View) -> StandInView { StandInView() }
    public static func buildExpression(_ never: Never) -> Never {}
    public static func buildBlock() -> StandInView { StandInView() }
    public static func buildBlock(_ never: Never) -> Never {}
    public static func buildBlock(_ views: StandInView...) -> StandInView { StandInView() }
    public static func buildOptional(_ view: StandInView?) -> StandInView { StandInView() }
    public static func buildEither(first view: StandInView) -> StandInView { StandInView() }
    public static func buildEither(second view: StandInView) -> StandInView { StandInView() }
    public static func buildLimitedAvailability(_ view: StandInView) -> StandInView { StandInView() }
}

/// https://developer.apple.com/documentation/swiftui/text (iOS 13, macOS 10.15)
public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4 (a String, not localized)
    nonisolated public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/buttonrole (iOS 15, macOS 12)
@available(iOS 15.0, macOS 12.0, *)
public struct ButtonRole: Sendable, Equatable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
}

/// https://developer.apple.com/documentation/swiftui/button (iOS 13, macOS 10.15)
public struct Button: View {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7 (a String title)
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    /// https://developer.apple.com/documentation/swiftui/button/init(_:role:action:)-5zg6o (iOS 15, macOS 12)
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/label (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct Label: View {
    /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-7ehqh
    nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/list (iOS 13, macOS 10.15)
public struct List: View {
    nonisolated public init(@ViewBuilder content: () -> some View) {}
    /// https://developer.apple.com/documentation/swiftui/list/init(_:id:rowcontent:)-4j4ul
    nonisolated public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/textfield (iOS 13, macOS 10.15)
public struct TextField: View {
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-4a0w4 (a String title)
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/toggle (iOS 13, macOS 10.15)
public struct Toggle: View {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(_:ison:) (the String title's
    /// overload, iOS 13, macOS 10.15)
    nonisolated public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/horizontalalignment (iOS 13, macOS 10.15)
public struct HorizontalAlignment: Sendable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
    public static let trailing = HorizontalAlignment()
}

/// https://developer.apple.com/documentation/swiftui/vstack (iOS 13, macOS 10.15)
public struct VStack: View {
    nonisolated public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> some View) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/image (iOS 13, macOS 10.15)
public struct Image: View {
    /// https://developer.apple.com/documentation/swiftui/image/init(systemname:) (iOS 13, macOS 11)
    @available(iOS 13.0, macOS 11.0, *)
    nonisolated public init(systemName: String) {}
    #if os(iOS)
        /// https://developer.apple.com/documentation/swiftui/image/init(uiimage:) (iOS 13; not macOS)
        nonisolated public init(uiImage: UIImage) {}
    #else
        /// https://developer.apple.com/documentation/swiftui/image/init(nsimage:) (macOS 10.15; not iOS)
        nonisolated public init(nsImage: NSImage) {}
    #endif
    /// https://developer.apple.com/documentation/swiftui/image/resizable(capinsets:resizingmode:) (iOS 13, macOS 10.15)
    nonisolated public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch)
        -> Image
    { self }
    /// https://developer.apple.com/documentation/swiftui/image/resizingmode (iOS 13, macOS 10.15)
    public enum ResizingMode: Sendable, Hashable {
        /// https://developer.apple.com/documentation/swiftui/image/resizingmode/tile (iOS 13, macOS 10.15)
        case tile
        /// https://developer.apple.com/documentation/swiftui/image/resizingmode/stretch (iOS 13, macOS 10.15)
        case stretch
    }
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/edgeinsets (iOS 13, macOS 10.15)
public struct EdgeInsets: Sendable, Equatable {
    /// https://developer.apple.com/documentation/swiftui/edgeinsets/init() (iOS 13, macOS 10.15)
    nonisolated public init() {}
}

// MARK: State and environment

/// https://developer.apple.com/documentation/swiftui/binding (iOS 13, macOS 10.15)
@dynamicMemberLookup @propertyWrapper public struct Binding<Value> {
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp: Apple's
    /// closures are `@isolated(any) @Sendable`, so a capture that is not Sendable is refused.
    public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {}
    public var wrappedValue: Value { get { fatalError("stand-in") } nonmutating set {} }
    public var projectedValue: Binding<Value> { self }
    public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member> {
        fatalError("stand-in")
    }
}

/// https://developer.apple.com/documentation/swiftui/state (iOS 13, macOS 10.15)
@propertyWrapper public struct State<Value> {
    public init(wrappedValue value: Value) {}
    public init(initialValue value: Value) {}
    public var wrappedValue: Value { get { fatalError("stand-in") } nonmutating set {} }
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/scenephase (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public enum ScenePhase: Sendable, Hashable, Comparable { case background, inactive, active }

/// https://developer.apple.com/documentation/swiftui/openurlaction (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct OpenURLAction: Sendable {
    /// https://developer.apple.com/documentation/swiftui/openurlaction/callasfunction(_:)
    @MainActor public func callAsFunction(_ url: URL) {}
    /// https://developer.apple.com/documentation/swiftui/openurlaction/callasfunction(_:completion:) (iOS 14, macOS 11)
    @MainActor @preconcurrency public func callAsFunction(_ url: URL, completion: @escaping (Bool) -> Void) {}
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues (iOS 13, macOS 10.15)
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/openurl (iOS 14, macOS 11)
    @available(iOS 14.0, macOS 11.0, *)
    public var openURL: OpenURLAction { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase (iOS 14, macOS 11)
    @available(iOS 14.0, macOS 11.0, *)
    public var scenePhase: ScenePhase { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/bindable (iOS 17, macOS 14): bindings to the
/// properties of an `@Observable` object, `$object.property`.
@available(iOS 17.0, macOS 14.0, *)
@dynamicMemberLookup @propertyWrapper public struct Bindable<Value> {
    /// https://developer.apple.com/documentation/swiftui/bindable/init(wrappedvalue:) (iOS 17, macOS 14)
    public init(wrappedValue: Value) where Value: AnyObject & Observable {}
    /// https://developer.apple.com/documentation/swiftui/bindable/init(_:) (iOS 17, macOS 14)
    public init(_ wrappedValue: Value) where Value: AnyObject & Observable {}
    /// https://developer.apple.com/documentation/swiftui/bindable/wrappedvalue (iOS 17, macOS 14)
    public var wrappedValue: Value { get { fatalError("stand-in") } set {} }
    /// https://developer.apple.com/documentation/swiftui/bindable/projectedvalue (iOS 17, macOS 14)
    public var projectedValue: Bindable<Value> { self }
    /// https://developer.apple.com/documentation/swiftui/bindable/subscript(dynamicmember:) (iOS 17, macOS 14)
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

/// https://developer.apple.com/documentation/swiftui/environment (iOS 13, macOS 10.15)
@propertyWrapper public struct Environment<Value> {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError("stand-in") }
}

// MARK: Modifiers

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:) (iOS 15, macOS 12):
    /// `nonisolated`, its action `sending @escaping @isolated(any)`, as Xcode 26 declares it.
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void
    ) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/refreshable(action:) (iOS 15, macOS 12)
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/searchable(text:placement:prompt:)-18a8f (iOS 15, macOS 12)
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func searchable(text: Binding<String>) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg (iOS 17, macOS 14)
    @available(iOS 17.0, macOS 14.0, *)
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void)
        -> StandInView
    { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/onsubmit(of:_:) (iOS 15, macOS 12)
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func onSubmit(_ action: @escaping () -> Void) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilitylabel(_:) (the Text
    /// label's overload, iOS 14, macOS 11)
    @available(iOS 14.0, macOS 11.0, *)
    nonisolated public func accessibilityLabel(_ label: Text) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityhidden(_:) (iOS 14, macOS 11)
    @available(iOS 14.0, macOS 11.0, *)
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:) (iOS 13, macOS 10.15)
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
        -> StandInView
    { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/onopenurl(perform:) (iOS 14, macOS 11)
    @available(iOS 14.0, macOS 11.0, *)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:) (iOS 13, macOS 10.15)
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/confirmationdialog(_:ispresented:titlevisibility:actions:)-46zbb (iOS 15, macOS 12)
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func confirmationDialog<A: View>(
        _ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A
    ) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/confirmationdialog(_:ispresented:titlevisibility:actions:message:)-2s7pz
    /// (iOS 15, macOS 12; that page is the LocalizedStringKey title's, the String title's overload
    /// has the same availability)
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func confirmationDialog<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
    ) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:) (iOS 13, macOS 10.15)
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> StandInView { StandInView() }
}

// MARK: Timers that count by themselves (a Live Activity's time left)

extension Text {
    /// https://developer.apple.com/documentation/swiftui/text/init(timerinterval:pausetime:countsdown:showshours:) (iOS 16, macOS 13)
    @available(iOS 16.0, macOS 13.0, *)
    nonisolated public init(
        timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true
    ) {}
}

/// https://developer.apple.com/documentation/swiftui/progressview (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct ProgressView: View {
    /// https://developer.apple.com/documentation/swiftui/progressview/init(timerinterval:countsdown:) (iOS 16, macOS 13)
    @available(iOS 16.0, macOS 13.0, *)
    nonisolated public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/hstack (iOS 13, macOS 10.15)
public struct HStack: View {
    nonisolated public init(spacing: CGFloat? = nil, @ViewBuilder content: () -> some View) {}
    public var body: Never { fatalError("stand-in") }
}

// MARK: Widgets (declared in SwiftUI; WidgetKit's configurations conform to these)

/// https://developer.apple.com/documentation/swiftui/widget (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency public protocol Widget {
    /// https://developer.apple.com/documentation/swiftui/widget/body-swift.associatedtype (iOS 14, macOS 11)
    associatedtype Body: WidgetConfiguration
    /// https://developer.apple.com/documentation/swiftui/widget/body-swift.property (iOS 14, macOS 11)
    @MainActor var body: Body { get }
    /// https://developer.apple.com/documentation/swiftui/widget/init() (iOS 14, macOS 11)
    init()
}

/// https://developer.apple.com/documentation/swiftui/widgetconfiguration (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency public protocol WidgetConfiguration {
    /// https://developer.apple.com/documentation/swiftui/widgetconfiguration/body-swift.associatedtype (iOS 14, macOS 11)
    associatedtype Body: WidgetConfiguration
    /// https://developer.apple.com/documentation/swiftui/widgetconfiguration/body-swift.property (iOS 14, macOS 11)
    @MainActor var body: Body { get }
}

/// What every stand-in widget configuration and its modifiers are: the type checker needs no more.
@available(iOS 14.0, macOS 11.0, *)
public struct StandInWidgetConfiguration: WidgetConfiguration {
    nonisolated public init() {}
    public var body: StandInWidgetConfiguration { self }
}

@available(iOS 14.0, macOS 11.0, *)
extension WidgetConfiguration {
    /// https://developer.apple.com/documentation/swiftui/widgetconfiguration/configurationdisplayname(_:)-8tz5v (a String, iOS 14, macOS 11)
    nonisolated public func configurationDisplayName<S: StringProtocol>(_ displayName: S) -> StandInWidgetConfiguration {
        StandInWidgetConfiguration()
    }
    /// https://developer.apple.com/documentation/swiftui/widgetconfiguration/description(_:)-6f9ol (a String, iOS 14, macOS 11)
    nonisolated public func description<S: StringProtocol>(_ description: S) -> StandInWidgetConfiguration {
        StandInWidgetConfiguration()
    }
}

/// https://developer.apple.com/documentation/swiftui/widgetbundle (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency public protocol WidgetBundle {
    /// https://developer.apple.com/documentation/swiftui/widgetbundle/body-swift.associatedtype (iOS 14, macOS 11)
    associatedtype Body: Widget
    /// https://developer.apple.com/documentation/swiftui/widgetbundle/body-swift.property (iOS 14, macOS 11)
    @WidgetBundleBuilder @MainActor var body: Body { get }
    /// https://developer.apple.com/documentation/swiftui/widgetbundle/init() (iOS 14, macOS 11)
    init()
}

@available(iOS 14.0, macOS 11.0, *)
extension WidgetBundle {
    /// https://developer.apple.com/documentation/swiftui/widgetbundle/main() (iOS 14, macOS 11)
    @MainActor public static func main() { fatalError("stand-in") }
}

/// What a stand-in widget bundle's body is: the type checker needs no more.
@available(iOS 14.0, macOS 11.0, *)
public struct StandInWidget: Widget {
    nonisolated public init() {}
    public var body: StandInWidgetConfiguration { StandInWidgetConfiguration() }
}

/// Apple's marker for a widget or control built behind `if #available` in a bundle.
public protocol _LimitedAvailabilityWidgetMarker {}

/// https://developer.apple.com/documentation/swiftui/widgetbundlebuilder (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@resultBuilder public struct WidgetBundleBuilder {
    public static func buildExpression(_ widget: some Widget) -> StandInWidget { StandInWidget() }
    public static func buildBlock(_ widgets: StandInWidget...) -> StandInWidget { StandInWidget() }
    /// https://developer.apple.com/documentation/swiftui/widgetbundlebuilder/buildexpression(_:) (the
    /// ControlWidget overload: iOS 18, macOS 26)
    @available(iOS 18.0, macOS 26.0, *)
    public static func buildExpression(_ control: some ControlWidget) -> StandInControl { StandInControl() }
    /// https://developer.apple.com/documentation/swiftui/widgetbundlebuilder/buildblock(_:) (a control's
    /// block: iOS 18, macOS 26)
    @available(iOS 18.0, macOS 26.0, *)
    public static func buildBlock(_ control: StandInControl) -> StandInControl { control }
    /// https://developer.apple.com/documentation/swiftui/widgetbundlebuilder/buildoptional(_:) (iOS 14, macOS 11)
    public static func buildOptional(_ widget: (any Widget & _LimitedAvailabilityWidgetMarker)?) -> StandInWidget {
        StandInWidget()
    }
    /// https://developer.apple.com/documentation/swiftui/widgetbundlebuilder/buildlimitedavailability(_:) (the
    /// ControlWidget overload: iOS 18, macOS 26)
    @available(iOS 18.0, macOS 26.0, *)
    public static func buildLimitedAvailability(_ widget: some ControlWidget) -> any Widget
        & _LimitedAvailabilityWidgetMarker
    { StandInLimitedWidget() }
}

/// What a control is in a bundle's builder: the type checker needs no more.
@available(iOS 18.0, macOS 26.0, *)
public struct StandInControl: ControlWidget {
    nonisolated public init() {}
    public var body: StandInControlConfiguration { StandInControlConfiguration() }
}

/// What a stand-in control's body is.
@available(iOS 18.0, macOS 26.0, *)
public struct StandInControlConfiguration: ControlWidgetConfiguration {
    nonisolated public init() {}
}

/// What a control behind `if #available` becomes in a bundle.
public struct StandInLimitedWidget: Widget, _LimitedAvailabilityWidgetMarker {
    nonisolated public init() {}
    public var body: StandInWidgetConfiguration { StandInWidgetConfiguration() }
}

/// https://developer.apple.com/documentation/swiftui/controlwidget (iOS 18, macOS 26)
@available(iOS 18.0, macOS 26.0, *)
@MainActor @preconcurrency public protocol ControlWidget {
    /// https://developer.apple.com/documentation/swiftui/controlwidget/body-swift.associatedtype (iOS 18, macOS 26)
    associatedtype Body: ControlWidgetConfiguration
    /// https://developer.apple.com/documentation/swiftui/controlwidget/body-swift.property (iOS 18, macOS 26)
    @MainActor var body: Body { get }
    /// https://developer.apple.com/documentation/swiftui/controlwidget/init() (iOS 18, macOS 26)
    init()
}

/// https://developer.apple.com/documentation/swiftui/controlwidgetconfiguration (iOS 18, macOS 26)
@available(iOS 18.0, macOS 26.0, *)
@MainActor @preconcurrency public protocol ControlWidgetConfiguration {}

/// https://developer.apple.com/documentation/swiftui/controlwidgettemplate (iOS 18, macOS 26)
@available(iOS 18.0, macOS 26.0, *)
@MainActor @preconcurrency public protocol ControlWidgetTemplate {}

/// https://developer.apple.com/documentation/swiftui/controlwidgettemplatebuilder (iOS 18, macOS 26)
@available(iOS 18.0, macOS 26.0, *)
@resultBuilder public struct ControlWidgetTemplateBuilder {
    public static func buildBlock<T: ControlWidgetTemplate>(_ template: T) -> T { template }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/widgeturl(_:) (iOS 14, macOS 11)
    @available(iOS 14.0, macOS 11.0, *)
    nonisolated public func widgetURL(_ url: URL?) -> StandInView { StandInView() }
    /// https://developer.apple.com/documentation/swiftui/view/containerbackground(for:alignment:content:) (iOS 17, macOS 14)
    @available(iOS 17.0, macOS 14.0, *)
    nonisolated public func containerBackground<V: View>(
        for container: ContainerBackgroundPlacement, alignment: Alignment = .center, @ViewBuilder content: () -> V
    ) -> StandInView { StandInView() }
}

/// https://developer.apple.com/documentation/swiftui/containerbackgroundplacement (iOS 17, macOS 14):
/// its `widget` placement is WidgetKit's.
@available(iOS 17.0, macOS 14.0, *)
public struct ContainerBackgroundPlacement: Sendable, Hashable {
    /// What WidgetKit's `widget` placement is made from here.
    public static let _standIn = ContainerBackgroundPlacement()
}

/// https://developer.apple.com/documentation/swiftui/alignment (iOS 13, macOS 10.15)
public struct Alignment: Sendable, Equatable {
    /// https://developer.apple.com/documentation/swiftui/alignment/center (iOS 13, macOS 10.15)
    public static let center = Alignment()
}

/// https://developer.apple.com/documentation/swiftui/foreach (iOS 13, macOS 10.15)
public struct ForEach: View {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:) (iOS 13, macOS 10.15)
    nonisolated public init<Data: RandomAccessCollection, ID: Hashable, Content: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content
    ) {}
    public var body: Never { fatalError("stand-in") }
}
