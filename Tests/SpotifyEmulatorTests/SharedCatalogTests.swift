import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

/// Emulators started at once share one generated catalog per seed: built once per process, off the
/// starting callers' threads, and the same as a catalog built alone. (Each building its own held
/// both threads of the concurrency pool for minutes under ThreadSanitizer.)
@Suite("One generated catalog per seed")
struct SharedCatalogTests {
    @Test func emulatorsStartedAtOnceBuildTheirCatalogOnce() async throws {
        var settings = EmulatorConfiguration()
        settings.seed = 0x5EED_0065  // a seed of this test alone: no other test builds it
        let configuration = settings
        let before = await Catalog.sharedBuilds(seed: configuration.seed)
        #expect(before == 0)
        let emulators = try await withThrowingTaskGroup(of: EmulatorServer.self) { group in
            for _ in 0..<6 { group.addTask { try await EmulatorServer.startForTest(configuration) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await Catalog.sharedBuilds(seed: configuration.seed) == 1)
        let alone = await onThreadOfItsOwn(named: #function) { Catalog.generated(seed: configuration.seed) }
        for emulator in emulators {
            let names = await emulator.playlists().map(\.name).sorted()
            #expect(names == alone.playlists.values.map(\.name).sorted())
            await emulator.stop()
        }
    }
}
