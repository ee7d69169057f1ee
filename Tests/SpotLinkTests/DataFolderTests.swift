import Foundation
import GRDB
import SpotifyEmulator
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
        let path = folder.appendingPathComponent(file).path
        try execute(path, "UPDATE spotifylink_schema SET migrations = migrations + 1 WHERE component = ?", [component])
        let before = try sessions(path)

        let refused = try await cli.run(["session", "new", "Evening"] + data)
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("newer version") && refused.stderr.contains("update"), "\(refused.stderr)")
        #expect(try sessions(path) == before, "nothing was written")
        // doctor says what every command meets, never "integrity ok" (issue 66 item 8).
        let doctor = try await cli.run(["doctor"] + data)
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("✗ database:") && doctor.stdout.contains("newer version"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("integrity ok"), "\(doctor.stdout)")
    }
}

/// Numbers typed at the door are bounded there, and one an older version stored never crashes a read.
@Suite("A session's minutes")
struct SessionMinutesTests {
    @Test(arguments: ["9223372036854775807", "-5", "0", "1441"])
    func anOutOfRangeLengthIsAUsageErrorThatSaysWhy(minutes: String) async throws {
        let cli = try SpotLinkBinary()
        let result = try await cli.run(
            ["session", "new", "Run", "--minutes", minutes, "--data-dir", cli.home.appendingPathComponent("d").path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("1440") && result.stderr.contains(minutes), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    /// A length stored before the bound (an older version took any Int): `session show` reads it as a
    /// day at most, where `minutes * 60` used to overflow and crash every time.
    @Test func aHugeStoredLengthIsShownWithoutACrash() async throws {
        let cli = try SpotLinkBinary()
        let folder = cli.home.appendingPathComponent("d")
        let data = ["--data-dir", folder.path]
        #expect(try await cli.run(["session", "new", "Run", "--minutes", "30"] + data).status == 0)
        #expect(
            try await cli.run(["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"] + data).status == 0)
        try execute(folder.appendingPathComponent("links.sqlite").path, "UPDATE session SET minutes = \(Int.max)")
        let show = try await cli.run(["session", "show", "1"] + data)
        #expect(show.status == 0, "\(show.stderr)")
    }
}

/// Runs one statement on the database file at `path`, as another program would.
private func execute(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws {
    let database = try DatabaseQueue(path: path)
    try database.write { db in try db.execute(sql: sql, arguments: arguments) }
    try database.close()
}

/// The session rows of the database file at `path`.
private func sessions(_ path: String) throws -> [Row] {
    let database = try DatabaseQueue(path: path)
    defer { try? database.close() }
    return try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM session") }
}

/// Whether a user other than the owner may run `binary`: every folder above it lets others pass.
func othersCanRun(_ binary: URL) -> Bool {
    var path = binary.resolvingSymlinksInPath()
    while path.path != "/" {
        var info = stat()
        guard stat(path.path, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
        path.deleteLastPathComponent()
    }
    return true
}

/// A data folder the user cannot write (a read-only volume, a backup): reading, showing and
/// exporting work, and a change says why it cannot be made. The child runs as `nobody`, since root
/// writes through any mode; so it needs root, and a checkout that others may pass through to the
/// built binary (a clone inside a 0700 folder is not one).
@Suite(
    "A read-only data folder", .serialized,
    .enabled(
        if: getuid() == 0 && FileManager.default.fileExists(atPath: "/usr/sbin/runuser"), "needs root to run as nobody"),
    .enabled(
        if: othersCanRun(builtExecutable(named: "spotlink")),
        "nobody cannot reach the built binary: a folder above the checkout is closed to others")
)
struct ReadOnlyFolderTests {

    @Test func readsAndExportWorkAndAChangeSaysWhy() async throws {
        var cli = try SpotLinkBinary()
        cli.user = "nobody"
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: "/bin/chown")
        owner.arguments = ["-R", "nobody", cli.home.path]
        try owner.run()
        owner.waitUntilExit()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cli.home.path)
        let folder = cli.home.appendingPathComponent("data")
        let data = ["--data-dir", folder.path]
        #expect(try await cli.run(["session", "new", "Morning"] + data).status == 0)
        #expect(
            try await cli.run(["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"] + data).status == 0)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o400], ofItemAtPath: folder.appendingPathComponent(file).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path) }

        let export = cli.home.appendingPathComponent("backup.json").path
        for arguments in [["session", "list"], ["session", "show", "1"], ["export", export]] {
            let result = try await cli.run(arguments + data)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: export))
        let change = try await cli.run(["session", "new", "Evening"] + data)
        #expect(change.status == 1)
        #expect(change.stderr.contains("read-only") && change.stderr.contains("chmod"), "\(change.stderr)")
        #expect(!change.stderr.contains("SQLite error") && !change.stderr.contains("NSCocoaErrorDomain"))
    }
}

/// What the data folder's failures say: the next step, never SQLite's own text.
@Suite("Data folder failures in words")
struct DataFolderWordsTests {
    /// A file that is not a database (garbage, or another program's file) gets advice.
    @Test func aGarbageDatabaseGetsAdvice() async throws {
        let cli = try SpotLinkBinary()
        let folder = cli.home.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: folder.appendingPathComponent("links.sqlite"))
        let result = try await cli.run(["session", "list", "--data-dir", folder.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("not a SpotifyLink database") && result.stderr.contains("backup"), "\(result.stderr)"
        )
        #expect(!result.stderr.contains("SQLite error") && !result.stderr.contains("file is not a database"))
    }

    /// The links database reached through a symbolic link is refused, as the token file is.
    @Test func aSymbolicLinkInPlaceOfTheDatabaseIsRefused() async throws {
        let cli = try SpotLinkBinary()
        let folder = cli.home.appendingPathComponent("d")
        let elsewhere = cli.home.appendingPathComponent("someone-elses.sqlite")
        #expect(
            try await cli.run(["session", "new", "S", "--data-dir", cli.home.appendingPathComponent("o").path]).status
                == 0)
        try FileManager.default.copyItem(at: cli.home.appendingPathComponent("o/links.sqlite"), to: elsewhere)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("links.sqlite"), withDestinationURL: elsewhere)
        let result = try await cli.run(["session", "new", "T", "--data-dir", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
    }
}

/// A service that is not there: the command says so at once, as offline (exit 5), in the package's
/// words, after one attempt: a port that refuses is not tried again, and the connection pool does not
/// retry the connect for its ten-second timeout (which made a command take 31 s).
@Suite("An unreachable service")
struct UnreachableServiceTests {
    @Test func aRefusedConnectionIsOfflineAfterOneAttempt() async throws {
        let cli = try SpotLinkBinary()
        let emulator = try await EmulatorServer.startForTest()
        let common = ["--emulator", emulator.baseURL.absoluteString]
        try #require(try await cli.login(common).status == 0)
        let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
        #expect(try await cli.run(["session", "new", "S"] + common).status == 0)
        #expect(try await cli.run(["session", "attach", "1", deep] + common).status == 0)
        await emulator.stop()  // nothing listens on its port now

        let result = try await cli.run(["playlists", "--verbose"] + common)
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("Could not reach Spotify") && result.stderr.contains("nothing answered"))
        #expect(!result.stderr.contains("errno") && !result.stderr.contains("error set"), "\(result.stderr)")
        let attempts = result.stderr.components(separatedBy: "spotify request").count - 1
        #expect(attempts == 1, "\(result.stderr)")

        // A refresh that could not reach Spotify is a partial failure, in its exit code too.
        let refresh = try await cli.run(["refresh"] + common)
        #expect(refresh.status == 5, "\(refresh.stdout) \(refresh.stderr)")
        #expect(refresh.stdout.contains("1 unreachable") && refresh.stderr.contains("keep what was saved"))
        // With --json, one document holds the counts and the failure (issue 66 item 12: it was two).
        let json = try await cli.run(["refresh", "--json"] + common)
        #expect(json.status == 5, "\(json.stdout) \(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 1, "\(json.stdout)")
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(answer["unreachable"] as? Int == 1, "\(answer)")
        let error = try #require(answer["error"] as? [String: Any], "\(answer)")
        #expect(
            error["exit_code"] as? Int == 5 && (error["message"] as? String)?.contains("keep what was saved") == true)
    }
}
