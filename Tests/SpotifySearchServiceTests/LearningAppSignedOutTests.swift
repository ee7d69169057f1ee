import AppAttest
import Foundation
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkServices
import SpotifyLinkUI
import SpotifySearchService
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The learning app's song search, signed out, end to end: its model → `SignedOutSearch` (a
/// scripted attester) → the service → the emulator; and the same model once the user connects.
@Suite("The learning app searches before the user connects")
struct LearningAppSignedOutTests {
    @MainActor func spotify(
        _ world: SearchServiceWorld, signedOut: Bool, device: ScriptedAppAttest = ScriptedAppAttest()
    )
        -> SpotifyLink
    {
        var configuration = SpotifyServices.Configuration.emulator(
            url: world.emulator.baseURL, clock: world.clock, transport: PatientTransport())
        if signedOut {
            configuration.signedOutSearch = SignedOutSearch(
                service: world.baseURL, proof: .appAttest(device, keychain: MemoryKeychain(), service: "learning"),
                transport: PatientTransport())
        }
        return SpotifyLink(configuration)
    }

    @Test func theSameModelSearchesSignedOutThroughTheService() async throws {
        try await withSearchService { world in try await searchedSignedOut(world) }
    }

    @MainActor func searchedSignedOut(_ world: SearchServiceWorld) async throws {
        do {
            let app = spotify(world, signedOut: true)
            let search = app.songSearch()
            search.query = "さくら"
            await search.waitForSearch()
            #expect(search.phase == .ready)
            #expect(search.results.contains { $0.name.contains("さくら") })
            let first = try #require(search.results.first)
            #expect(search.openInSpotify(first) != nil)
            // Signed out: the service searched; the app sent nothing to Spotify itself.
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/me") == 0)
            #expect(!app.connection.isConnected)
        }
    }

    @Test func withoutAServiceOrAppAttestItAsksToConnect() async throws {
        try await withSearchService { world in
            #expect(await phase(world, signedOut: false) == .empty(.connectToSearch))
            #expect(
                await phase(world, signedOut: true, device: ScriptedAppAttest(isSupported: false))
                    == .empty(.connectToSearch))
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 0)
        }
    }

    @Test func aDeviceTheServiceRefusesIsAskedToConnect() async throws {
        try await withSearchService({ $0.appIDs = [.init(teamID: "ZZZZZ99999", bundleID: "another.app")] }) { world in
            #expect(await phase(world, signedOut: true) == .empty(.connectToSearch))
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 0)
        }
    }

    /// What the song search shows after searching "さくら".
    @MainActor func phase(_ world: SearchServiceWorld, signedOut: Bool, device: ScriptedAppAttest = ScriptedAppAttest())
        async -> TrackSearchModel.Phase
    {
        let search = spotify(world, signedOut: signedOut, device: device).songSearch()
        search.query = "さくら"
        await search.waitForSearch()
        return search.phase
    }
}
