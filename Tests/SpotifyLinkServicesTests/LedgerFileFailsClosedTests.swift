import Foundation
import GRDB
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkServices
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// Issue 66 item 1 through the app's composition root, with real files: a request ledger the
/// process cannot use (damaged, written by a newer version, a symbolic link) sends nothing, and a
/// quota cooldown outlives the ledger file moved aside, as its advice says to do.
@MainActor
@Suite("A ledger file that cannot be used holds requests back")
struct LedgerFileFailsClosedTests {
    enum Breakage: String, CaseIterable, Sendable {
        case damaged, newerVersion, symbolicLink
    }

    /// A data folder, a token folder, and services on them, as each launch of the app makes them.
    struct Device {
        let folder: URL
        let tokens: URL
        let emulator: EmulatorServer

        var ledger: URL { folder.appendingPathComponent(SpotifyServices.ledgerFile) }

        func launch() -> SpotifyServices {
            var configuration = SpotifyServices.Configuration.emulator(url: emulator.baseURL)
            configuration.folder = folder
            configuration.storage = .folder
            configuration.tokenStore = FileTokenStore(directory: tokens)
            configuration.startsSignedOutAfterReinstall = false
            return SpotifyServices(configuration)
        }

        /// Moves the ledger and SQLite's files beside it out of the folder.
        func moveLedgerAside() throws {
            for suffix in ["", "-wal", "-shm"] {
                let file = URL(fileURLWithPath: ledger.path + suffix)
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                try FileManager.default.moveItem(at: file, to: URL(fileURLWithPath: file.path + ".aside"))
            }
        }

        func webAPIRequests() async -> Int { await emulator.totalRequests(prefix: "GET /v1/") }
    }

    static func withDevice(_ body: (Device) async throws -> Void) async throws {
        var emulatorConfiguration = EmulatorConfiguration()
        emulatorConfiguration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        let emulator = try await EmulatorServer.startForTest(emulatorConfiguration)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            let device = Device(
                folder: root.appendingPathComponent("data"), tokens: root.appendingPathComponent("tokens"),
                emulator: emulator)
            let first = device.launch()
            try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: first.session) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            try await body(device)
        } catch {
            await emulator.stop()
            throw error
        }
        await emulator.stop()
    }

    @Test(arguments: Breakage.allCases)
    func aLedgerThatCannotBeUsedSendsNothingAndSaysWhatToDo(_ breakage: Breakage) async throws {
        try await Self.withDevice { device in
            // The app ran before: its ledger exists and counted a request.
            _ = try await device.launch().client.currentUser()
            #expect(await device.webAPIRequests() == 1)
            switch breakage {
            case .damaged:
                try device.moveLedgerAside()
                try Data(repeating: 0x5A, count: 8_192).write(to: device.ledger)
            case .newerVersion:
                // A widget built with a newer version of the package migrated the shared file.
                let queue = try DatabaseQueue(path: device.ledger.path)
                try await queue.write { db in
                    try db.execute(
                        sql: "UPDATE spotifylink_schema SET migrations = migrations + 5 WHERE component = ?",
                        arguments: ["request ledger"])
                }
                try queue.close()
            case .symbolicLink:
                try device.moveLedgerAside()
                try FileManager.default.createSymbolicLink(
                    at: device.ledger, withDestinationURL: URL(fileURLWithPath: device.ledger.path + ".aside"))
            }
            let next = device.launch()
            let error = try await #require(throws: SpotifyAPIError.self) { try await next.client.currentUser() }
            #expect(error.code == .ledgerUnavailable, "\(error)")
            #expect(error.message.contains(device.ledger.path), "\(error.message)")
            #expect(error.message.contains("Nothing is sent to Spotify"), "\(error.message)")
            switch breakage {
            case .damaged: #expect(error.message.contains("Move it aside"), "\(error.message)")
            case .newerVersion: #expect(error.message.contains("newer version"), "\(error.message)")
            case .symbolicLink: #expect(error.message.contains("symbolic link"), "\(error.message)")
            }
            #expect(await device.webAPIRequests() == 1, "a request left while the ledger could not count it")
        }
    }

    /// Spotify refuses for the quota; the ledger file is then damaged, and moved aside as its
    /// message advises. Neither erases the cooldown: nothing is sent until it ends, and the new
    /// ledger learns it again.
    @Test func aQuotaCooldownOutlivesTheLedgerFileMovedAside() async throws {
        try await Self.withDevice { device in
            await device.emulator.control("faults", ["kind": "429-quota", "count": "1", "retry_after": "7200"])
            let refused = try await #require(throws: SpotifyAPIError.self) {
                try await device.launch().client.currentUser()
            }
            #expect(refused.code == .quotaExceeded)
            #expect(await device.webAPIRequests() == 1)

            try device.moveLedgerAside()
            try Data(repeating: 0x5A, count: 8_192).write(to: device.ledger)
            let damaged = try await #require(throws: SpotifyAPIError.self) {
                try await device.launch().client.currentUser()
            }
            // The person is told when Spotify may be asked again, not only that a file is broken.
            #expect(damaged.code == .quotaExceeded, "\(damaged)")

            try FileManager.default.removeItem(at: device.ledger)
            let fresh = device.launch()
            let waiting = try await #require(throws: SpotifyAPIError.self) { try await fresh.client.currentUser() }
            #expect(waiting.code == .quotaExceeded, "\(waiting)")
            #expect(await device.webAPIRequests() == 1, "a request left during the quota cooldown")
            // The new ledger holds it now, for processes that never read the mirror.
            let cooldown = try #require(await fresh.client.cooldown())
            #expect(cooldown.kind == .quota)
            let files = try FileManager.default.contentsOfDirectory(atPath: device.folder.path)
            #expect(files.contains("spotify-requests-cooldown.json"), "\(files)")
        }
    }
}
