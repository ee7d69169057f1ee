// Stand-in: the WidgetKit names the package and the example extensions use (the app asks its
// widgets to reload when the extensions' snapshot changed; the examples' widgets, Live Activity and
// control). Each declaration: Apple's documentation page, and its availability there as an
// attribute the compiler enforces. `shared` is `static let` on Apple's page; Apple's module is not
// built in the Swift 6 language mode, so its apps use it from any actor, which
// `nonisolated(unsafe)` reproduces here. WidgetKit re-exports SwiftUI, where `Widget`,
// `WidgetBundle` and `ControlWidget` are declared.
@_exported public import Foundation  // as Apple's framework re-exports it
@_exported public import SwiftUI
public import AppIntents

#if os(iOS)
    public import ActivityKit
#endif

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

// MARK: Timelines

/// https://developer.apple.com/documentation/widgetkit/timelineentry (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public protocol TimelineEntry {
    /// https://developer.apple.com/documentation/widgetkit/timelineentry/date (iOS 14, macOS 11)
    var date: Date { get }
}

/// https://developer.apple.com/documentation/widgetkit/timelinereloadpolicy (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct TimelineReloadPolicy: Equatable, Sendable {
    /// https://developer.apple.com/documentation/widgetkit/timelinereloadpolicy/atend (iOS 14, macOS 11)
    public static let atEnd = TimelineReloadPolicy()
    /// https://developer.apple.com/documentation/widgetkit/timelinereloadpolicy/never (iOS 14, macOS 11)
    public static let never = TimelineReloadPolicy()
    /// https://developer.apple.com/documentation/widgetkit/timelinereloadpolicy/after(_:) (iOS 14, macOS 11)
    public static func after(_ date: Date) -> TimelineReloadPolicy { TimelineReloadPolicy() }
}

/// https://developer.apple.com/documentation/widgetkit/timeline (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct Timeline<EntryType> where EntryType: TimelineEntry {
    /// https://developer.apple.com/documentation/widgetkit/timeline/init(entries:policy:) (iOS 14, macOS 11)
    public init(entries: [EntryType], policy: TimelineReloadPolicy) {}
}

/// https://developer.apple.com/documentation/widgetkit/timelineprovidercontext (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public struct TimelineProviderContext {
    /// https://developer.apple.com/documentation/widgetkit/timelineprovidercontext/ispreview (iOS 14, macOS 11)
    public var isPreview: Bool { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/widgetkit/timelineprovidercontext/family (iOS 14, macOS 11)
    public var family: WidgetFamily { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/widgetkit/timelineprovider (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public protocol TimelineProvider {
    /// https://developer.apple.com/documentation/widgetkit/timelineprovider/entry (iOS 14, macOS 11)
    associatedtype Entry: TimelineEntry
    /// https://developer.apple.com/documentation/widgetkit/timelineprovider/context (iOS 14, macOS 11)
    typealias Context = TimelineProviderContext
    /// https://developer.apple.com/documentation/widgetkit/timelineprovider/placeholder(in:) (iOS 14, macOS 11)
    func placeholder(in context: Self.Context) -> Self.Entry
    /// https://developer.apple.com/documentation/widgetkit/timelineprovider/getsnapshot(in:completion:) (iOS 14, macOS 11)
    @preconcurrency func getSnapshot(in context: Self.Context, completion: @escaping @Sendable (Self.Entry) -> Void)
    /// https://developer.apple.com/documentation/widgetkit/timelineprovider/gettimeline(in:completion:) (iOS 14, macOS 11)
    @preconcurrency func getTimeline(
        in context: Self.Context, completion: @escaping @Sendable (Timeline<Self.Entry>) -> Void)
}

/// https://developer.apple.com/documentation/widgetkit/widgetfamily (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
public enum WidgetFamily: Sendable, Hashable {
    /// https://developer.apple.com/documentation/widgetkit/widgetfamily/systemsmall (iOS 14, macOS 11)
    case systemSmall
    /// https://developer.apple.com/documentation/widgetkit/widgetfamily/systemmedium (iOS 14, macOS 11)
    case systemMedium
    /// https://developer.apple.com/documentation/widgetkit/widgetfamily/accessoryrectangular (iOS 16, macOS 14)
    @available(iOS 16.0, macOS 14.0, *)
    case accessoryRectangular
}

@available(iOS 14.0, macOS 11.0, *)
extension WidgetConfiguration {
    /// https://developer.apple.com/documentation/swiftui/widgetconfiguration/supportedfamilies(_:) (iOS 14, macOS 11)
    nonisolated public func supportedFamilies(_ families: [WidgetFamily]) -> StandInWidgetConfiguration {
        StandInWidgetConfiguration()
    }
}

/// https://developer.apple.com/documentation/widgetkit/staticconfiguration (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency public struct StaticConfiguration<Content>: WidgetConfiguration where Content: View {
    /// https://developer.apple.com/documentation/widgetkit/staticconfiguration/init(kind:provider:content:) (iOS 14, macOS 11)
    @MainActor @preconcurrency public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, @ViewBuilder content: @escaping (Provider.Entry) -> Content
    ) {}
    public var body: StandInWidgetConfiguration { StandInWidgetConfiguration() }
}

extension ContainerBackgroundPlacement {
    /// https://developer.apple.com/documentation/widgetkit/containerbackgroundplacement/widget (iOS 17, macOS 14)
    @available(iOS 17.0, macOS 14.0, *)
    public static var widget: ContainerBackgroundPlacement { ._standIn }
}

// MARK: Live Activities (iOS)

#if os(iOS)
    /// https://developer.apple.com/documentation/widgetkit/activityviewcontext (iOS 16.1)
    @available(iOS 16.1, *)
    public struct ActivityViewContext<Attributes> where Attributes: ActivityAttributes {
        /// https://developer.apple.com/documentation/widgetkit/activityviewcontext/attributes (iOS 16.1)
        public let attributes: Attributes
        /// https://developer.apple.com/documentation/widgetkit/activityviewcontext/state (iOS 16.1)
        public let state: Attributes.ContentState
        /// https://developer.apple.com/documentation/widgetkit/activityviewcontext/isstale (iOS 16.2)
        @available(iOS 16.2, *)
        public var isStale: Bool { fatalError("stand-in") }
    }

    /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedregionposition (iOS 16.1)
    @available(iOS 16.1, *)
    public struct DynamicIslandExpandedRegionPosition: Sendable {
        /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedregionposition/center (iOS 16.1)
        public static let center = DynamicIslandExpandedRegionPosition()
        /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedregionposition/bottom (iOS 16.1)
        public static let bottom = DynamicIslandExpandedRegionPosition()
    }

    /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedregion (iOS 16.1)
    @available(iOS 16.1, *)
    public struct DynamicIslandExpandedRegion<Content> where Content: View {
        /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedregion/init(_:priority:content:) (iOS 16.1)
        public init(_ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content) {}
    }

    /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedcontent (iOS 16.1)
    @available(iOS 16.1, *)
    public struct DynamicIslandExpandedContent<Content> where Content: View {}

    /// https://developer.apple.com/documentation/widgetkit/dynamicislandexpandedcontentbuilder (iOS 16.1)
    @available(iOS 16.1, *)
    @resultBuilder public struct DynamicIslandExpandedContentBuilder {
        public static func buildBlock<C: View>(_ region: DynamicIslandExpandedRegion<C>...) -> DynamicIslandExpandedContent<StandInView> {
            DynamicIslandExpandedContent()
        }
    }

    /// https://developer.apple.com/documentation/widgetkit/dynamicisland (iOS 16.1)
    @available(iOS 16.1, *)
    public struct DynamicIsland {
        /// https://developer.apple.com/documentation/widgetkit/dynamicisland/init(expanded:compactleading:compacttrailing:minimal:) (iOS 16.1)
        public init<Expanded: View, CompactLeading: View, CompactTrailing: View, Minimal: View>(
            @DynamicIslandExpandedContentBuilder expanded: @escaping () -> DynamicIslandExpandedContent<Expanded>,
            @ViewBuilder compactLeading: @escaping () -> CompactLeading,
            @ViewBuilder compactTrailing: @escaping () -> CompactTrailing,
            @ViewBuilder minimal: @escaping () -> Minimal
        ) {}
        /// https://developer.apple.com/documentation/widgetkit/dynamicisland/widgeturl(_:) (iOS 16.1)
        public func widgetURL(_ url: URL?) -> DynamicIsland { self }
    }

    /// https://developer.apple.com/documentation/widgetkit/activityconfiguration (iOS 16.1)
    @available(iOS 16.1, *)
    @MainActor @preconcurrency public struct ActivityConfiguration<Attributes>: WidgetConfiguration
    where Attributes: ActivityAttributes {
        /// https://developer.apple.com/documentation/widgetkit/activityconfiguration/init(for:content:dynamicisland:) (iOS 16.1)
        @MainActor @preconcurrency public init<Content: View>(
            for attributesType: Attributes.Type,
            @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
            dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
        ) {}
        public var body: StandInWidgetConfiguration { StandInWidgetConfiguration() }
    }
#endif

// MARK: Controls (iOS 18)

/// https://developer.apple.com/documentation/widgetkit/staticcontrolconfiguration (iOS 18, macOS 26)
@available(iOS 18.0, macOS 26.0, *)
@MainActor @preconcurrency public struct StaticControlConfiguration<Content>: ControlWidgetConfiguration
where Content: ControlWidgetTemplate {
    /// https://developer.apple.com/documentation/widgetkit/staticcontrolconfiguration/init(kind:content:) (iOS 18, macOS 26)
    @MainActor @preconcurrency public init(kind: String, @ControlWidgetTemplateBuilder content: @escaping () -> Content) {}
}

/// https://developer.apple.com/documentation/widgetkit/controlwidgetbutton (iOS 18, macOS 26)
@available(iOS 18.0, macOS 26.0, *)
@MainActor @preconcurrency public struct ControlWidgetButton<Label, ActionLabel, Action>: ControlWidgetTemplate
where Label: View, ActionLabel: View {
    /// https://developer.apple.com/documentation/widgetkit/controlwidgetbutton/init(action:label:actionlabel:) (iOS 18, macOS 26)
    @MainActor @preconcurrency public init(
        action: Action, @ViewBuilder label: @escaping () -> Label, @ViewBuilder actionLabel: @escaping (Bool) -> ActionLabel
    ) where Action: AppIntent {}
}
