// swift-format-ignore-file
// README example 3, as an app's file: the journal app. The README shows the lines between the markers.
// README example 3 begins
import SpotifyLinkUI
import SwiftUI

@main struct JournalApp: App {
    // Once, at launch (register the redirect URI in Spotify's developer dashboard). It touches no
    // disk here; a data folder that cannot be opened (a full disk) shows on the cards as a message.
    @State private var spotify = SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    var body: some Scene { WindowGroup { ConnectRow(spotify: spotify) } }   // beside the app's own screens
}

struct AttachPlaylist: View {                // a session's "attach a playlist" sheet
    @State var picker: PlaylistPickerModel   // spotify.picker()
    let session: RecordID                    // RecordID(namespace: "session", id: "42")
    var body: some View {
        List(picker.results, id: \.id) { playlist in
            Button(playlist.name) { Task { try await picker.select(playlist, for: session) } }
        }
        .searchable(text: $picker.query)
        .task { await picker.appear() }
    }
}

struct SessionPlaylist: View {               // the session's screen: the saved card, offline too
    @State var card: PlaylistCardModel       // spotify.card(for: session)
    let spotify: SpotifyLink
    @Environment(\.openURL) private var openURL
    var body: some View {
        VStack {
            if let data = card.card?.cover, let image = UIImage(data: data) { Image(uiImage: image) }
            Text(card.card?.metadata.name ?? "")
            if let summary = card.summary { Text(spotify.text(summary)) }   // "50 tracks · 3 h 12 min"
            if let note = card.note { Text(spotify.text(note)) }        // deleted, not fetched yet…
            if let link = card.openInSpotify(fallback: .appStore) {        // the app, else the App Store
                Button(spotify.text(.spotifyButton(link.label()))) { Task { await link.open(with: openURL) } }
            }
        }
        .task { await card.load() }                                         // no request while fresh
    }
}
// Deleting a session: try await spotify.links.removeLink(for: session)
// README example 3 ends

// The journal's root with its extensions (not in the README; DocC: SpotifyLinkExtensions): the
// widget's tap and an App Intent open the latest session's playlist through the app, as only the
// app can open Spotify.
import AppIntents

/// What the intent asks of the app: its root follows it.
@MainActor @Observable final class JournalInbox {
    static let shared = JournalInbox()
    var openLatestSession = false
}

// SpotifyLinkExtensions/AppIntentsAndControls example 3 begins
/// "Open my last session's playlist" (Siri, Shortcuts, Spotlight): runs in the app.
struct OpenLatestSessionPlaylistIntent: AppIntent {
    static let title: LocalizedStringResource = "Open my last session's playlist"
    static let openAppWhenRun = true
    @MainActor func perform() async throws -> some IntentResult {
        JournalInbox.shared.openLatestSession = true
        return .result()
    }
}
// SpotifyLinkExtensions/AppIntentsAndControls example 3 ends

// SpotifyLinkExtensions/HomeScreenWidgets example 3 begins
struct JournalRoot: View {
    let spotify: SpotifyLink
    let latestSession: RecordID?                 // from the app's own records
    @Environment(\.openURL) private var openURL
    var body: some View {
        ConnectRow(spotify: spotify)
            .onOpenURL { url in Task { await spotify.openInSpotify(from: url)?.open(with: openURL) } }   // the widget
            .onChange(of: JournalInbox.shared.openLatestSession) {                                      // the intent
                guard JournalInbox.shared.openLatestSession, let latestSession else { return }
                JournalInbox.shared.openLatestSession = false
                Task { await spotify.openInSpotify(for: latestSession)?.open(with: openURL) }
            }
    }
}
// SpotifyLinkExtensions/HomeScreenWidgets example 3 ends
