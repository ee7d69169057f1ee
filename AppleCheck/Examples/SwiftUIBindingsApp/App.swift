// swift-format-ignore-file
// The first app example of SpotifyLinkUI.docc/SwiftUIBindings.md, as an app's file; its second is
// README example 2 (ConnectRow.swift). ReadmeTests compares both with the article.
// SwiftUIBindings example 1 begins
import SpotifyLinkUI
import SwiftUI

@main struct JournalApp: App {
    @State private var spotify = SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
    var body: some Scene { WindowGroup { ConnectRow(spotify: spotify) } }
}
// SwiftUIBindings example 1 ends
