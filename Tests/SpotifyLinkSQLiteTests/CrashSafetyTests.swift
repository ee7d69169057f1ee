import Foundation
import GRDB
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyTesting
import SpotifyWebAPI
import Testing

@_spi(Storage) @testable import PlaylistLinks

@Suite("Crash safety (checklist row 40)")
struct CrashSafetyTests {
    /// What the child said it committed, step by step.
    struct Reported {
        var linked = Set<Int>(), described = Set<Int>(), covered = Set<Int>(), unlinked = Set<Int>()

        mutating func read(_ output: String) {
            for line in output.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let index = Int(parts[1]) else { continue }
                switch parts[0] {
                case "linked": linked.insert(index)
                case "described": described.insert(index)
                case "covered": covered.insert(index)
                case "unlinked": unlinked.insert(index)
                default: break
                }
            }
        }
    }

    /// A child links, describes, covers and unlinks records in a loop and is killed at a random
    /// moment, over three hundred times. After every kill: the database passes `integrity_check`;
    /// every link it reported is there with its details, every unlink it reported stays undone,
    /// and every cover in the database is whole (the size and fill of the record that wrote it).
    @Test func killedHundredsOfTimesNothingReportedSavedIsLostAndNothingIsHalfWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("links.sqlite")
        var generator = SeededGenerator(seed: 40)
        var reported = Reported()
        var next = 0
        var kills = 0
        var runs = 0
        // How long after opening a child may live, in microseconds: widened while the children get
        // nothing done (a loaded machine, ThreadSanitizer), so the test needs no particular speed.
        var window = 8000
        while kills < 300 || reported.linked.count < 50 || reported.unlinked.isEmpty || reported.covered.isEmpty {
            runs += 1
            try #require(
                runs < 3000,
                "only \(kills) kills and \(reported.linked.count) links in \(runs) runs (window \(window) µs)")
            let process = Process()
            process.executableURL = builtExecutable(named: "LinksCrashChild")
            let killAfter = Int.random(in: 0...window, using: &generator)
            process.arguments = [database.path, "\(next)", "100000", "\(killAfter)"]
            let output = Pipe()
            process.standardOutput = output
            // Read on a thread of its own, never a thread of the cooperative pool: a child another
            // test starts meanwhile may hold this pipe open for as long as it runs, and two reads
            // blocked there would starve every test's emulator (seen: a whole run hung).
            async let read = ChildProcess.readToEnd(output.fileHandleForReading)
            let ended: ChildProcess.Ended
            do {
                ended = try await ChildProcess.start(process, deadline: .seconds(120))
            } catch {
                try? output.fileHandleForWriting.close()
                _ = await read
                throw error
            }
            try #require(ended == .exited, "a LinksCrashChild child did not end within 120 s (\(ended)), run \(runs)")
            if process.terminationReason == .uncaughtSignal { kills += 1 }
            let before = reported.linked.count
            reported.read(String(decoding: await read, as: UTF8.self))  // read to its end, then closed
            if reported.linked.count > before {
                next = reported.linked.max()! + 1
            } else if process.terminationReason == .uncaughtSignal {
                window = min(window * 5 / 4, 500_000)
            }
            // The records this run touched (and the one it was on when killed), then all at the end.
            try await expectSound(
                database, reported, after: kills, only: Set((next - 2 - (reported.linked.count - before))...next))
        }
        try await expectSound(database, reported, after: kills, only: nil)
        // The loop ran until the children got work done between kills (at least 50 links) and were
        // killed in every kind of step; the window grew only as far as the machine needed.
        #expect(reported.linked.count >= 50 && !reported.unlinked.isEmpty && !reported.covered.isEmpty)
    }

    func expectSound(_ database: URL, _ reported: Reported, after kills: Int, only touched: Set<Int>?) async throws {
        let links = try SQLitePlaylistLinkStore(location: .file(database))
        #expect(try links.integrityCheck() == ["ok"], "after kill \(kills)")
        let stored = await Set(try links.links().compactMap { Int($0.record.id) })
        // A record killed after its unlink committed but before it said so may go either way.
        let maybeUnlinked = Set(reported.covered.filter { $0.isMultiple(of: 3) }).subtracting(reported.unlinked)
        let kept = reported.linked.subtracting(reported.unlinked).subtracting(maybeUnlinked)
        #expect(
            kept.isSubset(of: stored), "links lost after kill \(kills): \(kept.subtracting(stored).sorted().prefix(5))")
        #expect(stored.isDisjoint(with: reported.unlinked), "unlinks undone after kill \(kills)")
        func checked(_ indices: Set<Int>) -> Set<Int> { touched.map { indices.intersection($0) } ?? indices }
        for index in checked(reported.described.intersection(kept)) {
            let card = try #require(try await links.card(for: RecordID(namespace: "crash", id: "\(index)")))
            #expect(
                card.metadata.name == "Playlist \(index)" && card.metadata.trackCount == index,
                "details of \(index) after kill \(kills)")
        }
        for index in checked(reported.covered) {
            #expect(
                try await links.cover(for: Self.playlist(index)) == Self.cover(index),
                "cover of \(index) after kill \(kills)"
            )
        }
        // Covers the child did not get to report must be whole too, or absent.
        for index in checked(stored.subtracting(reported.covered)) {
            if let bytes = try await links.cover(for: Self.playlist(index)) {
                #expect(bytes == Self.cover(index), "a half-written cover for \(index) after kill \(kills)")
            }
        }
    }

    static func playlist(_ index: Int) throws -> SpotifyID { try SpotifyID(String(format: "%022d", index)) }
    static func cover(_ index: Int) -> Data { Data(repeating: UInt8(index % 251), count: 4096 + index % 512) }
}
