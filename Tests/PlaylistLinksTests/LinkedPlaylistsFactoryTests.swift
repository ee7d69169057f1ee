import Foundation
import GRDB
import PlaylistLinks
import PostgresNIO
import PostgresTestServer
import SpotifyLinkPostgres
import SpotifyLinkSQLite
import SpotifyWebAPI
import Testing

/// What an app or a server writes without the storage interface: `LinkedPlaylists` from the
/// factories of the storage products, and every app operation on it. This file imports no SPI, so
/// it also shows that nothing here needs one.
@Suite("LinkedPlaylists from the factories")
struct LinkedPlaylistsFactoryTests {
    static let session = RecordID(namespace: "session", id: "42")
    static let focus = SpotifyID(unchecked: "4rOoJ6Egrf8K2IrywzwOMk")

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
    }

    @Test func aFileIsOpenedNowReadableByItsOwnerAloneAndKeepsTheLinks() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("links.sqlite")
        let links = try LinkedPlaylists.sqlite(file: file)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the factory opens the file at once, for its owner alone")
        try await links.link(Self.session, to: Self.focus)

        let reopened = try LinkedPlaylists.sqlite(file: file)
        #expect(try await reopened.link(for: Self.session)?.playlist == Self.focus)
        #expect(try await reopened.removeLink(for: Self.session))
        #expect(try await links.links().isEmpty)
    }

    @Test func theAppsOwnDatabaseKeepsItsTablesBesideTheLinks() async throws {
        let database = try DatabaseQueue()
        try await database.write { db in try db.create(table: "session") { $0.column("id", .integer) } }
        let links = try LinkedPlaylists.sqlite(writer: database)
        try await links.link(Self.session, to: Self.focus)
        #expect(try await links.card(for: Self.session)?.metadata.id == Self.focus)
        #expect(try await database.read { db in try db.tableExists("session") && db.tableExists("link") })

        var noForeignKeys = Configuration()
        noForeignKeys.foreignKeysEnabled = false
        #expect(throws: PlaylistLinksError.self) {
            try LinkedPlaylists.sqlite(writer: try DatabaseQueue(configuration: noForeignKeys))
        }
    }

    @Test func everyOperationAnAppCallsWorksInMemory() async throws {
        let links = LinkedPlaylists.inMemory()
        let library = try await links.replaceLibrary(
            [try JSONDecoder().decode(SimplifiedPlaylist.self, from: Data(Self.focusJSON.utf8))], userID: "me")
        #expect(library.map(\.access) == [.complete])
        #expect(try await links.filterLibrary("foc").map(\.id) == [Self.focus])
        try await links.link(Self.session, to: library[0])
        let card = try #require(try await links.card(for: Self.session, retention: .default, at: Date()))
        #expect(card.metadata.name == "Focus")

        let export = try await links.exportJSON()
        try await links.forgetSpotifyDetails()
        #expect(try await links.card(for: Self.session)?.metadata.name == nil, "the link stays, the name goes")
        #expect(try await links.library().isEmpty)
        let report = try await LinkedPlaylists.inMemory().importJSON(export)
        #expect(report.added.map(\.record) == [Self.session])
    }

    @Test(.enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    func aServersLinksAreEachUsersOwn() async throws {
        let client = try await TestPostgres.shared.value
        #expect(throws: PlaylistLinksError.self) { try LinkedPlaylists.postgres(client: client, user: "") }
        let alice = try LinkedPlaylists.postgres(client: client, user: "factory-\(UUID().uuidString)")
        let bob = try LinkedPlaylists.postgres(client: client, user: "factory-\(UUID().uuidString)")
        try await alice.link(Self.session, to: Self.focus)
        #expect(try await alice.card(for: Self.session)?.metadata.id == Self.focus)
        #expect(try await bob.link(for: Self.session) == nil)
        #expect(try await alice.removeLink(for: Self.session))
    }

    static let focusJSON =
        #"{"id":"4rOoJ6Egrf8K2IrywzwOMk","name":"Focus","images":null,"owner":{"id":"me"},"uri":"spotify:playlist:4rOoJ6Egrf8K2IrywzwOMk"}"#
}
