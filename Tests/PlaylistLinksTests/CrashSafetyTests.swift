import Foundation
import GRDB
import SpotifyEmulator
import SpotifyTesting
import Testing

@testable import PlaylistLinks

@Suite("Crash safety (checklist row 40)")
struct CrashSafetyTests {
    @Test func killedAtRandomPointsTheDatabaseStaysSoundAndKeepsEverySavedLink() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("links.sqlite")
        var generator = SeededGenerator(seed: 40)
        var reported = Set<Int>()
        var next = 0
        var kills = 0
        while next < 1000 {
            let process = Process()
            process.executableURL = builtExecutable(named: "LinksCrashChild")
            let killAfter = Int.random(in: 1...25, using: &generator)
            process.arguments = [database.path, "\(next)", "\(1000 - next)", "\(killAfter)"]
            let output = Pipe()
            process.standardOutput = output
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in continuation.resume() }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            let saved = lines.compactMap { $0.hasPrefix("saved ") ? Int($0.dropFirst(6)) : nil }
            reported.formUnion(saved)
            next = (saved.max() ?? (next - 1)) + 1
        }
        #expect(kills > 0)
        let links = try PlaylistLinks(location: .file(database))
        #expect(try links.integrityCheck() == ["ok"])
        let stored = Set(try links.allLinks().compactMap { Int($0.record.id) })
        #expect(reported.isSubset(of: stored))
        #expect(reported.count == 1000)
    }
}
