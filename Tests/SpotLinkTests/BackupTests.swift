import Foundation
import SpotifyTesting
import Testing

/// `spotlink export` and `import` carry the journal's sessions with their links: a backup restored
/// into a fresh folder shows what the user had, and a session made there never inherits a link.
@Suite("Backups keep sessions and their links together")
struct BackupTests {
    static let deepWork = "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"
    static let focus = "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M"

    static func folder(_ cli: SpotLinkBinary, _ name: String) -> [String] {
        ["--data-dir", cli.home.appendingPathComponent(name).path]
    }

    static func json(_ result: SpotLinkBinary.Result) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// `session list --json`'s sessions.
    static func sessions(_ cli: SpotLinkBinary, _ folder: [String]) async throws -> [[String: Any]] {
        let list = try await cli.run(["session", "list", "--json"] + folder)
        return try #require((try json(list) as? [String: Any])?["sessions"] as? [[String: Any]], "\(list.stdout)")
    }

    /// Export, a new folder, import, list, a new session: every session is back with its playlist,
    /// and the new one has none.
    @Test func aRoundTripRestoresTheSessionsAndANewSessionInheritsNothing() async throws {
        let cli = try SpotLinkBinary()
        let first = Self.folder(cli, "first")
        let file = cli.home.appendingPathComponent("backup.json").path
        #expect(try await cli.run(["session", "new", "Morning", "--minutes", "20"] + first).status == 0)
        #expect(try await cli.run(["session", "new", "Evening"] + first).status == 0)
        #expect(try await cli.run(["session", "attach", "1", Self.deepWork] + first).status == 0)
        #expect(try await cli.run(["export", file] + first).status == 0)

        let fresh = Self.folder(cli, "fresh")
        let imported = try await cli.run(["import", file, "--json"] + fresh)
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try #require(try Self.json(imported) as? [String: Any])
        #expect(report["sessions_added"] as? Int == 2 && report["added"] as? Int == 1, "\(report)")

        let list = try await Self.sessions(cli, fresh)
        #expect(list.map { $0["title"] as? String } == ["Morning", "Evening"], "\(list)")
        #expect(list.first?["minutes"] as? Int == 20)
        #expect(list.first?["playlist"] as? String == "3cEYpjA9oz9GiPac4AsH4n", "the link followed its session")

        let new = try await cli.run(["session", "new", "Tomorrow", "--json"] + fresh)
        let made = try #require(try Self.json(new) as? [String: Any])
        let shown = try await cli.run(["session", "show", "\(made["id"] ?? "")"] + fresh)
        #expect(shown.stdout.contains("No playlist attached"), "\(shown.stdout)")

        // The same backup again: its sessions are matched, nothing is doubled.
        let again = try #require(
            try Self.json(try await cli.run(["import", file, "--json"] + fresh)) as? [String: Any])
        #expect(again["sessions_added"] as? Int == 0 && again["unchanged"] as? Int == 1, "\(again)")
        let after = try await Self.sessions(cli, fresh)
        #expect(after.count == 3)
    }

    /// A backup whose links the store refuses is imported not at all: its sessions are not added
    /// without their links (issue 66 item 5; they were, a transaction before the links').
    @Test func aBackupWhoseLinksAreRefusedAddsNoSession() async throws {
        let cli = try SpotLinkBinary()
        let first = Self.folder(cli, "first")
        let file = cli.home.appendingPathComponent("backup.json")
        #expect(try await cli.run(["session", "new", "Morning"] + first).status == 0)
        #expect(try await cli.run(["session", "new", "Evening"] + first).status == 0)
        #expect(try await cli.run(["session", "attach", "1", Self.deepWork] + first).status == 0)
        #expect(try await cli.run(["export", file.path] + first).status == 0)
        // Changed by hand: the link names a playlist ID that is not one.
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("3cEYpjA9oz9GiPac4AsH4n"))
        try Data(text.replacingOccurrences(of: "3cEYpjA9oz9GiPac4AsH4n", with: "not-an-id").utf8).write(to: file)

        let fresh = Self.folder(cli, "fresh")
        #expect(try await cli.run(["session", "new", "Local"] + fresh).status == 0)
        let imported = try await cli.run(["import", file.path] + fresh)
        #expect(imported.status != 0, "\(imported.stdout)")
        #expect(imported.stderr.contains("is not a SpotifyLink export"), "\(imported.stderr)")
        let list = try await Self.sessions(cli, fresh)
        #expect(list.map { $0["title"] as? String } == ["Local"], "\(list)")
    }

    /// A folder with sessions of its own: the imported ones get numbers of this folder's, and the
    /// link follows the imported session, not the local session that happens to have its old number.
    @Test func importedSessionsTakeFreeNumbersAndTheirLinksFollow() async throws {
        let cli = try SpotLinkBinary()
        let first = Self.folder(cli, "first")
        let file = cli.home.appendingPathComponent("backup.json").path
        #expect(try await cli.run(["session", "new", "Morning"] + first).status == 0)
        #expect(try await cli.run(["session", "attach", "1", Self.deepWork] + first).status == 0)
        #expect(try await cli.run(["export", file] + first).status == 0)

        let other = Self.folder(cli, "other")
        #expect(try await cli.run(["session", "new", "Local"] + other).status == 0)
        #expect(try await cli.run(["session", "attach", "1", Self.focus] + other).status == 0)
        #expect(try await cli.run(["import", file] + other).status == 0)
        let list = try await Self.sessions(cli, other)
        let byTitle = Dictionary(uniqueKeysWithValues: list.map { ($0["title"] as? String ?? "", $0) })
        #expect(byTitle["Local"]?["playlist"] as? String == "37i9dQZF1DXcBWIGoYBM5M", "\(list)")
        #expect(byTitle["Morning"]?["playlist"] as? String == "3cEYpjA9oz9GiPac4AsH4n", "\(list)")
        #expect(byTitle["Morning"]?["id"] as? Int == 2)
    }

    /// A links-only export (the format before sessions were exported): each linked number gets a
    /// session named so, and a new session never inherits one of those links.
    @Test func aLinksOnlyExportGetsASessionPerLink() async throws {
        let cli = try SpotLinkBinary()
        let file = cli.home.appendingPathComponent("links.json")
        try Data(
            """
            {"format": "spotifylink-links", "version": 1, "playlists": [],
             "links": [{"record": {"namespace": "session", "id": "1"}, "playlist": "3cEYpjA9oz9GiPac4AsH4n",
                        "linkedAt": "2026-11-01T10:00:00Z"}]}
            """.utf8
        ).write(to: file)
        let fresh = Self.folder(cli, "fresh")
        #expect(try await cli.run(["import", file.path] + fresh).status == 0)
        let new = try #require(
            try Self.json(try await cli.run(["session", "new", "Mine", "--json"] + fresh)) as? [String: Any])
        #expect(new["id"] as? Int == 2, "the imported link has its own session: \(new)")
        let list = try await Self.sessions(cli, fresh)
        #expect(list.first?["title"] as? String == "Imported session 1" && list.first?["playlist"] != nil, "\(list)")
        #expect(list.last?["playlist"] is NSNull || list.last?["playlist"] == nil, "\(list)")
    }

    /// A backup's planned minutes keep `session new`'s bound (issue 66 item 6): a value edited to be
    /// huge, negative, fractional or text refuses the import, nothing written; it used to be kept,
    /// or wrapped.
    @Test func aBackupsMinutesKeepTheCommandsBound() async throws {
        let cli = try SpotLinkBinary()
        let first = Self.folder(cli, "first")
        let file = cli.home.appendingPathComponent("backup.json")
        #expect(try await cli.run(["session", "new", "Morning", "--minutes", "20"] + first).status == 0)
        #expect(try await cli.run(["session", "attach", "1", Self.deepWork] + first).status == 0)
        #expect(try await cli.run(["export", file.path] + first).status == 0)
        let backup = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])

        func importing(minutes: Any, into name: String) async throws -> SpotLinkBinary.Result {
            var edited = backup
            var sessions = try #require(edited["sessions"] as? [[String: Any]])
            sessions[0]["minutes"] = minutes
            edited["sessions"] = sessions
            let path = cli.home.appendingPathComponent("\(name).json")
            try JSONSerialization.data(withJSONObject: edited).write(to: path)
            return try await cli.run(["import", path.path] + Self.folder(cli, name))
        }
        let absurd: [(String, Any)] = [
            ("huge", 1e300), ("negative", -3), ("fraction", 2.5), ("long", 100_000), ("max", Int.max),
            ("text", "ten"), ("zero", 0),
        ]
        for (name, minutes) in absurd {
            let refused = try await importing(minutes: minutes, into: name)
            #expect(refused.status == 1, "\(name): \(refused.stdout) \(refused.stderr)")
            #expect(refused.stderr.contains("not a whole number from 1 to 1440"), "\(name): \(refused.stderr)")
            #expect(try await Self.sessions(cli, Self.folder(cli, name)).isEmpty, "\(name): nothing imported")
        }
        for (name, minutes) in [("null", NSNull() as Any), ("day", 1440 as Any)] {
            let kept = try await importing(minutes: minutes, into: name)
            #expect(kept.status == 0, "\(name): \(kept.stderr)")
            let list = try await Self.sessions(cli, Self.folder(cli, name))
            #expect(list.count == 1 && list.first?["playlist"] != nil, "\(name): \(list)")
        }
    }
}
