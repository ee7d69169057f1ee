// swift-format-ignore-file
// The Swift blocks of SpotifyLinkServices.docc/SpotifyLinkServices.md, as an app's code (see
// PlaylistLinks-GettingStarted.swift). `emulator` is the test's running emulator: only its address.
import Foundation
import SpotifyLinkServices
import SpotifyLinkUI  // SpotifyMessage, as the article says
import SpotifyWebAPI

func servicesMake(emulator: (baseURL: URL, unused: Void)) async throws -> [SimplifiedPlaylist] {
    // SpotifyLinkServices/SpotifyLinkServices example 1 begins
    // A device: the platform's secret store and data folder, this device's share of the quota.
    let spotify = SpotifyServices(.init(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback"))

    // The Spotify emulator: the sign-in and the data in memory, nothing on disk.
    let test = SpotifyServices(.emulator(url: emulator.baseURL))

    let playlists = try await spotify.client.allMyPlaylists()
    // SpotifyLinkServices/SpotifyLinkServices example 1 ends
    _ = test
    return playlists.items
}

func servicesCapabilities(spotify: SpotifyServices, text: (SpotifyMessage) -> String) async throws {
    // SpotifyLinkServices/SpotifyLinkServices example 2 begins
    let report = try await spotify.capabilities()
    for finding in report.findings { print(text(SpotifyMessage(finding))) }
    // SpotifyLinkServices/SpotifyLinkServices example 2 ends
}
