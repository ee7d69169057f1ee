import Foundation
import GRDB
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyTesting
import SpotifyWebAPI
import Testing

@_spi(Storage) @testable import PlaylistLinks

/// The stores open their files with the app's GRDB configuration: an app whose data folder is in an
/// App Group container switches GRDB's suspension handling on, so a suspended process never holds
/// a lock on the shared file.
@Suite("The stores take the app's GRDB configuration", .serialized)
struct DatabaseConfigurationTests {
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("grdb-configuration-\(UUID().uuidString)")
    }

    @Test func aSuspendedDatabaseRefusesWritesUntilItIsResumed() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = DatabaseConfiguration()
        configuration.observesSuspensionNotifications = true
        let links = try SQLitePlaylistLinkStore(
            location: .file(folder.appendingPathComponent("links.sqlite")), configuration: configuration,
            clock: VirtualClock())
        let ledger = try RequestLedger(
            key: SpotifyAppKey(issuer: "emulator", clientID: "suspension"),
            file: folder.appendingPathComponent("spotify-requests.sqlite"), configuration: configuration)
        let record = RecordID(namespace: "session", id: "1")
        let playlist = try SpotifyID("37i9dQZF1DX8NTLI2TtZa6")

        // The app goes to the background: GRDB stops both files' writes.
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        await #expect(throws: PlaylistLinksError.self) { try await links.saveMetadata(PlaylistMetadata(id: playlist)) }
        // A ledger that cannot write holds the request back: it fails closed, in its own code.
        let refused = await #expect(throws: SpotifyAPIError.self) {
            _ = try await ledger.reserve(route: "GET /me", background: true, at: Date())
        }
        #expect(refused?.code == .ledgerUnavailable, "\(String(describing: refused))")
        #expect(try await ledger.usage(at: Date()).last24Hours == 0)

        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try await links.linked.link(record, to: playlist)
        #expect(try await links.card(for: record)?.metadata.id == playlist)
        _ = try await ledger.reserve(route: "GET /me", background: true, at: Date())
        #expect(try await ledger.usage(at: Date()).last24Hours == 1)
    }

    @Test func theStoreKeepsForeignKeysOnAndTheAppsOwnBusyTimeout() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = DatabaseConfiguration()
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(1.5)
        configuration.label = "the app's"
        let links = try SQLitePlaylistLinkStore(
            location: .file(folder.appendingPathComponent("links.sqlite")), configuration: configuration)
        let writer = try links.writer
        #expect(writer.configuration.label == "the app's")
        #expect(writer.configuration.foreignKeysEnabled)
        guard case .timeout(let seconds) = writer.configuration.busyMode else {
            Issue.record("busy mode: \(writer.configuration.busyMode)")
            return
        }
        #expect(seconds == 1.5)

        let plain = try SQLitePlaylistLinkStore(
            location: .file(folder.appendingPathComponent("plain.sqlite")), configuration: DatabaseConfiguration())
        guard case .timeout(let standard) = try plain.writer.configuration.busyMode else {
            Issue.record("no busy timeout by default")
            return
        }
        #expect(standard == 5)
    }
}
