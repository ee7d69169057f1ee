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
