// swift-format-ignore-file
// (the example keeps the README's layout, character for character)
import Foundation
import PlaylistLinks
import SpotifyAuth
import SpotifyLinkUI
import SpotifyWebAPI

#if !canImport(SwiftUI)
/// README example 4, the SwiftUI bindings, type-checked against SpotifyLinkUI's real models. Linux
/// has no SwiftUI, so the views are checked against SwiftUIStandIn.swift, which declares just the
/// SwiftUI and UIKit names the example uses with their Apple signatures; what this proves is that
/// every model, property, method, state and case the example touches exists as shown.
@MainActor
func readmeExampleSwiftUI(session: SpotifySession, client: SpotifyClient) {
    // README example 4 begins
    // Once, at app start: the session, the client, and the redirect URI registered in Spotify's dashboard.
    let connection = SpotifyConnectionModel(session: session, client: client, redirectURI: "myapp://spotify-callback")

    struct SpotifySettingsView: View {          // Connect / Disconnect
        let connection: SpotifyConnectionModel
        @Environment(\.webAuthenticationSession) private var web
        @State private var confirming = false
        var body: some View {
            Section("Spotify") {
                switch connection.state {
                case .disconnected, .failed, .needsSignInAgain:
                    Button("Connect Spotify") {                                // a double tap starts one sign-in
                        connection.connect { url, scheme in try await web.authenticate(using: url, callback: .customScheme(scheme), additionalHeaderFields: [:]) }
                    }
                    if case .failed(let message) = connection.state { Text(message).foregroundStyle(.red) }
                    if case .needsSignInAgain(let reason) = connection.state { Text(reason) }
                case .connecting:
                    HStack { ProgressView(); Button("Cancel") { connection.cancelConnect() } }
                case .connected(let account):
                    Text(account.displayName ?? "Connected")
                    Button("Disconnect", role: .destructive) { confirming = true }
                }
            }
            .task { await connection.load() }
            .confirmationDialog(connection.disconnectExplanation, isPresented: $confirming) {
                Button("Disconnect", role: .destructive) { Task { await connection.disconnect() } }
            }
        }
    }

    struct PlaylistPickerSheet: View {          // search field, local results at once, Spotify's after a pause
        @State var picker: PlaylistPickerModel  // PlaylistPickerModel(store: links, connection: connection)
        let record: RecordID
        @Environment(\.dismiss) private var dismiss
        var body: some View {
            List {
                ForEach(picker.results, id: \.id) { playlist in
                    Button(playlist.name) { Task { _ = try? await picker.select(playlist, for: record); dismiss() } }
                }
                if picker.canLoadMore { Button("More results") { Task { await picker.loadMore() } } }
                switch picker.phase {
                case .searching: ProgressView()
                case .empty(let message), .offline(let message), .failed(let message): Text(message)
                case .ready: EmptyView()
                }
            }
            .searchable(text: $picker.query)
            .task { await picker.appear() }
        }
    }

    struct PlaylistCardView: View {             // a record's detail screen
        @State var card: PlaylistCardModel      // PlaylistCardModel(record: record, store: links, connection: connection)
        @Environment(\.openURL) private var openURL
        var body: some View {
            VStack(alignment: .leading) {
                if let data = card.card?.cover, let image = UIImage(data: data) { Image(uiImage: image).resizable().scaledToFit() }
                Text(card.card?.metadata.name ?? "Spotify playlist").font(.headline)
                if let summary = card.summaryLine { Text(summary) }          // "50 tracks · 3 h 12 min"
                if let status = card.statusLine { Text(status).font(.footnote) }
                if let links = card.openInSpotify { Button("Open in Spotify") { openURL(links.universalLink) } }
            }
            .task { await card.load() }                                      // saved card at once, then a refresh
            .refreshable { await card.refresh() }
        }
    }

    struct NowPlayingBadge: View {              // hidden unless connected and something is loaded
        let indicator: NowPlayingIndicatorModel // NowPlayingIndicatorModel(connection: connection, policy: .economical)
        @Environment(\.scenePhase) private var phase
        var body: some View {
            Group {
                if indicator.isVisible, let item = indicator.item {
                    Label(item.name, systemImage: indicator.isPaused ? "pause.fill" : "music.note")
                }
            }
            .onChange(of: phase) { indicator.setBackground(phase != .active) }
        }
    }
    // Routine: indicator.start(routine: card.card?.metadata.reference) … indicator.finishRoutine()?.sentence
    // → "You got through 4.5 songs." (or "No music was playing during this routine.")

    struct PrivacyView: View {                  // scopes in plain words, what is stored where, how to revoke
        let privacy = SpotifyPrivacyModel(storeKind: .keychain)
        var body: some View {
            List {
                Section("Spotify may") { ForEach(privacy.scopes, id: \.scope) { Text($0.meaning) } }
                Section("Stored") { ForEach(privacy.stored, id: \.what) { Text("\($0.what): \($0.location), removed \($0.removedWhen)") } }
                Section("Never collected") { ForEach(privacy.neverCollected, id: \.self) { Text($0) } }
                Section("Revoke") { ForEach(privacy.revokeSteps, id: \.self) { Text($0) } }
            }
        }
    }
    // README example 4 ends
    _ = connection
}

#endif
