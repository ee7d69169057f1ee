import Foundation
import HTTPTypes
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifySearchService
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The app's side, end to end on Linux: `SignedOutSearch` with a scripted attester → the service →
/// the emulator, signed out.
@Suite("Signed-out search: the app's side through the service")
struct SignedOutSearchTests {
    func client(_ world: SearchServiceWorld, device: ScriptedAppAttest, keychain: MemoryKeychain) -> SignedOutSearch {
        SignedOutSearch(
            service: world.baseURL, proof: .appAttest(device, keychain: keychain, service: "test.appattest"),
            transport: PatientTransport())
    }

    @Test func aDeviceAttestsOnceThenSearchesWithOneRequestEach() async throws {
        try await withSearchService { world in
            let device = ScriptedAppAttest()
            let keychain = MemoryKeychain()
            let search = client(world, device: device, keychain: keychain)
            let page = try await search.searchTracks("さくら", limit: 5)
            #expect(page.items.contains { $0.name.contains("さくら") })
            #expect(try await search.searchTracks("ともだち").items.isEmpty == false)
            let track = try await search.track(try #require(page.items.first?.id))
            #expect(track.id == page.items.first?.id)
            #expect(device.keysMade == 1)
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 3)
            // The app's next launch finds the key's ID in the Keychain: no new key, no new attestation.
            let relaunched = client(world, device: device, keychain: keychain)
            #expect(try await relaunched.searchTracks("こころ").items.isEmpty == false)
            #expect(device.keysMade == 1)
        }
    }

    @Test func searchesAtOnceTakeTurnsSoNoCounterIsRefused() async throws {
        try await withSearchService({ $0.deviceLimit = 100 }) { world in
            let search = client(world, device: ScriptedAppAttest(), keychain: MemoryKeychain())
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask { try await search.searchTracks("さくら \(index)").items.count }
                }
                for try await count in group { #expect(count >= 0) }
            }
            #expect(await world.emulator.requestCount("GET /v1/search") == 8)
        }
    }

    @Test func aSecondSearchWaitsUntilTheFirstIsAnswered() async throws {
        try await withSearchService { world in
            let transport = GatedTransport()
            let gate = transport.hold { $0.path?.hasPrefix("/v1/search") == true }
            defer { gate.open() }
            let search = SignedOutSearch(
                service: world.baseURL,
                proof: .appAttest(ScriptedAppAttest(), keychain: MemoryKeychain(), service: "test.appattest"),
                transport: transport)
            let first = Task { try await search.searchTracks("さくら") }
            try await waitUntil("the first search's answer is held") { gate.hasArrived }
            // Its assertion is signed; a second one signed now would carry the higher counter and,
            // arriving first, make the service refuse the first.
            let second = Task { try await search.searchTracks("こころ") }
            try await waitUntil("the second search waits for its turn") { await search.waitingForTurn == 1 }
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)  // the first one's, held on its way back
            gate.open()
            #expect(try await first.value.items.isEmpty == false)
            #expect(try await second.value.items.isEmpty == false)
        }
    }

    @Test func aServiceThatLostTheKeyIsAttestedAgainOnce() async throws {
        let device = ScriptedAppAttest()
        let keychain = MemoryKeychain()
        try await withSearchService { world in
            _ = try await client(world, device: device, keychain: keychain).searchTracks("さくら")
        }
        // A new service (its database gone): the kept key is unknown there.
        try await withSearchService { world in
            let found = try await client(world, device: device, keychain: keychain).searchTracks("さくら")
            #expect(found.items.count > 0)
            #expect(device.keysMade == 2)
        }
    }

    @Test func aDeviceWithoutAppAttestIsToldToConnect() async throws {
        try await withSearchService { world in
            let search = client(world, device: ScriptedAppAttest(isSupported: false), keychain: MemoryKeychain())
            #expect(!search.isAvailable)
            let error = try await #require(throws: SpotifyAPIError.self) { try await search.searchTracks("さくら") }
            #expect(error.code == .forbidden && error.message.contains("connect Spotify"))
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 0)
        }
    }

    @Test func aSimulatorSearchesWithTheDevelopmentKeyOnlyWhereTheServiceTakesIt() async throws {
        for allowed in [true, false] {
            try await withSearchService({ $0.allowDevelopmentKey = allowed }) { world in
                let search = SignedOutSearch(
                    service: world.baseURL,
                    proof: .development(key: Data(base64Encoded: SearchServiceWorld.developmentKey)!, device: "sim"),
                    transport: PatientTransport())
                if allowed {
                    #expect(try await search.searchTracks("さくら").items.count > 0)
                } else {
                    let error = try await #require(throws: SpotifyAPIError.self) {
                        try await search.searchTracks("さくら")
                    }
                    #expect(error.code == .forbidden)
                }
            }
        }
    }

    @Test func aSpentShareIsAWaitWithItsTime() async throws {
        try await withSearchService({ $0.dailyShare = 1 }) { world in
            let search = client(world, device: ScriptedAppAttest(), keychain: MemoryKeychain())
            _ = try await search.searchTracks("さくら")
            let error = try await #require(throws: SpotifyAPIError.self) { try await search.searchTracks("こころ") }
            #expect(error.code == .rateLimited)
            #expect((error.retryAfter ?? .zero) > .seconds(3600))
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)
        }
    }

    @Test func aCancelledSearchSendsNothingAndTheNextOneWorks() async throws {
        try await withSearchService { world in
            let search = client(world, device: ScriptedAppAttest(), keychain: MemoryKeychain())
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await search.searchTracks("さくら")
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 0)
            let found = try await search.searchTracks("さくら")
            #expect(found.items.count > 0)
        }
    }

    /// SwiftUI cancels a search's task whenever the text changes or the view goes: cancelled at
    /// each point of a first search (the challenge, the key, its attestation, the assertion, the
    /// search), the caller gets its answer or `CancellationError`, and the same client's next
    /// search works (its turn was passed on, a spent challenge or an unsaved key renewed).
    @Test func cancelledAtEachPointTheNextSearchWorks() async throws {
        try await withSearchService({
            $0.deviceLimit = 1000
            $0.addressLimit = 100_000
        }) { world in try await Self.sweep(world) }
    }

    @MainActor static func sweep(_ world: SearchServiceWorld) async throws {
        let passed = try await CancellationSweep.sweep {
            let points = SuspensionPoints()
            let search = SignedOutSearch(
                service: world.baseURL,
                proof: .appAttest(
                    TracedAppAttest(ScriptedAppAttest(), points: points), keychain: MemoryKeychain(), service: "sweep"),
                transport: TracedTransport(PatientTransport(), points: points))
            return (search, points)
        } operation: { search in
            _ = try await search.searchTracks("さくら")
        } check: { search, run, result in
            if case .failure(let error) = result {
                #expect(error is CancellationError, "\(run): \(error)")
            }
            let next = try await search.searchTracks("こころ")
            #expect(!next.items.isEmpty, "\(run)")
        }
        #expect(passed.contains("POST /v1/attest") && passed.contains("GET /v1/search"), "\(passed)")
        #expect(passed.contains("appAttest.generateAssertion"), "\(passed)")
    }
}
