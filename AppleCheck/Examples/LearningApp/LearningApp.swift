// swift-format-ignore-file
// README example 5, as an app's file: the language-learning app. The README shows the lines
// between the markers.
// README example 5 begins
import SpotifyLinkUI
import SwiftUI

@main struct LearningApp: App {              // ConnectRow: as in every app
    @State private var spotify = SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    var body: some Scene { WindowGroup { ConnectRow(spotify: spotify) } }
}

struct SongSearch: View {                    // search in the language learned; open in Spotify
    @State var search: TrackSearchModel      // spotify.songSearch()
    @Environment(\.openURL) private var openURL
    var body: some View {
        List(search.results, id: \.uri) { track in
            Button("\(track.name) · \(track.artistLine)") { Task { await search.openInSpotify(track)?.open(with: openURL) } }
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
// README example 5 ends

// The app's root with its widget (not in the README; DocC: SpotifyLinkExtensions/HomeScreenWidgets):
// the first saved songs the learner model loads follow into the widget's snapshot by themselves.
struct LearningRoot: View {
    let spotify: SpotifyLink
    var body: some View {
        ConnectRow(spotify: spotify)
            .task { await spotify.showInExtensions([], recentSongs: true) }
    }
}

// The root of the app's update that adopts SpotifyLink (DocC: SpotifyLinkUI/UpgradingAnApp): the
// app kept its users' Spotify sign-in in UserDefaults itself, and they stay connected.
struct UpgradedLearningRoot: View {
    let spotify: SpotifyLink
    var body: some View {
        // SpotifyLinkUI/UpgradingAnApp example 1 begins
        ConnectRow(spotify: spotify)
            .task {
                // At every launch; it sends nothing once the earlier sign-in is adopted or gone.
                await spotify.connection.adoptEarlierSignIn(
                    from: .standard, refreshTokenKey: "spotify_refresh_token",
                    scopes: ["user-read-private", "user-library-read", "user-top-read"],
                    removing: ["spotify_access_token", "spotify_token_expiry"])
            }
        // SpotifyLinkUI/UpgradingAnApp example 1 ends
    }
}
