// swift-format-ignore-file
// (the examples keep the README's layout, character for character)
import Foundation
import PlaylistLinks
import SpotifyLinkUI
import SpotifyWebAPI

#if !canImport(SwiftUI)
/// README examples 2–4, the three apps, type-checked against SpotifyLinkUI's real models. Linux has
/// no SwiftUI, so the views are checked against SwiftUIStandIn.swift, which declares just the
/// SwiftUI, UIKit and AuthenticationServices names the examples use with their Apple signatures;
/// what this proves is that every model, property, method, state and case they touch exists as
/// shown. `ReadmeTests` counts the lines an app writes from these blocks.
@MainActor
func readmeExampleJournalApp() throws {
    // README example 2 begins
    // Once, at app start (register the redirect URI in Spotify's developer dashboard):
    let spotify = try SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")

    struct ConnectRow: View {                    // Settings: connect or disconnect Spotify
        let spotify: SpotifyLink
        @Environment(\.webAuthenticationSession) private var web
        var body: some View {
            Button(spotify.connection.isConnected ? "Disconnect Spotify" : "Connect Spotify") {
                if spotify.connection.isConnected { Task { await spotify.connection.disconnect() } }
                else { spotify.connection.connect { url, callback in try await web.authenticate(using: url, callback: callback.webAuthentication, additionalHeaderFields: [:]) } }
            }
            if let message = spotify.connection.message { Text(spotify.text(message)) }   // failed, ended, ends soon
        }
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
                if let status = card.status { Text(spotify.text(status)) }      // deleted, not fetched yet…
                if let links = card.openInSpotify { Button("Open in Spotify") { openURL(links.universalLink) } }
            }
            .task { await card.load() }                                         // no request while fresh
        }
    }
    // Deleting a session: try await spotify.links.removeLink(for: session)
    // README example 2 ends
    _ = spotify
}

@MainActor
func readmeExampleRoutineApp() throws {
    // README example 3 begins
    let spotify = try SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    // ConnectRow: as in the journal app.

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
    // README example 3 ends
    _ = spotify
}

@MainActor
func readmeExampleLearningApp() throws {
    // README example 4 begins
    let spotify = try SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    // ConnectRow: as in the journal app.

    struct SongSearch: View {                    // search in the language learned; open in Spotify
        @State var search: TrackSearchModel      // spotify.songSearch()
        @Environment(\.openURL) private var openURL
        var body: some View {
            List(search.results, id: \.uri) { track in
                Button("\(track.name) · \(track.artistLine)") { if let links = search.openInSpotify(track) { openURL(links.universalLink) } }
            }
            .searchable(text: $search.query)     // "さくら": kana, kanji and widths match
        }
    }

    struct Profile: View {                       // the learner's name, saved and top songs
        @State var learner: LearnerModel         // spotify.learner(); asks for user-library-read, user-top-read
        let spotify: SpotifyLink
        var body: some View {
            List(learner.savedTracks.map(\.track) + learner.topTracks, id: \.uri) { Text($0.name) }
                .task { await learner.load() }
            if case .failed(let message) = learner.savedPhase { Text(spotify.text(message)) }   // a scope missing: connect(adding:using:)
        }
    }
    // README example 4 ends
    _ = spotify
}
#endif
