import Foundation
import PropertyBased
import SpotifyLinkExtensions
import SpotifyTesting
import Testing

/// A folder of its own for each test, removed at the end.
struct SnapshotFolder: ~Copyable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
    var file: ExtensionSnapshotFile { ExtensionSnapshotFile(folder: url) }
    var snapshotURL: URL { url.appendingPathComponent(ExtensionSnapshotFile.fileName) }
    deinit { try? FileManager.default.removeItem(at: url) }
}

enum Samples {
    static let morning = ExtensionSnapshot.Playlist(
        namespace: "routine", recordID: "7E0C5B1A", title: "Morning routine",
        startsAt: Date(timeIntervalSinceReferenceDate: 816_000_000.25), name: "Deep Work", trackCount: 50,
        durationSeconds: 12_000.5, summary: "50 songs · 3 h 20 min", spokenSummary: "50 songs, 3 hours 20 minutes",
        spotifyURL: URL(string: "https://open.spotify.com/playlist/37i9dQZF1DWZeKCadgRdKQ"))

    static func snapshot(epoch: UInt64, at seconds: Double = 816_000_000.125, name: String = "Deep Work")
        -> ExtensionSnapshot
    {
        var morning = morning
        morning.name = name
        return ExtensionSnapshot(
            epoch: epoch, writtenAt: Date(timeIntervalSinceReferenceDate: seconds), isConnected: true,
            playlists: [morning], recentTracks: [ExtensionSnapshot.Track(name: "夜に駆ける", artists: "YOASOBI")],
            emptyText: "Connect Spotify in the app")
    }
}

@Suite("The extension snapshot: written whole by the app, read by extensions without a throw")
struct ExtensionSnapshotTests {
    @Test func whatTheAppWritesAnExtensionReads() throws {
        let folder = SnapshotFolder()
        #expect(folder.file.read() == .nothing(.notWritten))
        let snapshot = Samples.snapshot(epoch: try folder.file.epoch())
        #expect(try folder.file.write(snapshot) == .changed)
        #expect(folder.file.read() == .snapshot(snapshot), "dates, Japanese text and URLs read back exactly")
    }

    /// What a widget shows is unchanged when only the time of writing differs: nothing is written
    /// and no reload is asked; a change in what it shows is written.
    @Test func aWriteThatChangesNothingShownWritesNothing() throws {
        let folder = SnapshotFolder()
        try folder.file.write(Samples.snapshot(epoch: 0, at: 1))
        let before = try Data(contentsOf: folder.snapshotURL)
        #expect(try folder.file.write(Samples.snapshot(epoch: 0, at: 2)) == .unchanged)
        #expect(try Data(contentsOf: folder.snapshotURL) == before)
        #expect(try folder.file.write(Samples.snapshot(epoch: 0, at: 3, name: "Focus")) == .changed)
        #expect(folder.file.read().snapshot?.playlists.first?.name == "Focus")
    }

    /// A disconnect deletes the snapshot and moves the epoch on: a snapshot gathered before it (a
    /// refresh under way) is refused, and one that reached the disk anyway is never shown.
    @Test func aDisconnectForgetsAndAnEarlierSnapshotIsNeverShown() throws {
        let folder = SnapshotFolder()
        let epoch = try folder.file.epoch()
        try folder.file.write(Samples.snapshot(epoch: epoch))
        try folder.file.forget()
        #expect(folder.file.read() == .nothing(.notWritten))
        #expect(!FileManager.default.fileExists(atPath: folder.snapshotURL.path), "no detail stays on disk")
        #expect(try folder.file.epoch() == epoch + 1)
        #expect(try folder.file.write(Samples.snapshot(epoch: epoch)) == .refused)
        #expect(!FileManager.default.fileExists(atPath: folder.snapshotURL.path))
        // A writer that checked the epoch before the forget and renamed its file after it.
        try JSONEncoder().encode(Samples.snapshot(epoch: epoch)).write(to: folder.snapshotURL)
        #expect(folder.file.read() == .nothing(.forgotten))
        // The next snapshot, under the new epoch, shows.
        #expect(try folder.file.write(Samples.snapshot(epoch: epoch + 1)) == .changed)
        #expect(folder.file.read().snapshot != nil)
    }

    /// Missing, truncated at every length, not JSON, too large, a directory, from a newer version:
    /// each reads as nothing to show, with its reason, and never throws or crashes.
    @Test func badFilesReadAsNothingToShow() throws {
        let folder = SnapshotFolder()
        try folder.file.write(Samples.snapshot(epoch: 0))
        let whole = try Data(contentsOf: folder.snapshotURL)
        for length in 0..<whole.count {
            try whole.prefix(length).write(to: folder.snapshotURL)
            #expect(folder.file.read() == .nothing(.unreadable), "truncated at \(length) of \(whole.count)")
        }
        try Data("not json".utf8).write(to: folder.snapshotURL)
        #expect(folder.file.read() == .nothing(.unreadable))
        try Data(repeating: 0x20, count: ExtensionSnapshotFile.largestSize + 1).write(to: folder.snapshotURL)
        #expect(folder.file.read() == .nothing(.unreadable), "a file too large is not read")
        var newer = try #require(try JSONSerialization.jsonObject(with: whole) as? [String: Any])
        newer["version"] = ExtensionSnapshot.currentVersion + 1
        newer["playlists"] = "a shape this version does not know"
        try JSONSerialization.data(withJSONObject: newer).write(to: folder.snapshotURL)
        #expect(folder.file.read() == .nothing(.newerVersion(ExtensionSnapshot.currentVersion + 1)))
        try FileManager.default.removeItem(at: folder.snapshotURL)
        try FileManager.default.createDirectory(at: folder.snapshotURL, withIntermediateDirectories: false)
        #expect(folder.file.read() == .nothing(.unreadable))
    }

    /// A damaged epoch file: nothing is shown (an old snapshot could otherwise pass for a current
    /// one), the app's write says so, and a disconnect writes the epoch anew past the snapshot's.
    @Test func aDamagedEpochShowsNothingUntilAForget() throws {
        let folder = SnapshotFolder()
        try folder.file.write(Samples.snapshot(epoch: 0))
        try Data("seven".utf8).write(to: folder.url.appendingPathComponent(ExtensionSnapshotFile.epochFileName))
        #expect(folder.file.read() == .nothing(.unreadable))
        let error = try #require(throws: ExtensionSnapshotError.self) {
            try folder.file.write(Samples.snapshot(epoch: 0))
        }
        #expect(error.code == .damaged && error.message.contains(ExtensionSnapshotFile.epochFileName), "\(error)")
        try folder.file.forget()
        #expect(try folder.file.epoch() == 1)
        #expect(try folder.file.write(Samples.snapshot(epoch: 1)) == .changed)
    }

    /// A folder that cannot be made (its path runs through a file, which even root cannot
    /// write under): a typed error that names it, and a read that shows nothing.
    @Test func anUnwritableFolderIsATypedError() throws {
        let parent = SnapshotFolder()
        try FileManager.default.createDirectory(at: parent.url, withIntermediateDirectories: true)
        let blocker = parent.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let file = ExtensionSnapshotFile(folder: blocker.appendingPathComponent("SpotifyLink"))
        let error = try #require(throws: ExtensionSnapshotError.self) {
            try file.write(Samples.snapshot(epoch: 0))
        }
        #expect(error.code == .cannotWrite && error.message.contains(blocker.path), "\(error)")
        #expect(file.read() == .nothing(.notWritten))
        #expect(throws: ExtensionSnapshotError.self) { try file.forget() }
    }

    /// The rules over any sequence of the app's steps (gather under the epoch of the moment,
    /// write a gathered snapshot, disconnect, read), against a model: a read shows the last
    /// snapshot written under the present epoch and nothing after a disconnect; a write of a
    /// snapshot gathered before a disconnect is refused; a write that shows nothing new writes nothing.
    @Test func everySequenceKeepsTheModel() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...(4 * 3 * 3 * 5 - 1)).array(of: 1...30)) { codes in
            let folder = SnapshotFolder()
            var gathered: [ExtensionSnapshot?] = [nil, nil, nil]
            var epoch: UInt64 = 0
            var shown: ExtensionSnapshot?
            for (step, code) in codes.enumerated() {
                let slot = code / 4 % 3
                switch code % 4 {
                case 0:
                    let name = ["Deep Work", "Focus", "Calm"][code / 12 % 3]
                    gathered[slot] = Samples.snapshot(
                        epoch: (try? folder.file.epoch()) ?? .max, at: Double(step), name: name)
                case 1:
                    guard let snapshot = gathered[slot] else { continue }
                    var sameShown = shown
                    sameShown?.writtenAt = snapshot.writtenAt
                    let expected: ExtensionSnapshotFile.Write =
                        snapshot.epoch != epoch ? .refused : sameShown == snapshot ? .unchanged : .changed
                    #expect(try folder.file.write(snapshot) == expected, "step \(step) of \(codes)")
                    if expected == .changed { shown = snapshot }
                case 2:
                    try folder.file.forget()
                    epoch += 1
                    shown = nil
                default:
                    #expect(
                        folder.file.read() == (shown.map { .snapshot($0) } ?? .nothing(.notWritten)),
                        "step \(step) of \(codes)")
                }
            }
        }
    }

    /// The app killed at any moment of a write, hundreds of times: a read gives the last whole
    /// snapshot or the one the killed write was making, never part of one, and a file a killed
    /// write left behind is removed by the next write.
    @Test func aWriterKilledAnywhereLeavesAWholeSnapshot() async throws {
        let folder = SnapshotFolder()
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var runs = 0
        var lastWritten = -1
        var window = 4000
        while kills < 200 || lastWritten < 200 {
            runs += 1
            try #require(runs < 3000, "only \(kills) kills and \(lastWritten + 1) writes in \(runs) runs")
            let process = Process()
            process.executableURL = builtExecutable(named: "SnapshotWriterChild")
            process.arguments = [
                folder.url.path, "\(lastWritten + 1)", "\(Int.random(in: 0...window, using: &generator))",
            ]
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
            try #require(
                ended == .exited, "a SnapshotWriterChild child did not end within 120 s (\(ended)), run \(runs)")
            let lines = String(decoding: await read, as: UTF8.self)
            try #require(process.terminationReason == .uncaughtSignal, "the child ended by itself: \(lines)")
            kills += 1
            let reported = lines.split(separator: "\n").compactMap { Int($0.split(separator: " ").last ?? "") }
            if let last = reported.last { lastWritten = last } else { window = min(window * 5 / 4, 500_000) }
            switch folder.file.read() {
            case .snapshot(let snapshot):
                let index = Int(snapshot.writtenAt.timeIntervalSinceReferenceDate)
                #expect(index == lastWritten || index == lastWritten + 1, "kill \(kills): snapshot \(index)")
                #expect(snapshot.playlists.count == index % 40 + 1, "kill \(kills): a mixed snapshot")
                #expect(snapshot.playlists.allSatisfy { $0.trackCount == index }, "kill \(kills): a mixed snapshot")
            case .nothing(let reason):
                #expect(lastWritten < 0 && reason == .notWritten, "kill \(kills): \(reason)")
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(left.count <= 1, "files of killed writes pile up: \(left)")
    }
}

/// The covers beside the snapshot: written with it, read by a widget, gone when no row names them
/// and after a disconnect.
@Suite("The extension snapshot's covers")
struct ExtensionSnapshotCoverTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 2000))
    static let png = Data([0x89, 0x50, 0x4E, 0x47] + Array(repeating: 0x17, count: 1500))

    static func snapshot(epoch: UInt64, covers: [Data?]) -> ExtensionSnapshot {
        var snapshot = Samples.snapshot(epoch: epoch)
        snapshot.playlists = covers.enumerated().map { index, cover in
            var row = Samples.morning
            row.recordID = "\(index)"
            row.cover = cover.map(ExtensionSnapshotFile.coverName(for:))
            return row
        }
        return snapshot
    }

    func coversFolder(_ folder: borrowing SnapshotFolder) -> URL {
        folder.url.appendingPathComponent(ExtensionSnapshotFile.coversFolderName)
    }

    @Test func aRowsCoverIsReadBackAndAnUnnamedOneGoes() throws {
        let folder = SnapshotFolder()
        let epoch = try folder.file.epoch()
        let first = Self.snapshot(epoch: epoch, covers: [Self.jpeg, Self.png])
        #expect(try folder.file.write(first, covers: [Self.jpeg, Self.png]) == .changed)
        let read = try #require(folder.file.read().snapshot)
        #expect(folder.file.cover(of: read.playlists[0]) == Self.jpeg)
        #expect(folder.file.cover(of: read.playlists[1]) == Self.png)
        // The same again: nothing written, not even the covers.
        #expect(try folder.file.write(first, covers: [Self.jpeg, Self.png]) == .unchanged)
        // The second row's cover dropped (retention): its file goes; a changed cover is a change.
        let second = Self.snapshot(epoch: epoch, covers: [Self.png, nil])
        #expect(try folder.file.write(second, covers: [Self.png]) == .changed)
        let names = try FileManager.default.contentsOfDirectory(atPath: coversFolder(folder).path)
        #expect(names == [ExtensionSnapshotFile.coverName(for: Self.png)])
        #expect(folder.file.cover(of: try #require(folder.file.read().snapshot).playlists[0]) == Self.png)
    }

    @Test func aDisconnectDeletesTheCoversAndANameFromElsewhereReadsNothing() throws {
        let folder = SnapshotFolder()
        let epoch = try folder.file.epoch()
        let snapshot = Self.snapshot(epoch: epoch, covers: [Self.jpeg])
        try folder.file.write(snapshot, covers: [Self.jpeg])
        try folder.file.forget()
        #expect(!FileManager.default.fileExists(atPath: coversFolder(folder).path), "no cover stays on disk")
        #expect(folder.file.cover(of: snapshot.playlists[0]) == nil)
        // A write stamped before the disconnect keeps no cover either.
        #expect(try folder.file.write(snapshot, covers: [Self.jpeg]) == .refused)
        #expect(!FileManager.default.fileExists(atPath: coversFolder(folder).path))
        // A row naming a path, or a cover too large to keep: nothing read, nothing written.
        var row = snapshot.playlists[0]
        row.cover = "../extension-snapshot.epoch"
        #expect(folder.file.cover(of: row) == nil)
        let large = Data(repeating: 1, count: ExtensionSnapshotFile.largestCoverSize + 1)
        let withLarge = Self.snapshot(epoch: epoch + 1, covers: [large])
        #expect(try folder.file.write(withLarge, covers: [large]) == .changed)
        #expect(folder.file.cover(of: withLarge.playlists[0]) == nil)
    }

    @Test func coverNamesDifferForDifferentBytes() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...255).array(of: 0...64), Gen.int(in: 0...255)) {
            bytes, extra in
            let data = Data(bytes.map(UInt8.init))
            let other = data + [UInt8(extra)]
            #expect(ExtensionSnapshotFile.coverName(for: data) != ExtensionSnapshotFile.coverName(for: other))
            #expect(ExtensionSnapshotFile.coverName(for: data) == ExtensionSnapshotFile.coverName(for: Data(data)))
        }
    }
}
