// swift-format-ignore-file
// The Swift blocks of SpotifyLinkUI.docc's OpeningSpotify.md, SwiftUIBindings.md (its third to fifth; the
// first two are SwiftUIBindingsApp/App.swift and README example 2), ChildrensApps.md, UITests.md
// (its first; its second is JournalUITests/) and SearchBeforeConnecting.md, as an app's code (see PlaylistLinks-GettingStarted.swift).
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
    // SpotifyLinkUI/SwiftUIBindings example 5 begins
    let spotify = SpotifyLink.preview()
    let card = spotify.card(for: SpotifyServices.previewRecord)   // "Deep Work", 50 tracks, saved
    let nowPlaying = spotify.nowPlaying()                          // "さくら色の朝" playing
    // SpotifyLinkUI/SwiftUIBindings example 5 ends
    _ = (card, nowPlaying)
}

@MainActor func childrensAppConfiguration() -> SpotifyLink {
    // SpotifyLinkUI/ChildrensApps example 1 begins
    var configuration = SpotifyLink.Configuration(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    configuration.parentalGate = .question
    let spotify = SpotifyLink(configuration)
    // SpotifyLinkUI/ChildrensApps example 1 ends
    return spotify
}

// SpotifyLinkUI/ChildrensApps example 2 begins
struct ParentalGateSheet: View {
    let spotify: SpotifyLink
    @State private var answer = ""
    var body: some View {
        if let challenge = spotify.parentalGate.challenge {
            VStack {
                Text(spotify.text(challenge.reason))
                Text(spotify.text(challenge.question))
                if let note = spotify.parentalGate.note { Text(spotify.text(note)) }
                TextField("", text: $answer)
                    .onSubmit {
                        spotify.parentalGate.answer(answer)
                        answer = ""
                    }
            }
        }
    }
}
// SpotifyLinkUI/ChildrensApps example 2 ends

// SpotifyLinkUI/ChildrensApps example 3 begins
struct RoutinesRoot: View {
    let spotify: SpotifyLink
    @Bindable var gate: ParentalGateModel   // spotify.parentalGate
    var body: some View {
        Text("Routines")
            .sheet(isPresented: $gate.isAsking) { ParentalGateSheet(spotify: spotify) }
    }
}
// SpotifyLinkUI/ChildrensApps example 3 ends

// SpotifyLinkUI/SwiftUIBindings example 3 begins
struct DisconnectButton: View {
    let spotify: SpotifyLink
    @State private var asking = false
    var body: some View {
        Button("Disconnect Spotify") { asking = true }
            .confirmationDialog("Disconnect Spotify", isPresented: $asking) {
                Button("Disconnect and forget details", role: .destructive) {
                    Task { await spotify.connection.disconnect() }
                }
                Button("Disconnect, keep details") {
                    Task { await spotify.connection.disconnect(keepingDetails: true) }
                }
            } message: {
                Text(spotify.text(spotify.connection.disconnectExplanation()))
            }
    }
}
// SpotifyLinkUI/SwiftUIBindings example 3 ends

@MainActor func uiTestLaunch() -> SpotifyLink {
    // SpotifyLinkUI/UITests example 1 begins
    let spotify = SpotifyLink(
        SpotifyLink.Configuration(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback").forUITests())
    // SpotifyLinkUI/UITests example 1 ends
    return spotify
}

/// The routine app's record as a SwiftData model keeps it (the `@Model` class is the app's own):
/// a stable key for its link, and SchemaV6's three fields.
struct RoutineRecord {
    var linkKey = UUID()
    var spotifyPlaylistID: String?
    var spotifyPlaylistName: String?
    var spotifyPlaylistImageURL: String?
}

@MainActor func swiftDataRecord(_ routine: RoutineRecord, spotify: SpotifyLink) async throws {
    // SpotifyLinkUI/SwiftUIBindings example 4 begins
    let record = RecordID(namespace: "routine", id: routine.linkKey.uuidString)
    // The record deleted: keep what an undo needs.
    let removed = try await spotify.links.removeLinkForUndo(for: record)
    // The delete undone: the same link, linked at the same time.
    if let removed { try await spotify.links.undoRemoval(removed) }
    // An earlier schema's fields, at launch: a record linked already keeps its link.
    if let id = routine.spotifyPlaylistID {
        try await spotify.links.migrateLegacyLink(
            record, playlistID: id, name: routine.spotifyPlaylistName, imageURL: routine.spotifyPlaylistImageURL)
    }
    // SpotifyLinkUI/SwiftUIBindings example 4 ends
}

// SpotifyLinkUI/ChildrensApps example 4 begins
struct RoutinePlaylistFacts: View {
    let spotify: SpotifyLink
    let card: PlaylistCardModel
    @Bindable var songs: TrackSearchModel   // spotify.songSearch()
    var body: some View {
        VStack {
            if let summary = card.summary, let spoken = card.summaryLabel {
                Text(spotify.text(summary)).accessibilityLabel(Text(spotify.text(spoken)))
            }
            if let explicit = card.explicitSongs { Text(spotify.text(explicit)) }
            Toggle(spotify.text(.noExplicitSongsFilter), isOn: $songs.hidesExplicit)
        }
    }
}
// SpotifyLinkUI/ChildrensApps example 4 ends

@MainActor func searchBeforeConnecting() -> SpotifyLink {
    // SpotifyLinkUI/SearchBeforeConnecting example 1 begins
    var configuration = SpotifyLink.Configuration(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    configuration.signedOutSearch = SignedOutSearch(
        service: URL(string: "https://search.example.com")!, proof: .appAttest())
    let spotify = SpotifyLink(configuration)
    // SpotifyLinkUI/SearchBeforeConnecting example 1 ends
    return spotify
}
