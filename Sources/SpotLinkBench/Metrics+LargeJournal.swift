import Foundation
import SpotifyLinkSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Metrics {
    /// Issue 66 item 9: a journal of `sessions` sessions, each linked (to one of a fifth as many
    /// playlists), through `spotlink` as a user runs it, in a folder of its own: `import` of the
    /// backup (its peak resident memory, target 200 MiB: an iPhone app's budget, and the issue's),
    /// `session list` (one read, however many sessions) and `export`. Each command runs in a child
    /// of a worker of this bench, whose only child it is, so its high-water mark is its own.
    static func largeJournal(_ report: Report, sessions: Int) async throws {
        let spotlink = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("spotlink")
        let names = [
            "large_journal_import_peak", "large_journal_import", "large_journal_list", "large_journal_export_peak",
        ]
        guard FileManager.default.isExecutableFile(atPath: spotlink.path) else {
            for name in names {
                report.metric(
                    name, 0, "", floor: nil, target: .contrast(),
                    extra: ["skipped": "no spotlink beside spotlink-bench (build both: swift build)"])
            }
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let backup = folder.appendingPathComponent("backup.json")
        try largeBackup(sessions: sessions).write(to: backup)
        let environment = [
            "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
        ]
        func spotlinkRun(_ arguments: [String]) throws -> (seconds: Double, peakMiB: Double, output: String) {
            let start = ContinuousClock.now
            let (status, peak, output) = try childPeak([spotlink.path] + arguments, environment: environment)
            guard status == 0 else {
                throw BenchFailure(
                    "spotlink \(arguments.joined(separator: " ")) exited \(status): \(output.suffix(400))")
            }
            return ((ContinuousClock.now - start).seconds, peak, output)
        }
        let imported = try spotlinkRun(["import", backup.path])
        guard imported.output.contains("\(sessions) sessions added") else {
            throw BenchFailure("the import did not add \(sessions) sessions: \(imported.output.suffix(400))")
        }
        let listed = try spotlinkRun(["session", "list"])
        let lines = listed.output.split(separator: "\n").count
        guard lines >= sessions else { throw BenchFailure("session list showed \(lines) lines, not \(sessions)") }
        let exported = try spotlinkRun(["export", folder.appendingPathComponent("export.json").path])
        let extra: [String: Any] = [
            "sessions": sessions, "backup_mib": Double(try Data(contentsOf: backup).count) / 1_048_576,
        ]
        report.metric(
            "large_journal_import_peak", imported.peakMiB, "MiB", floor: nil,
            target: .machine(.atMost(200), "MiB resident (issue 66)"), extra: extra)
        report.metric(
            "large_journal_import", imported.seconds, "s", floor: nil, target: .contrast("one transaction"),
            extra: extra)
        report.metric(
            "large_journal_list", listed.seconds, "s", floor: nil, target: .machine(.atMost(10), "s: one query"),
            extra: ["peak_mib": listed.peakMiB])
        report.metric(
            "large_journal_export_peak", exported.peakMiB, "MiB", floor: nil,
            target: .machine(.atMost(200), "MiB resident: streamed"), extra: ["seconds": exported.seconds])
    }

    /// A `spotlink export` backup of `sessions` sessions, each linked to one of a fifth as many
    /// playlists known by ID alone.
    static func largeBackup(sessions: Int) -> Data {
        let playlists = max(1, sessions / 5)
        func playlistID(_ index: Int) -> String {
            let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            var value = index
            return String(
                (0..<22).map { _ in
                    defer { value /= 62 }
                    return digits[value % 62]
                })
        }
        var text =
            #"{"format":"spotlink-backup","version":1,"links":{"format":"spotifylink-links","version":1,"links":["#
        for number in 1...sessions {
            if number > 1 { text += "," }
            text +=
                #"{"linkedAt":"2026-11-29T12:00:00Z","playlist":"\#(playlistID(number % playlists))","record":{"id":"\#(number)","namespace":"session"}}"#
        }
        text += #"],"playlists":["#
        for index in 0..<playlists {
            if index > 0 { text += "," }
            text += #"{"availability":"unknown","id":"\#(playlistID(index))"}"#
        }
        text += #"]},"sessions":["#
        for number in 1...sessions {
            if number > 1 { text += "," }
            let uid = String(format: "00000000-0000-4000-8000-%012d", number)
            text +=
                #"{"created_at":"2026-11-29T11:00:00Z","minutes":\#(number % 90 + 1),"number":\#(number),"title":"Session \#(number) — focus","uid":"\#(uid)"}"#
        }
        text += "]}"
        return Data(text.utf8)
    }

    /// Runs `command` through a worker of this bench (`--peak-of`) and returns its exit status, the
    /// command's peak resident memory in MiB (the worker's children's high-water mark, the command
    /// being its only child) and its output.
    static func childPeak(_ command: [String], environment: [String: String]) throws -> (Int32, Double, String) {
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        worker.arguments = ["--peak-of", command.joined(separator: "\u{1F}")]
        worker.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        worker.standardOutput = output
        worker.standardError = output
        try worker.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        worker.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let last = text.split(separator: "\n").last, last.hasPrefix("peak-kib "),
            let kib = Double(last.dropFirst("peak-kib ".count))
        else { throw BenchFailure("the worker for \(command.joined(separator: " ")) said: \(text.suffix(400))") }
        return (worker.terminationStatus, kib / 1024, text)
    }

    /// The worker's side of ``childPeak(_:environment:)``: runs `command` (its parts joined by
    /// U+001F), then prints `peak-kib N`, the high-water mark of its one child, and exits with the
    /// child's status.
    static func peakOf(_ command: String) throws -> Int32 {
        let parts = command.split(separator: "\u{1F}").map(String.init)
        guard let executable = parts.first else { throw BenchFailure("--peak-of names no command") }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = Array(parts.dropFirst())
        try child.run()
        child.waitUntilExit()
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        FileHandle.standardOutput.write(Data("\npeak-kib \(usage.ru_maxrss)\n".utf8))
        return child.terminationStatus
    }
}
