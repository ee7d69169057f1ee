// swift-format-ignore-file
// The learning app's widget extension (the seed's "NihonGoStart" widget target), as its files: the
// learner's recent songs from the snapshot the app writes; a tap opens the app.
// DocC: SpotifyLinkExtensions/HomeScreenWidgets.
import SpotifyLinkExtensions
import SwiftUI
import WidgetKit

@main struct LearningWidgets: WidgetBundle {
    var body: some Widget { RecentSongsWidget() }
}

struct SongsEntry: TimelineEntry {
    let date: Date
    let tracks: [ExtensionSnapshot.Track]
    let emptyText: String?
}

struct SongsProvider: TimelineProvider {
    func placeholder(in context: Context) -> SongsEntry { SongsEntry(date: Date(), tracks: [], emptyText: nil) }
    func getSnapshot(in context: Context, completion: @escaping @Sendable (SongsEntry) -> Void) { completion(entry()) }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<SongsEntry>) -> Void) {
        completion(Timeline(entries: [entry()], policy: .never))
    }
    private func entry() -> SongsEntry {
        let snapshot = ExtensionSnapshotFile(appGroup: "group.com.example.nihongo")?.read().snapshot
        return SongsEntry(date: Date(), tracks: Array((snapshot?.recentTracks ?? []).prefix(3)), emptyText: snapshot?.emptyText)
    }
}

struct RecentSongsWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "recent-songs", provider: SongsProvider()) { entry in
            VStack(alignment: .leading) {
                if entry.tracks.isEmpty { Text(entry.emptyText ?? "Songs you play show here") }
                ForEach(entry.tracks, id: \.name) { track in Text("\(track.name) · \(track.artists)") }
            }
            .widgetURL(URL(string: "nihongo://songs"))
            .containerBackground(for: .widget) {}
        }
        .configurationDisplayName("Recent songs")
        .supportedFamilies([.systemMedium])
    }
}
