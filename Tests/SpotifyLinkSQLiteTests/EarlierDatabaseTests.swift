import Foundation
import GRDB
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyTesting
import SpotifyWebAPI
import Testing

@_spi(Storage) @testable import PlaylistLinks

/// A copy of a database written by an earlier version (`Tests/Fixtures/README.md` says how), in a
/// temporary folder of its own.
func copyOfEarlierDatabase(_ name: String = "spotlink-fe0207e.sqlite") throws -> URL {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/\(name)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earlier-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let copy = folder.appendingPathComponent("spotlink.sqlite")
    try FileManager.default.copyItem(at: fixture, to: copy)
    return copy
}

@Suite("A database written by the version before PlaylistLinkStore")
struct EarlierDatabaseTests {
    @Test func opensWithEverySavedLinkCardCoverAndLibraryEntry() async throws {
        let url = try copyOfEarlierDatabase()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLitePlaylistLinkStore(location: .file(url))
        #expect(
            try store.appliedMigrations() == [
                "v1 links and playlists", "v2 cover cache", "v3 library cache", "v4 library without folded names",
                "v5 library covers and snapshots", "v6 detail ages", "v7 library access", "v8 forget epoch",
                "v9 explicit counts",
            ])
        #expect(try store.integrityCheck() == ["ok"])

        let links = try await store.links()
        #expect(links.map(\.record.description) == ["session/1", "session/2"])
        let morning = try #require(try await store.card(for: RecordID(namespace: "session", id: "1")))
        #expect(morning.metadata.name == "Morning Focus")
        #expect(morning.metadata.trackCount == 49)
        #expect(morning.metadata.totalDuration == .milliseconds(10_184_000))
        #expect(morning.metadata.availability == .available)
        #expect(morning.cover?.count == 11_786)
        let pasted = try #require(try await store.card(for: RecordID(namespace: "session", id: "2")))
        #expect(pasted.metadata == PlaylistMetadata(id: try SpotifyID("37i9dQZF1DXcBWIGoYBM5M")))
        #expect(try await store.library().count == 11)
        #expect(try await store.linked.filterLibrary("focus").first?.name == "Morning Focus")

        // Writing through the new store keeps what was there.
        try await store.linked.link(RecordID(namespace: "session", id: "3"), to: links[0].playlist)
        #expect(try await store.links().count == 3)
        #expect(try await store.card(for: RecordID(namespace: "session", id: "1"))?.cover?.count == 11_786)
    }
}

@Suite("One owner per database file")
struct SharedWriterTests {
    @Test func theStoreAndTheLedgerKeepTheirTablesInTheAppsOwnDatabase() async throws {
        let url = try copyOfEarlierDatabase()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        // The app's one pool on its file: its tables, the links' and the ledger's.
        let pool = try DatabasePool(path: url.path)
        let store = try SQLitePlaylistLinkStore(writer: pool, clock: VirtualClock())
        let ledgerStore = try SQLiteRequestLedgerStore(writer: pool)
        #expect(try store.writer === pool)
        #expect(try store.appliedMigrations().count == 9)
        let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "app")
        try await ledgerStore.extendCooldown(
            Cooldown(kind: .quota, until: Date(timeIntervalSince1970: 2_000_000_000), learnedAt: .now), for: key)
        #expect(try await ledgerStore.cooldown(for: key)?.kind == .quota)

        // A record and its link go in one transaction of the app's: when the record's delete
        // fails, the link stays.
        let morning = RecordID(namespace: "session", id: "1")
        #expect(throws: (any Error).self) {
            try pool.write { db in
                try store.removeLink(for: morning, in: db)
                try db.execute(sql: "DELETE FROM no_such_table")
            }
        }
        #expect(try await store.link(for: morning) != nil)
        try await pool.write { db in
            #expect(try store.removeLink(for: morning, in: db))
            try db.execute(sql: "DELETE FROM session WHERE id = 1")
        }
        #expect(try await store.link(for: morning) == nil)
    }

    @Test func aWriterThatDoesNotEnforceForeignKeysIsRefusedWithTheFix() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let error = try #require(throws: PlaylistLinksError.self) {
            try SQLitePlaylistLinkStore(writer: try DatabaseQueue(configuration: configuration))
        }
        #expect(error.code == .database)
        #expect(error.message.contains("foreignKeysEnabled"))
    }
}
