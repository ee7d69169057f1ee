import Foundation
import GRDB
import SpotifyTesting
import Testing

/// The data folder as an older `spotlink` meets a newer one's.
@Suite("The data folder across versions")
struct DataFolderTests {
    /// A database that a newer version migrated further is refused before anything is written, by
    /// the journal, the links and the ledger alike, with words that say to update.
    @Test(arguments: ["playlist links", "spotlink journal"])
    func anOlderBinaryRefusesANewerDatabase(component: String) async throws {
        let cli = try SpotLinkBinary()
        let folder = cli.home.appendingPathComponent("data")
        let data = ["--data-dir", folder.path]
        #expect(try await cli.run(["session", "new", "Morning"] + data).status == 0)
        let file = try #require(
            FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.first {
                $0.hasSuffix(".sqlite")
            })
        let database = try DatabaseQueue(path: folder.appendingPathComponent(file).path)
        try await database.write { db in
            try db.execute(
                sql: "UPDATE spotifylink_schema SET migrations = migrations + 1 WHERE component = ?",
                arguments: [component])
        }
        let before = try await database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM session") }
        try database.close()

        let refused = try await cli.run(["session", "new", "Evening"] + data)
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("newer version") && refused.stderr.contains("update"), "\(refused.stderr)")
        let reopened = try DatabaseQueue(path: folder.appendingPathComponent(file).path)
        let after = try await reopened.read { db in try Row.fetchAll(db, sql: "SELECT * FROM session") }
        #expect(after == before, "nothing was written")
    }
}
