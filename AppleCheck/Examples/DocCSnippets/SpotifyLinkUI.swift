// swift-format-ignore-file
// The Swift blocks of SpotifyLinkUI.docc's OpeningSpotify.md and SwiftUIBindings.md (its third; the
// first two are SwiftUIBindingsApp/App.swift and README example 2), as an app's code (see
// PlaylistLinks-GettingStarted.swift).
import SpotifyLinkUI
import SwiftUI

struct OpenInSpotifyRow: View {
    let spotify: SpotifyLink
    let card: PlaylistCardModel
    @Environment(\.openURL) private var openURL
    var body: some View {
        // SpotifyLinkUI/OpeningSpotify example 1 begins
        if let link = card.openInSpotify(fallback: .appStore) {
            Button(spotify.text(.spotifyButton(link.label()))) { Task { await link.open(with: openURL) } }
        }
        // SpotifyLinkUI/OpeningSpotify example 1 ends
    }
}

@MainActor func bindingsPreview() {
    // SpotifyLinkUI/SwiftUIBindings example 3 begins
    let spotify = SpotifyLink.preview()
    let card = spotify.card(for: SpotifyServices.previewRecord)   // "Deep Work", 50 tracks, saved
    let nowPlaying = spotify.nowPlaying()                          // "さくら色の朝" playing
    // SpotifyLinkUI/SwiftUIBindings example 3 ends
    _ = (card, nowPlaying)
}
