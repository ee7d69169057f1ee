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

    /// The learner types, and clears the text at each point of a first signed-out search (the
    /// key, the challenge, the attestation, the assertion, the search): no answer for the old text
    /// lands afterwards, nothing shows as failed or as "connect", and the next search works.
    @Test func aSignedOutSearchTheLearnerClears() async throws {
        try await withSearchService({
            $0.deviceLimit = 1000
            $0.addressLimit = 100_000
        }) { world in try await Self.clearedAtEachPoint(world) }
    }

    /// Set by the sweep's cancel.
    final class Cleared: @unchecked Sendable {
        var value = false
    }

    @MainActor static func clearedAtEachPoint(_ world: SearchServiceWorld) async throws {
        let passed = try await CancellationSweep.sweep {
            let points = SuspensionPoints()
            var configuration = SpotifyServices.Configuration.emulator(
                url: world.emulator.baseURL, clock: world.clock, transport: PatientTransport())
            configuration.signedOutSearch = SignedOutSearch(
                service: world.baseURL,
                proof: .appAttest(
                    TracedAppAttest(ScriptedAppAttest(), points: points), keychain: MemoryKeychain(), service: "sweep"),
                transport: TracedTransport(PatientTransport(), points: points))
            return ((SpotifyLink(configuration).songSearch(), Cleared()), points)
        } operation: { model in
            model.0.query = "さくら"
            await model.0.waitForSearch()
        } cancel: { model, _ in
            model.0.query = ""
            model.1.value = true
        } check: { model, run, result in
            let (search, cleared) = model
            if case .failure(let error) = result { #expect(error is CancellationError, "\(run): \(error)") }
            await search.waitForSearch()
            if cleared.value {
                #expect(search.results.isEmpty && search.phase == .ready, "\(run): \(search.phase)")
            } else {
                #expect(!search.results.isEmpty && search.phase == .ready, "\(run): \(search.phase)")
            }
            search.query = "こころ"
            await search.waitForSearch()
            #expect(!search.results.isEmpty && search.phase == .ready, "\(run): the next search: \(search.phase)")
        }
        #expect(passed.contains("POST /v1/attest") && passed.contains("GET /v1/search"), "\(passed)")
        #expect(passed.contains("appAttest.generateAssertion"), "\(passed)")
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
