import Foundation
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The learning app's profile screen against the emulator: the account's name and picture, saved
/// and top songs a page at a time, and what happens while a scope is missing.
@MainActor
@Suite("LearnerModel against the emulator", .serialized)
struct LearnerModelTests {
    @Test func withoutTheLibraryScopesItSaysWhichToAddAndSendsNothing() async throws {
        let harness = try await UIHarness.connected()
        let learner = LearnerModel(spotify: harness.spotify)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        await learner.load()
        #expect(learner.savedPhase == .failed(.missingScope("user-library-read")))
        #expect(learner.topPhase == .failed(.missingScope("user-top-read")))
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before)
        await harness.stop()
    }

    @Test func profileSavedAndTopSongsAPageAtATime() async throws {
        let harness = try await UIHarness.connected()
        harness.connection.connect(adding: ["user-library-read", "user-top-read"], using: harness.browser)
        await harness.connection.waitForConnect()
        let learner = LearnerModel(spotify: harness.spotify, topRange: .shortTerm, pageSize: 20)
        // The profile is the connection's: a name and a picture, no request of its own.
        #expect(learner.profile?.displayName == "Emulator User")
        #expect(learner.profile?.imageURL?.path.hasSuffix("/300.png") == true)
        // Spotify no longer says Free or Premium to a Development Mode app: the row says so.
        #expect(learner.accountType == .accountTypeNotAvailable)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        await learner.load()
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") - before == 2)
        #expect(learner.savedPhase == .ready && learner.topPhase == .ready)
        #expect(learner.savedTracks.count == 20 && learner.canLoadMoreSaved)
        #expect(learner.savedTracks.first?.track.name == "夜明けのうた")
        await learner.loadMoreSaved()
        #expect(learner.savedTracks.count == 25 && !learner.canLoadMoreSaved)
        #expect(learner.topTracks.count == 20 && learner.canLoadMoreTop)
        let shortTerm = learner.topTracks.map(\.id)
        await learner.showTop(.longTerm)
        #expect(learner.topRange == .longTerm && learner.topTracks.map(\.id) != shortTerm)
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") - before == 4)
        let track = try #require(learner.savedTracks.first?.track)
        let link = try #require(learner.openInSpotify(track, fallback: .appStore))
        #expect(
            link.urls.map(\.absoluteString) == [
                "spotify:track:\(track.id?.rawValue ?? "")", OpenInSpotify.appStorePage.absoluteString,
            ])
        await harness.stop()
    }

    @Test func disconnectedItSendsNothing() async throws {
        let harness = try await UIHarness()
        let learner = LearnerModel(spotify: harness.spotify)
        await learner.load()
        #expect(learner.profile == nil)
        #expect(learner.savedPhase == .idle && learner.topPhase == .idle)
        #expect(harness.transport.requestCount == 0)
        await harness.stop()
    }
}
