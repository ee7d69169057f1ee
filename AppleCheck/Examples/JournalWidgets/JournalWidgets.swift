// swift-format-ignore-file
// The journal's widget extension, as its files: the latest session's playlist card (cover, name,
// count, length), read from the snapshot the app writes. Its tap opens the app, which opens the
// playlist in Spotify (`SpotifyLink.openInSpotify(from:)`): a widget cannot open Spotify itself.
// DocC: SpotifyLinkExtensions/HomeScreenWidgets.
import SpotifyLinkExtensions
import SwiftUI
import WidgetKit

@main struct JournalWidgets: WidgetBundle {
    var body: some Widget { LatestSessionWidget() }
}

struct SessionEntry: TimelineEntry {
    let date: Date
    let reading: ExtensionSnapshotReading
    var cover: Data? = nil   // the session's cover, read beside the snapshot
}

struct SessionProvider: TimelineProvider {
    func placeholder(in context: Context) -> SessionEntry { SessionEntry(date: Date(), reading: .nothing(.notWritten)) }
    func getSnapshot(in context: Context, completion: @escaping @Sendable (SessionEntry) -> Void) { completion(entry()) }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<SessionEntry>) -> Void) {
        completion(Timeline(entries: [entry()], policy: .never))   // the app asks for a reload on a change
    }
    private func entry() -> SessionEntry {
        let file = ExtensionSnapshotFile(appGroup: "group.com.example.journal")
        let reading = file?.read() ?? .nothing(.notWritten)
        let cover = reading.snapshot?.playlists.first.flatMap { file?.cover(of: $0) }
        return SessionEntry(date: Date(), reading: reading, cover: cover)
    }
}

struct LatestSessionWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "latest-session", provider: SessionProvider()) { entry in
            SessionCard(reading: entry.reading, cover: entry.cover).containerBackground(for: .widget) {}
        }
        .configurationDisplayName("Latest session")
        .description("Your last session's playlist")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// SpotifyLinkExtensions/HomeScreenWidgets example 2 begins
struct SessionCard: View {
    let reading: ExtensionSnapshotReading
    let cover: Data?
    var body: some View {
        if let session = reading.snapshot?.playlists.first, let name = session.name {
            VStack(alignment: .leading) {
                if let cover, let image = UIImage(data: cover) {
                    Image(uiImage: image).resizable().frame(width: 44, height: 44)
                        .accessibilityHidden(true)   // the name says what it is
                }
                Text(session.title ?? "")
                Label(name, systemImage: "music.note.list")
                if let summary = session.summary { Text(summary).accessibilityLabel(Text(session.spokenSummary ?? summary)) }
            }
            .widgetURL(session.link(.openPlaylist).url(scheme: "journal"))   // the app opens it in Spotify
        } else {
            Text(reading.snapshot?.emptyText ?? "No session with a playlist yet")
        }
    }
}
// SpotifyLinkExtensions/HomeScreenWidgets example 2 ends
