// swift-format-ignore-file
// The routine app's widget extension, as its files: it links SpotifyLinkExtensions alone, reads the
// snapshot the app writes (no Spotify request, no database), and shows the routine's Live Activity.
// DocC: SpotifyLinkExtensions/HomeScreenWidgets and SpotifyLinkExtensions/LiveActivities.
import SpotifyLinkExtensions
import SwiftUI
import WidgetKit

@main struct RoutineWidgets: WidgetBundle {
    var body: some Widget {
        NextRoutineWidget()
        RoutineLiveActivity()
        if #available(iOS 18, *) { RoutinePlaylistControl() }   // iOS 17 has the widget and the intents
    }
}

// MARK: A control (iOS 18): Control Center, the Lock Screen, the Action button

// SpotifyLinkExtensions/AppIntentsAndControls example 2 begins
@available(iOS 18, *)
struct RoutinePlaylistControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "routine-playlist") {
            ControlWidgetButton(action: OpenRoutinePlaylistIntent()) {
                Label("Routine playlist", systemImage: "music.note")
            } actionLabel: { _ in
                Text("Opening…")
            }
        }
    }
}
// SpotifyLinkExtensions/AppIntentsAndControls example 2 ends

// MARK: The next routine, on the Home Screen

// SpotifyLinkExtensions/HomeScreenWidgets example 1 begins
struct SnapshotEntry: TimelineEntry {
    let date: Date
    let reading: ExtensionSnapshotReading
}

/// One entry, read from the App Group: the app asks WidgetKit to reload when what it shows changed.
struct SnapshotProvider: TimelineProvider {
    let appGroup: String
    func placeholder(in context: Context) -> SnapshotEntry { SnapshotEntry(date: Date(), reading: .nothing(.notWritten)) }
    func getSnapshot(in context: Context, completion: @escaping @Sendable (SnapshotEntry) -> Void) { completion(entry()) }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<SnapshotEntry>) -> Void) {
        completion(Timeline(entries: [entry()], policy: .never))
    }
    private func entry() -> SnapshotEntry {
        SnapshotEntry(date: Date(), reading: ExtensionSnapshotFile(appGroup: appGroup)?.read() ?? .nothing(.notWritten))
    }
}
// SpotifyLinkExtensions/HomeScreenWidgets example 1 ends

struct NextRoutineWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "next-routine", provider: SnapshotProvider(appGroup: "group.com.example.routines")) { entry in
            NextRoutineView(reading: entry.reading)
                .containerBackground(for: .widget) {}
        }
        .configurationDisplayName("Next routine")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

struct NextRoutineView: View {
    let reading: ExtensionSnapshotReading
    var body: some View {
        if let next = reading.snapshot?.playlists.first {
            VStack(alignment: .leading) {
                Text(next.title ?? "")
                if let name = next.name { Label(name, systemImage: "music.note") }
                if let summary = next.summary { Text(summary).accessibilityLabel(Text(next.spokenSummary ?? summary)) }
            }
            .widgetURL(next.link(.show).url(scheme: "routines"))   // the app shows the routine
        } else {
            Text(reading.snapshot?.emptyText ?? "Open the app to set up your routines")
        }
    }
}

// MARK: The running routine, on the Lock Screen and in the Dynamic Island

// SpotifyLinkExtensions/LiveActivities example 2 begins
struct RoutineLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: RoutineActivityAttributes.self) { context in
            VStack(alignment: .leading) {
                Text(context.attributes.title)
                Text(context.state.status)                                   // "Song 3 of ≈ 6"
                if !context.state.hasEnded {
                    ProgressView(timerInterval: context.state.timerInterval)  // counts by itself: no update
                }
            }
            .widgetURL(context.attributes.link(.show).url(scheme: "routines"))
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.bottom) { Text(context.state.status) }
            } compactLeading: {
                Image(systemName: "music.note")
            } compactTrailing: {
                Text(timerInterval: context.state.timerInterval)
            } minimal: {
                Text(timerInterval: context.state.timerInterval)
            }
            .widgetURL(context.attributes.link(.show).url(scheme: "routines"))
        }
    }
}
// SpotifyLinkExtensions/LiveActivities example 2 ends
