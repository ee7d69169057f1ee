// swift-format-ignore-file
// README example 2, as an app's file (the three apps share it). The README shows the lines between
// the markers; scripts/sync-readme-examples.py copies them there.
// README example 2 begins
import AuthenticationServices
import SpotifyLinkUI
import SwiftUI

struct ConnectRow: View {                    // Settings: connect or disconnect Spotify
    let spotify: SpotifyLink
    @Environment(\.webAuthenticationSession) private var web
    var body: some View {
        Button(spotify.connection.isConnected ? "Disconnect Spotify" : "Connect Spotify") {
            if spotify.connection.isConnected { Task { await spotify.connection.disconnect() } }
            else { spotify.connection.connect(using: web) }   // Apple's sheet; iOS 17.0+
        }
        if let message = spotify.connection.message { Text(spotify.text(message)) }   // failed, ended, ends soon
    }
}
// README example 2 ends
