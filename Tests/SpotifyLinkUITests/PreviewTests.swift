import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyLinkServices
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// `SpotifyLink.preview()` lets every model be previewed: signed in, with sample data, nothing on
/// the network (its transport answers in the process) and nothing on disk.
@MainActor
@Suite("Previews: every model with sample data, no network, no disk")
struct PreviewTests {
    @Test func everyModelShowsSampleDataAndNothingReachesTheDisk() async throws {
        let spotify = SpotifyLink.preview()
        #expect(spotify.services.configuration.server == .live)

        await spotify.connection.load()
        #expect(spotify.connection.isConnected, "\(spotify.connection.phase)")

        let card = spotify.card(for: SpotifyServices.previewRecord)
        await card.load()
        #expect(card.card?.metadata.name == "Deep Work")
        #expect(card.summary == .playlistSummary(tracks: 50, duration: .seconds(50 * 212)))
        #expect(card.openInSpotify() != nil)
        #expect(!card.isRefreshing)

        let picker = spotify.picker()
        await picker.appear()
        try await waitUntil("the picker lists the sample playlists") {
            picker.results.map(\.name) == ["Deep Work", "Morning Focus", "Calm Evening"]
        }

        let learner = spotify.learner()
        await learner.load()
        #expect(learner.savedTracks.first?.track.name == "さくら色の朝")
        #expect(learner.topTracks.count == 4)

        let nowPlaying = spotify.nowPlaying()
        _ = nowPlaying.start()
        try await waitUntil("the indicator shows the song playing") { nowPlaying.item?.name == "さくら色の朝" }
        nowPlaying.stop()

        try await waitUntil("the connection learns the listener's name from /me") {
            if case .connected(let account) = spotify.connection.phase { return account.displayName == "Aiko" }
            return false
        }
        let folder = spotify.services.configuration.folder
        #expect(
            !FileManager.default.fileExists(atPath: folder.path),
            "the preview wrote \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])")
    }
}
