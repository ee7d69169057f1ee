import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spotlink export` replaces its destination whole, so it writes only a new file or a regular
/// file outside spotlink's folders, and a command whose output is lost says so (issue 66 item 7).
@Suite("Export refuses a destination it would destroy")
struct ExportDestinationTests {
    /// A folder with two sessions, one linked; returns its `--data-dir` arguments.
    static func journal(_ cli: SpotLinkBinary) async throws -> [String] {
        let folder = BackupTests.folder(cli, "journal")
        #expect(try await cli.run(["session", "new", "Morning"] + folder).status == 0)
        #expect(try await cli.run(["session", "attach", "1", BackupTests.deepWork] + folder).status == 0)
        return folder
    }

    /// The live journal, by its path or by a hard link to it elsewhere, is never replaced with JSON.
    @Test func theJournalItselfIsRefusedByPathAndByHardLink() async throws {
        let cli = try SpotLinkBinary()
        let folder = try await Self.journal(cli)
        let database = cli.home.appendingPathComponent("journal/links.sqlite")
        #expect(FileManager.default.fileExists(atPath: database.path))
        let hardLink = cli.home.appendingPathComponent("journal-copy.json")
        #expect(link(database.path, hardLink.path) == 0)
        for target in [database.path, hardLink.path] {
            let export = try await cli.run(["export", target] + folder)
            #expect(export.status == 1, "\(target): \(export.stdout)")
            #expect(export.stderr.contains("spotlink's own links.sqlite (the same file)"), "\(export.stderr)")
        }
        let elsewhere = try await cli.run(
            ["export", cli.home.appendingPathComponent("journal/backup.json").path] + folder)
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stderr.contains("inside spotlink's own folder"), "\(elsewhere.stderr)")
        // The journal is whole.
        let sessions = try await BackupTests.sessions(cli, folder)
        #expect(sessions.count == 1)
        #expect(sessions.first?["playlist"] as? String == "3cEYpjA9oz9GiPac4AsH4n", "\(sessions)")
    }

    /// A symbolic link stays a link to what it named, and a named pipe stays a pipe.
    @Test func aSymbolicLinkOrAPipeIsRefusedAndLeftAsItWas() async throws {
        let cli = try SpotLinkBinary()
        let folder = try await Self.journal(cli)
        let target = cli.home.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: target)
        let symlink = cli.home.appendingPathComponent("backup.json")
        try FileManager.default.createSymbolicLink(at: symlink, withDestinationURL: target)
        let export = try await cli.run(["export", symlink.path] + folder)
        #expect(export.status == 1)
        #expect(export.stderr.contains("is a symbolic link"), "\(export.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: symlink.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep")

        let pipe = cli.home.appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let toPipe = try await cli.run(["export", pipe.path] + folder)
        #expect(toPipe.status == 1)
        #expect(toPipe.stderr.contains("is a named pipe"), "\(toPipe.stderr)")
        var info = stat()
        #expect(lstat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        // Nothing half-written is left beside them.
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.home.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Output that cannot be written (`> /dev/full`) is a failure the command reports, not a success.
    @Test func aCommandWhoseOutputIsLostSaysSo() async throws {
        var cli = try SpotLinkBinary()
        let folder = try await Self.journal(cli)
        cli.stdoutPath = "/dev/full"
        let list = try await cli.run(["session", "list"] + folder)
        #expect(list.status == 1)
        #expect(list.stderr.contains("The output could not be written (No space left on device)"), "\(list.stderr)")
        let export = try await cli.run(["export", cli.home.appendingPathComponent("backup.json").path] + folder)
        #expect(export.status == 1, "the file is written, the message about it is not")
        #expect(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("backup.json").path))
    }
}
