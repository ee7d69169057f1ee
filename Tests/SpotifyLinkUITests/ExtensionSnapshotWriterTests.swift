import Foundation
import SpotifyEmulator
import SpotifyLinkExtensions
import SpotifyLinkSupport
@_spi(Storage) import SpotifyLinkUI
import SpotifyTesting
import Testing

/// The app's side of the extensions' snapshot: what `showInExtensions` writes, from the saved
/// links alone, how it follows a refresh, and what a disconnect leaves.
@MainActor
@Suite("The extensions' snapshot, written by the app's root")
struct ExtensionSnapshotWriterTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("extensions-\(UUID().uuidString)")
    }

    /// The write a change asked for, once the changes settle on the app's clock.
    static func settle(_ harness: UIHarness) async throws {
        try await waitUntil("a write waiting for the changes to settle", within: .seconds(60)) {
            harness.clock.sleeperCount > 0
        }
        harness.clock.advance(by: SpotifyLink.extensionsSettle)
        await harness.spotify.extensionsSettled()
    }

    static func harness(folder: URL, points: SuspensionPoints? = nil) async throws -> UIHarness {
        let harness = try await UIHarness(folder: folder, points: points)
        try await harness.connect()
        return harness
    }

    /// A record shown in the extensions is written with what its card knows, with no request; a
    /// refresh of the card brings its details into the snapshot, in words, and asks the widgets to
    /// reload once per change, never for a write that shows nothing new.
    @Test func whatTheCardsKnowWithNoRequestAndAReloadPerChange() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await Self.harness(folder: folder)
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        let file = ExtensionSnapshotFile(folder: folder)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Morning routine")])
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before, "the snapshot costs no request")
        var row = try #require(file.read().snapshot?.playlists.first)
        #expect(row.title == "Morning routine" && row.recordID == "1" && row.name == nil)
        #expect(harness.spotify.widgetReloadsAsked == 1)

        let card = harness.spotify.card(for: record)
        await card.load()
        await card.refresh()
        await card.refresh()  // a burst: one write once it settles, one reload
        try await Self.settle(harness)
        let snapshot = try #require(file.read().snapshot)
        row = try #require(snapshot.playlists.first)
        #expect(row.name == "Deep Work" && row.trackCount != nil && row.durationSeconds != nil)
        #expect(row.summary == card.summary.map(harness.spotify.text.callAsFunction), "the card's words")
        #expect(row.spokenSummary != nil && row.spotifyURL?.absoluteString.hasSuffix(deep.rawValue) == true)
        #expect(snapshot.isConnected && snapshot.emptyText == nil)
        #expect(harness.spotify.widgetReloadsAsked == 2)

        await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Morning routine")])
        #expect(harness.spotify.widgetReloadsAsked == 2, "nothing new to show: no reload")
        #expect(harness.spotify.extensionsFailure == nil)
        await harness.stop()
    }

    /// The card's cover follows into the snapshot beside it, as the card shows it: the saved
    /// bytes, or a grey placeholder of their size in screenshot mode; a disconnect deletes it.
    @Test(arguments: [false, true])
    func theCardsCoverIsBesideTheSnapshotAsTheCardShowsIt(screenshotMode: Bool) async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await UIHarness(screenshotMode: screenshotMode, folder: folder)
        try await harness.connect()
        let (record, deep) = try await harness.linkDeepWork(to: "cover")
        let card = harness.spotify.card(for: record)
        await card.load()
        await card.refresh()
        await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Session 12")])
        let file = ExtensionSnapshotFile(folder: folder)
        let row = try #require(file.read().snapshot?.playlists.first)
        let cover = try #require(file.cover(of: row), "the snapshot's row has no cover")
        let saved = try #require(try await harness.linkStore.cover(for: deep))
        #expect(cover == card.card?.cover, "the cover the card shows")
        if screenshotMode {
            #expect(try ScreenshotModeTests.palette(cover) == [PNG.placeholderGrey])
            let shown = try #require(PNG.dimensions(of: cover))
            let kept = try #require(PNG.dimensions(of: saved))
            #expect(shown == kept)
        } else {
            #expect(cover == saved)
        }
        await harness.connection.disconnect()
        #expect(file.cover(of: row) == nil, "a disconnect leaves no cover")
        await harness.stop()
    }

    /// Asked for, the learner's first saved songs follow into the snapshot by themselves (no
    /// request of their own), newest first; a disconnect forgets them, also for the next account's
    /// snapshot; not asked for, none are written.
    @Test func theLearnersSongsFollowAndADisconnectForgetsThem() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await Self.harness(folder: folder)
        harness.connection.connect(adding: ["user-library-read"], using: harness.browser)
        await harness.connection.waitForConnect()
        let file = ExtensionSnapshotFile(folder: folder)
        let learner = harness.spotify.learner()
        await harness.spotify.showInExtensions([])
        await learner.load()
        await harness.spotify.updateExtensions()
        #expect(file.read().snapshot?.recentTracks == [], "not asked for")

        await harness.spotify.showInExtensions([], recentSongs: true)
        await learner.load()
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        try await Self.settle(harness)
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before, "no request of their own")
        let songs = try #require(file.read().snapshot?.recentTracks)
        #expect(!songs.isEmpty && songs.count <= SpotifyLink.extensionSongLimit)
        #expect(songs.map(\.name) == learner.savedTracks.prefix(songs.count).map(\.track.name))
        #expect(songs.first?.spotifyURL?.absoluteString.hasPrefix("https://open.spotify.com/track/") == true)

        await harness.connection.disconnect()
        #expect(file.read().snapshot == nil)
        harness.connection.connect(adding: ["user-library-read"], using: harness.browser)
        await harness.connection.waitForConnect()
        await harness.spotify.updateExtensions()
        #expect(file.read().snapshot?.recentTracks == [], "forgotten with the disconnect")
        await harness.stop()
    }

    /// A playlist picked for a record shown in the extensions reaches them by itself, with what
    /// the picker's list knew.
    @Test func aPickFollowsIntoTheSnapshot() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await Self.harness(folder: folder)
        let record = RecordID(namespace: "routine", id: "morning")
        await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Morning routine")])
        let file = ExtensionSnapshotFile(folder: folder)
        #expect(file.read().snapshot?.playlists.first?.name == nil)
        let picker = harness.spotify.picker()
        await picker.appear()
        let deep = try #require(picker.results.first { $0.name == "Deep Work" })
        _ = try await picker.select(deep, for: record)
        try await Self.settle(harness)
        #expect(file.read().snapshot?.playlists.first?.name == "Deep Work", "the pick reaches the snapshot by itself")
        await harness.stop()
    }

    /// A disconnect deletes the snapshot with the details; shown again, the records carry the
    /// app's own words only and the extensions say where to connect.
    @Test func aDisconnectLeavesNoDetailForTheExtensions() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await Self.harness(folder: folder)
        let (record, _) = try await harness.linkDeepWork(to: "1")
        let card = harness.spotify.card(for: record)
        await card.load()
        await card.refresh()
        await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Morning routine")])
        let file = ExtensionSnapshotFile(folder: folder)
        #expect(file.read().snapshot?.playlists.first?.name == "Deep Work")

        await harness.connection.disconnect()
        #expect(file.read() == .nothing(.notWritten))
        await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Morning routine")])
        let snapshot = try #require(file.read().snapshot)
        #expect(!snapshot.isConnected && snapshot.emptyText == "Open the app to connect Spotify.")
        #expect(snapshot.playlists.map(\.title) == ["Morning routine"])
        #expect(snapshot.playlists.allSatisfy { $0.name == nil && $0.summary == nil && $0.trackCount == nil })
        await harness.stop()
    }

    /// A snapshot gathered while the user disconnects (the first card read before, the second
    /// after) is refused: the extensions never see the first card's details again.
    @Test func aSnapshotGatheredAcrossADisconnectIsNeverShown() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = SuspensionPoints()
        let harness = try await Self.harness(folder: folder, points: points)
        let (first, _) = try await harness.linkDeepWork(to: "1")
        let (second, _) = try await harness.linkDeepWork(to: "2")
        let card = harness.spotify.card(for: first)
        await card.load()
        await card.refresh()
        let file = ExtensionSnapshotFile(folder: folder)
        points.park(at: 1)
        let spotify = harness.spotify
        let showing = Task { @MainActor in
            await SuspensionPoints.$isTraced.withValue(true) {
                await spotify.showInExtensions([ExtensionRecord(first), ExtensionRecord(second)])
            }
        }
        try await waitUntil("the second card's read held") { points.parked == "links.cardWithRetention" }
        await harness.connection.disconnect()
        points.release()
        await showing.value
        #expect(file.read() == .nothing(.notWritten), "\(file.read())")
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent(ExtensionSnapshotFile.fileName).path))
        await harness.stop()
    }
}
