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
    /// A UI test launches the app with `SPOTIFYLINK_EMULATOR_URL` (issue 69 §2): the app's own
    /// configuration becomes the emulator's, in memory, keeping the app's client, redirect and
    /// gate, and signs in against it; an address off this machine is ignored.
    @Test func aUITestLaunchPointsTheAppAtTheEmulator() async throws {
        var emulatorConfiguration = EmulatorConfiguration()
        emulatorConfiguration.clients = [.init(id: "journal-app", redirectURIs: ["journal://spotify-callback"])]
        let emulator = try await EmulatorServer.startForTest(emulatorConfiguration)
        do {
            var app = SpotifyServices.Configuration(clientID: "journal-app", redirectURI: "journal://spotify-callback")
            app.parentalGate = .question
            app.screenshotMode = true
            #expect(app.forUITests(environment: [:]).server == .live)
            for ignored in [
                "https://example.com", "http://192.168.1.20:8080", "http://127.0.0.1.example.com:8080", "not a url",
                "file:///tmp/x",
            ] {
                let kept = app.forUITests(environment: [SpotifyServices.Configuration.emulatorEnvironmentKey: ignored])
                #expect(kept.server == .live, "\(ignored) was followed")
                #expect(kept.storage == .folder)
            }
            let launched = app.forUITests(environment: [
                SpotifyServices.Configuration.emulatorEnvironmentKey: emulator.baseURL.absoluteString
            ])
            #expect(launched.server == .emulator(url: emulator.baseURL))
            #expect(launched.clientID == "journal-app" && launched.redirectURI == "journal://spotify-callback")
            #expect(launched.storage == .memory && launched.tokenStore.kind == .memory)
            #expect(launched.screenshotMode && launched.parentalGate != nil)
            let services = SpotifyServices(launched)
            try await BrowserSignIn(redirectURI: launched.redirectURI).run(session: services.session) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            #expect(await services.session.status == .signedIn)
            #expect(try await services.client.currentUser().id == "emu-user")
        } catch {
            await emulator.stop()
            throw error
        }
        await emulator.stop()
    }

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
