import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkServices
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// `SpotifyServices` is the one composition root: its emulator variant is what the tests, the
/// bench and `spotlink --emulator` start from, and it keeps everything in memory.
@MainActor
@Suite("One composition root: SpotifyServices")
struct ServicesTests {
    /// Signs in, spends requests, links a playlist and reads its card through the emulator variant,
    /// then finds that nothing reached the data folder.
    @Test func theEmulatorVariantSignsInLinksAndReadsACardWithNothingOnDisk() async throws {
        var emulatorConfiguration = EmulatorConfiguration()
        emulatorConfiguration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        let emulator = try await EmulatorServer.startForTest(emulatorConfiguration)
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("services-\(UUID().uuidString)")
            var configuration = SpotifyServices.Configuration.emulator(url: emulator.baseURL)
            configuration.folder = folder
            let services = SpotifyServices(configuration)
            try await BrowserSignIn(redirectURI: configuration.redirectURI).run(session: services.session) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            #expect(await services.session.status == .signedIn)

            let deep = try SpotifyID(try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id)
            let record = RecordID(namespace: "session", id: "1")
            try await services.links.link(record, to: deep)
            _ = try await MetadataRefresher(links: services.links, client: services.client).refresh(record: record)
            #expect(try await services.links.card(for: record)?.metadata.name == "Deep Work")
            #expect(try await services.ledger.usage(at: services.clock.now).last24Hours > 0)

            #expect(
                !FileManager.default.fileExists(atPath: folder.path),
                "the emulator variant wrote \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])"
            )
            try? FileManager.default.removeItem(at: folder)
        } catch {
            await emulator.stop()
            throw error
        }
        await emulator.stop()
    }

    /// A device's data folder holds the files under the names the command line uses too.
    @Test func aDevicesFolderHoldsTheSharedFileNames() async throws {
        let emulator = try await EmulatorServer.startForTest()
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("services-\(UUID().uuidString)")
            var configuration = SpotifyServices.Configuration.emulator(url: emulator.baseURL)
            configuration.folder = folder
            configuration.storage = .folder
            let services = SpotifyServices(configuration)
            try await services.links.link(
                RecordID(namespace: "session", id: "1"), to: try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
            _ = try await services.ledger.usage(at: services.clock.now)
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            #expect(files.isSuperset(of: [SpotifyServices.linksFile, SpotifyServices.ledgerFile]), "\(files)")
            #expect(
                SpotifyServices.linksFile == "links.sqlite" && SpotifyServices.ledgerFile == "spotify-requests.sqlite")
            try? FileManager.default.removeItem(at: folder)
        } catch {
            await emulator.stop()
            throw error
        }
        await emulator.stop()
    }
}
