// swift-format-ignore-file
// README example 4, as an app's file: the routine app. The README shows the lines between the markers.
// README example 4 begins
import SpotifyLinkUI
import SwiftUI

@main struct RoutineApp: App {               // ConnectRow: as in every app
    @State private var spotify = SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    var body: some Scene { WindowGroup { ConnectRow(spotify: spotify) } }
}

struct RoutinePlaylist: View {               // paste a playlist link into a routine
    let spotify: SpotifyLink, routine: RecordID
    @State private var link = ""
    var body: some View {
        TextField("Spotify playlist link", text: $link)
            .onSubmit { Task { try await spotify.links.link(routine, to: SpotifyReference(parsing: link, expecting: .playlist).id) } }
    }
}

struct RoutineRun: View {                    // while it runs: what plays; at its end: songs heard
    let spotify: SpotifyLink, playlist: SpotifyReference
    @State var indicator: NowPlayingIndicatorModel   // spotify.nowPlaying(): within 30 calls an hour
    @Environment(\.scenePhase) private var phase
    var body: some View {
        VStack {
            if indicator.isVisible, let item = indicator.item { Label(item.name, systemImage: "music.note") }
            if let summary = indicator.summaryMessage { Text(spotify.text(summary)) }   // "You got through 4.5 songs."
            Button("Finish") { indicator.finishRoutine() }
        }
        .onAppear { indicator.start(routine: playlist) }
        .onChange(of: phase) { indicator.setBackground(phase != .active) }   // no calls in the background
    }
}
// README example 4 ends

// The app's root with its extensions (not in the README; DocC: SpotifyLinkExtensions): what the
// widgets, the Live Activity, the intents and the control ask arrives here, and the app opens it.
struct RoutineRoot: View {
    let spotify: SpotifyLink
    @State private var shown: RecordID?          // the routine on screen
    @Environment(\.openURL) private var openURL
    var body: some View {
        ConnectRow(spotify: spotify)
            .onOpenURL { url in open(ExtensionLink(url)) }                      // a widget's tap
            .onChange(of: RoutineInbox.shared.link) { open(RoutineInbox.shared.link) }   // an intent, the control
    }

    private func open(_ link: ExtensionLink?) {
        guard let link else { return }
        RoutineInbox.shared.link = nil
        let record = RecordID(namespace: link.namespace, id: link.recordID)
        switch link.action {
        case .show: shown = record
        case .openPlaylist: Task { await spotify.openInSpotify(for: record)?.open(with: openURL) }
        }
    }
}

// SpotifyLinkExtensions/LiveActivities example 1 begins
struct RoutineLiveActivityButton: View {       // starts the Lock Screen's "song 3 of ≈ 6" with the routine
    let spotify: SpotifyLink, routine: ExtensionRecord
    @State var indicator: NowPlayingIndicatorModel   // spotify.nowPlaying(), started with the routine's playlist
    @State var activity: RoutineActivityModel        // spotify.routineActivity(): ended with the routine or a disconnect
    var body: some View {
        Button("Start") { Task { await activity.start(routine, lasting: .seconds(20 * 60), following: indicator) } }
    }
}
// SpotifyLinkExtensions/LiveActivities example 1 ends
