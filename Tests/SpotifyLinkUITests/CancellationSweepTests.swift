import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkExtensions
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// Every async operation of the app path, cancelled at each of its suspension points in turn
/// (each request, each token store and link store call, each sleep, as its first run met them),
/// the way SwiftUI cancels a view's task whenever the view goes. After each run: the cancelled
/// caller got `CancellationError` or its result, the model shows no failure the user did not
/// have, nothing is half-written, and the ledger counted each request that reached the
/// transport once.
@MainActor
@Suite("Every app-path operation, cancelled at each suspension point")
struct CancellationSweepTests {
    /// A connected app whose every seam reports to fresh points.
    static func world(returns: Bool = false) async throws -> (world: UIHarness, points: SuspensionPoints) {
        let points = SuspensionPoints(returns: returns)
        let harness = try await UIHarness(points: points)
        try await harness.connect()
        return (harness, points)
    }

    /// `result` is success or `CancellationError`, nothing else.
    static func expectCancelledOrDone(_ result: Result<Void, any Error>, _ run: CancellationSweep.Run) {
        if case .failure(let error) = result, !(error is CancellationError) {
            Issue.record("\(run): the caller got \(error), not CancellationError")
        }
    }

    /// The ledger counted exactly the Web API requests that reached the transport.
    static func expectEachRequestCountedOnce(_ harness: UIHarness, _ run: CancellationSweep.Run) async throws {
        let counted = try await harness.client.requestUsage().last24Hours
        let reached = harness.traced?.apiRequestCount ?? -1
        #expect(counted == reached, "\(run): the ledger counted \(counted) requests, \(reached) reached the transport")
    }

    @Test func theCardsLoadAndRefresh() async throws {
        var deep: SpotifyID?
        let points = try await CancellationSweep.sweep {
            let (harness, points) = try await Self.world()
            let (record, id) = try await harness.linkDeepWork(to: "1")
            deep = id
            return ((harness, harness.spotify.card(for: record)), points)
        } operation: { world in
            await world.1.load()
            await world.1.waitForRefresh()
        } check: { world, run, result in
            let (harness, card) = world
            Self.expectCancelledOrDone(result, run)
            await card.waitForRefresh()
            let saved = try #require(try await harness.links.card(for: card.record))
            let id = try #require(deep)
            let whole = saved.metadata.name == "Deep Work" && saved.metadata.totalDuration != nil
            #expect(whole || saved.metadata == PlaylistMetadata(id: id), "\(run): half-saved \(saved.metadata)")
            #expect(
                card.note == nil || card.note == SpotifyMessage(PlaylistAvailability.unknown),
                "\(run): \(String(describing: card.note))")
            try await Self.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
        #expect(
            points.contains { $0.hasPrefix("GET /v1/playlists/") }, "the sweep met the refresh's request: \(points)")
    }

    /// Pull to refresh on a card whose details are saved: the refresh asks Spotify again.
    @Test func theCardsPullToRefresh() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await Self.world()
            let (record, _) = try await harness.linkDeepWork(to: "1")
            let card = harness.spotify.card(for: record)
            await SuspensionPoints.$isTraced.withValue(false) {
                await card.load()
                await card.waitForRefresh()
            }
            return ((harness, card), points)
        } operation: { world in
            await world.1.refresh()
        } check: { world, run, result in
            let (harness, card) = world
            Self.expectCancelledOrDone(result, run)
            await card.waitForRefresh()
            #expect(card.note == nil, "\(run): \(String(describing: card.note))")
            #expect(
                card.card?.metadata.name == "Deep Work" && card.card?.cover != nil, "\(run): the card lost its details")
            try await Self.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
    }

    @Test func thePickersFirstAppearance() async throws {
        var listed: Int?
        let points = try await CancellationSweep.sweep {
            let (harness, points) = try await Self.world()
            return ((harness, harness.spotify.picker()), points)
        } operation: { world in
            await world.1.appear()
        } check: { world, run, result in
            let (harness, picker) = world
            Self.expectCancelledOrDone(result, run)
            if case .failed(let message) = picker.phase { Issue.record("\(run): the picker failed: \(message)") }
            if case .offline = picker.phase { Issue.record("\(run): the picker says it is offline") }
            // The run not cancelled saves the whole listing: every other saves all of it or none.
            let library = try await harness.links.library()
            if run.point == nil { listed = library.count }
            #expect(library.count > 0 || run.point != nil, "the listing was not saved")
            #expect(library.isEmpty || library.count == listed, "\(run): \(library.count) of \(listed ?? 0) saved")
            try await Self.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
        #expect(points.contains { $0.hasPrefix("GET /v1/me/playlists") }, "\(points)")
    }

    @Test func linkingFromThePicker() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await Self.world()
            let picker = harness.spotify.picker()
            await SuspensionPoints.$isTraced.withValue(false) { await picker.appear() }
            let deep = try #require(picker.results.first { $0.name == "Deep Work" })
            return ((harness, picker, deep), points)
        } operation: { world in
            _ = try await world.1.select(world.2, for: RecordID(namespace: "session", id: "1"))
        } check: { world, run, result in
            let (harness, _, deep) = world
            Self.expectCancelledOrDone(result, run)
            let card = try await harness.links.card(for: RecordID(namespace: "session", id: "1"))
            if case .success = result { #expect(card != nil, "\(run): selected, not linked") }
            if let card { #expect(card.metadata.name == deep.name, "\(run): linked without the listed name") }
            await harness.stop()
        }
    }

    @Test func disconnecting() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await Self.world()
            _ = try await harness.linkDeepWork(to: "1")
            let card = harness.spotify.card(for: RecordID(namespace: "session", id: "1"))
            await SuspensionPoints.$isTraced.withValue(false) {
                await card.load()
                await card.waitForRefresh()
            }
            return (harness, points)
        } operation: { harness in
            await harness.connection.disconnect()
        } check: { harness, run, result in
            Self.expectCancelledOrDone(result, run)
            let signedIn = try await harness.session.tokens() != nil
            let saved = try await harness.links.card(for: RecordID(namespace: "session", id: "1"))
            if !signedIn {
                #expect(saved?.metadata.name == nil, "\(run): signed out, and the details stayed")
                #expect(try await harness.links.library().isEmpty, "\(run): signed out, and the library stayed")
            }
            #expect(harness.connection.isConnected == signedIn, "\(run): \(harness.connection.phase)")
            if case .failed(let message) = harness.connection.phase {
                Issue.record("\(run): the disconnect failed: \(message)")
            }
            await harness.stop()
        }
    }

    @Test func connecting() async throws {
        try await CancellationSweep.sweep {
            let points = SuspensionPoints()
            return (try await UIHarness(points: points), points)
        } operation: { harness in
            harness.connection.connect(using: harness.browser)
            await harness.connection.waitForConnect()
        } cancel: { harness, _ in
            harness.connection.cancelConnect()
        } check: { harness, run, result in
            Self.expectCancelledOrDone(result, run)
            let signedIn = try await harness.session.tokens() != nil
            #expect(
                harness.connection.isConnected == signedIn, "\(run): \(harness.connection.phase), tokens \(signedIn)")
            if case .failed(let message) = harness.connection.phase {
                Issue.record("\(run): a cancelled sign-in shows a failure: \(message)")
            }
            await harness.stop()
        }
    }

    @Test func anImport() async throws {
        let source = try await UIHarness()
        for id in ["1", "2", "3"] {
            try await source.links.link(
                RecordID(namespace: "session", id: id), to: try await source.playlistID("Deep Work"))
        }
        let export = try await source.links.exportJSON()
        await source.stop()
        try await CancellationSweep.sweep {
            let points = SuspensionPoints()
            return (try await UIHarness(points: points), points)
        } operation: { harness in
            _ = try await harness.links.importJSON(export)
        } check: { harness, run, result in
            Self.expectCancelledOrDone(result, run)
            let links = try await harness.links.links()
            #expect(links.isEmpty || links.count == 3, "\(run): \(links.count) of 3 links imported")
            if case .success = result { #expect(links.count == 3, "\(run)") }
            await harness.stop()
        }
    }

    @Test func anExport() async throws {
        try await CancellationSweep.sweep {
            let points = SuspensionPoints()
            let harness = try await UIHarness(points: points)
            _ = try await harness.linkDeepWork(to: "1")
            return (harness, points)
        } operation: { harness in
            let data = try await harness.links.exportJSON()
            #expect(!data.isEmpty)
        } check: { harness, run, result in
            Self.expectCancelledOrDone(result, run)
            await harness.stop()
        }
    }
}

/// The sweeps of what runs beside another caller, or in a model's own task: a second picker that
/// shares the first one's request, a search the user clears, a page of results, now playing.
@MainActor
@Suite("Shared and model-owned operations, cancelled at each suspension point")
struct SharedCancellationSweepTests {
    /// Set by a sweep's cancel, read by an operation that drives the clock itself.
    final class Flag: @unchecked Sendable {
        var value = false
    }

    /// Two pickers appear at once (the app's sheet and its widget configuration, say): the first,
    /// cancelled at each point, shares its request with the second, which is never cancelled and
    /// must list every playlist, with no error.
    @Test func twoPickersAppearingAtOnce() async throws {
        var listed: Int?
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            return ((harness, harness.spotify.picker(), harness.spotify.picker(), Box(), points), points)
        } operation: { world in
            let (_, first, second, box, points) = world
            let firstDone = Flag()
            // The second joins once the first's request is under way (or the first ended before
            // it), so the first always starts the shared request and its points are the sweep's.
            box.other = Task {
                await SuspensionPoints.$isTraced.withValue(false) {
                    try? await waitUntil("the first picker's request is under way") {
                        points.reached.contains { $0.hasPrefix("GET /v1/me/playlists") } || firstDone.value
                    }
                    await second.appear()
                }
            }
            await first.appear()
            firstDone.value = true
        } check: { world, run, result in
            let (harness, _, second, box, _) = world
            CancellationSweepTests.expectCancelledOrDone(result, run)
            await box.other?.value
            if run.point == nil { listed = second.results.count }
            #expect(second.phase == .ready, "\(run): the other picker shows \(second.phase)")
            #expect(second.results.count == listed, "\(run): the other picker lists \(second.results.count)")
            try await CancellationSweepTests.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
    }

    /// Types `text` into a search (`type`), lets the pause pass and waits (`settled`) for its
    /// first page, outside the sweep's trace: the set-up of a next-page sweep.
    static func searched(_ harness: UIHarness, type: () -> Void, settled: () async -> Void) async throws {
        try await SuspensionPoints.$isTraced.withValue(false) {
            type()
            try await waitUntil("the search waits out the pause") { harness.clock.sleeperCount > 0 }
            harness.clock.advance(by: .seconds(1))
            await settled()
        }
    }

    /// What a next page may leave: the caller got `CancellationError` or its result, the list is
    /// not spinning (`phase`), no result was lost, and the ledger counted each request once.
    static func expectNextPageLeftWhole(
        _ harness: UIHarness, _ run: CancellationSweep.Run, _ result: Result<Void, any Error>, ready: Bool,
        results: Int, firstPage: Int
    ) async throws {
        CancellationSweepTests.expectCancelledOrDone(result, run)
        #expect(ready, "\(run): the list is left spinning")
        #expect(results >= firstPage, "\(run): results were lost")
        try await CancellationSweepTests.expectEachRequestCountedOnce(harness, run)
        await harness.stop()
    }

    /// Holds the other caller's task for the check.
    final class Box: @unchecked Sendable {
        var other: Task<Void, Never>?
    }

    /// The user types, and clears the text at each point of the search (the debounce's sleep, the
    /// request): no answer for the old text lands afterwards, and nothing shows as failed.
    @Test func aSongSearchTheUserClears() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            return ((harness, harness.spotify.songSearch(), Flag()), points)
        } operation: { world in
            let (harness, search, cleared) = world
            search.query = "a"
            try await waitUntil("the search waits out the pause") { harness.clock.sleeperCount > 0 || cleared.value }
            harness.clock.advance(by: .seconds(1))
            await search.waitForSearch()
        } cancel: { world, _ in
            world.1.query = ""
            world.2.value = true
        } check: { world, run, result in
            let (harness, search, cleared) = world
            CancellationSweepTests.expectCancelledOrDone(result, run)
            await search.waitForSearch()
            if cleared.value {
                #expect(
                    search.results.isEmpty && search.phase == .ready, "\(run): \(search.phase), \(search.results.count)"
                )
            } else {
                #expect(!search.results.isEmpty && search.phase == .ready, "\(run): \(search.phase)")
            }
            try await CancellationSweepTests.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
    }

    /// The next page of songs, asked for by the list's last row, whose view goes away at each
    /// point: the results so far stay, and the list is not left spinning.
    @Test func theNextPageOfSongs() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            let search = harness.spotify.songSearch()
            try await Self.searched(harness, type: { search.query = "a" }, settled: search.waitForSearch)
            try #require(search.canLoadMore, "the first page has a next")
            return ((harness, search, search.results.count), points)
        } operation: { world in
            await world.1.loadMore()
        } check: { world, run, result in
            let (harness, search, firstPage) = world
            try await Self.expectNextPageLeftWhole(
                harness, run, result, ready: search.phase == .ready, results: search.results.count,
                firstPage: firstPage)
        }
    }

    /// Now playing, followed for some polls and stopped at each point (the view goes away): no
    /// poll comes after, and the ledger counted what was sent.
    @Test func nowPlayingStoppedAtEachPoint() async throws {
        let points = try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            return ((harness, harness.spotify.nowPlaying(), Flag()), points)
        } operation: { world in
            let (harness, indicator, stopped) = world
            indicator.start()
            // Four polls, each followed by its wait, then the fifth's wait: the operation ends
            // where the loop sleeps, so each run meets the same points.
            for poll in 0...4 {
                try await waitUntil("a poll waits on the clock, or following stopped") {
                    harness.clock.sleeperCount > 0 || stopped.value
                }
                if stopped.value || poll == 4 { return }
                harness.clock.advanceToNextDeadline()
            }
        } cancel: { world, _ in
            world.1.stop()
            world.2.value = true
        } check: { world, run, result in
            let (harness, indicator, _) = world
            CancellationSweepTests.expectCancelledOrDone(result, run)
            indicator.stop()
            try await waitUntil("the poll loop ends") { !indicator.isPolling }
            let sent = harness.traced?.apiRequestCount
            harness.clock.advance(by: .seconds(3600))
            for _ in 0..<100 { await Task.yield() }
            #expect(harness.traced?.apiRequestCount == sent, "\(run): a poll came after the stop")
            try await CancellationSweepTests.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
        #expect(points.contains { $0.hasPrefix("GET /v1/me/player") }, "\(points)")
    }

    /// The picker's filter, which searches Spotify after a pause, cleared at each point.
    @Test func aPickerSearchTheUserClears() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            let picker = harness.spotify.picker()
            await SuspensionPoints.$isTraced.withValue(false) { await picker.appear() }
            return ((harness, picker, Flag(), picker.results.count), points)
        } operation: { world in
            let (harness, picker, cleared, _) = world
            picker.query = "focus"
            try await waitUntil("the search waits out the pause") { harness.clock.sleeperCount > 0 || cleared.value }
            harness.clock.advance(by: .seconds(1))
            await picker.waitForSearch()
        } cancel: { world, _ in
            world.1.query = ""
            world.2.value = true
        } check: { world, run, result in
            let (harness, picker, cleared, saved) = world
            CancellationSweepTests.expectCancelledOrDone(result, run)
            await picker.waitForSearch()
            #expect(picker.phase == .ready, "\(run): the picker shows \(picker.phase)")
            if cleared.value { #expect(picker.results.count == saved, "\(run): search results landed after clearing") }
            try await CancellationSweepTests.expectEachRequestCountedOnce(harness, run)
            await harness.stop()
        }
    }

    /// The picker's next page of search results, whose view goes away at each point.
    @Test func thePickersNextPage() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            let picker = harness.spotify.picker()
            await SuspensionPoints.$isTraced.withValue(false) { await picker.appear() }
            try await Self.searched(harness, type: { picker.query = "a" }, settled: picker.waitForSearch)
            try #require(picker.canLoadMore, "the first page has a next")
            return ((harness, picker, picker.results.count), points)
        } operation: { world in
            await world.1.loadMore()
        } check: { world, run, result in
            let (harness, picker, firstPage) = world
            try await Self.expectNextPageLeftWhole(
                harness, run, result, ready: picker.phase == .ready, results: picker.results.count,
                firstPage: firstPage)
        }
    }

    @Test func unlinking() async throws {
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            _ = try await harness.linkDeepWork(to: "1")
            return (harness, points)
        } operation: { harness in
            _ = try await harness.links.removeLink(for: RecordID(namespace: "session", id: "1"))
        } check: { harness, run, result in
            CancellationSweepTests.expectCancelledOrDone(result, run)
            let link = try await harness.links.link(for: RecordID(namespace: "session", id: "1"))
            if case .success = result { #expect(link == nil, "\(run): removed, and the link stayed") }
            await harness.stop()
        }
    }

    /// The records shown in the extensions, cancelled anywhere (the view that asked goes): the
    /// snapshot's write runs to its end, whole, with no request and no error.
    @Test func showingRecordsInTheExtensions() async throws {
        let record = RecordID(namespace: "session", id: "1")
        let passed = try await CancellationSweep.sweep {
            let points = SuspensionPoints()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
            let harness = try await UIHarness(folder: folder, points: points)
            try await harness.connect()
            _ = try await harness.linkDeepWork(to: "1")
            return (harness, points)
        } operation: { harness in
            await harness.spotify.showInExtensions([ExtensionRecord(record, title: "Focus")])
        } check: { harness, run, result in
            CancellationSweepTests.expectCancelledOrDone(result, run)
            await harness.spotify.updateExtensions()
            let file = try #require(harness.spotify.services.extensionSnapshot)
            #expect(file.read().snapshot?.playlists.map(\.title) == ["Focus"], "\(run): \(file.read())")
            #expect(harness.spotify.extensionsFailure == nil, "\(run)")
            await harness.stop()
            try? FileManager.default.removeItem(at: file.folder)
        }
        #expect(!passed.isEmpty && passed.allSatisfy { $0.hasPrefix("links.") }, "no request, only reads: \(passed)")
    }

    /// A routine's Live Activity started as its screen appears: cancelled at any point (the
    /// saved link's read), it starts none; done, there is one. Its start sends no request.
    @Test func startingARoutinesLiveActivity() async throws {
        let record = RecordID(namespace: "routine", id: "1")
        let passed = try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            let deep = try await harness.playlistID("Deep Work")
            try await harness.links.link(record, to: deep)
            harness.spotify.routineActivityHost = RecordingRoutineHost()
            return (harness, points)
        } operation: { harness in
            let indicator = harness.spotify.nowPlaying()
            let activity = harness.spotify.routineActivity()
            await activity.start(
                ExtensionRecord(record, title: "Morning"), lasting: .seconds(600), following: indicator)
            try Task.checkCancellation()
        } check: { harness, run, result in
            CancellationSweepTests.expectCancelledOrDone(result, run)
            let host = try #require(harness.spotify.routineActivityHost as? RecordingRoutineHost)
            switch result {
            case .success: #expect(host.running.count == 1 && host.activities.count == 1, "\(run)")
            case .failure: #expect(host.activities.isEmpty, "\(run): a cancelled start started \(host.activities)")
            }
            #expect(host.activities.allSatisfy { $0.attributes.title == "Morning" }, "\(run)")
            await harness.stop()
        }
        #expect(!passed.isEmpty && passed.allSatisfy { $0.hasPrefix("links.") }, "no request, only reads: \(passed)")
    }

    /// A disconnect that lands at any point of a Live Activity's start (before the saved link's
    /// read, or after it answered and before the start goes on): whatever starts shows nothing of the account, neither the playlist's name nor its
    /// songs, and nothing runs after the disconnect with them.
    @Test func aDisconnectDuringARoutinesLiveActivityStart() async throws {
        let record = RecordID(namespace: "routine", id: "1")
        let passed = try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world(returns: true)
            let deep = try await harness.playlistID("Deep Work")
            try await harness.links.link(record, to: deep)
            let card = harness.spotify.card(for: record)
            await SuspensionPoints.$isTraced.withValue(false) {
                await card.load()
                await card.waitForRefresh()
            }
            harness.spotify.routineActivityHost = RecordingRoutineHost()
            return (harness, points)
        } operation: { harness in
            let indicator = harness.spotify.nowPlaying()
            let activity = harness.spotify.routineActivity()
            await activity.start(
                ExtensionRecord(record, title: "Morning"), lasting: .seconds(600), following: indicator)
        } cancel: { harness, _ in
            await harness.connection.disconnect()
        } check: { harness, run, result in
            let host = try #require(harness.spotify.routineActivityHost as? RecordingRoutineHost)
            if run.point == nil {
                let shown = try #require(host.running.first, "connected, it starts")
                #expect(shown.attributes.playlistName == "Deep Work", "connected, it shows the playlist")
                #expect(shown.states.first?.songsInRoutine != nil, "connected, it shows the songs")
            } else {
                #expect(!harness.connection.isConnected, "\(run)")
                for shown in host.running {
                    #expect(shown.attributes.playlistName == nil, "\(run): the playlist's name after a disconnect")
                    #expect(
                        shown.states.allSatisfy { $0.songsInRoutine == nil && $0.nowPlaying == nil },
                        "\(run): the playlist's songs after a disconnect")
                }
            }
            await harness.stop()
        }
        #expect(passed.contains { $0.hasSuffix(" returned") }, "the points after the reads: \(passed)")
    }

    /// A deleted record's link, removed for an undo and brought back: cancelled anywhere, the
    /// record has its link or none, never another; done, the undo brings back the same link.
    @Test func aDeleteAndItsUndo() async throws {
        let record = RecordID(namespace: "session", id: "1")
        try await CancellationSweep.sweep {
            let (harness, points) = try await CancellationSweepTests.world()
            _ = try await harness.linkDeepWork(to: "1")
            return (harness, points)
        } operation: { harness in
            let removed = try await harness.links.removeLinkForUndo(for: record)
            try await harness.links.undoRemoval(try #require(removed))
        } check: { harness, run, result in
            CancellationSweepTests.expectCancelledOrDone(result, run)
            let link = try await harness.links.link(for: record)
            let deep = try await harness.playlistID("Deep Work")
            #expect(link == nil || link?.playlist == deep, "\(run): \(String(describing: link))")
            if case .success = result { #expect(link?.playlist == deep, "\(run): the undo brought it back") }
            await harness.stop()
        }
    }

    /// The old fields' migration at launch, cancelled anywhere (the app's launch task goes): the
    /// record has the link or none, and the next launch's run makes it, with the saved name.
    @Test func aMigrationOfTheOldFields() async throws {
        let record = RecordID(namespace: "routine", id: "7E0C5B1A-2B7D-4C55-9D0E-6A1F3C2B9A10")
        let legacyID = "37i9dQZF1DWZeKCadgRdKQ"
        try await CancellationSweep.sweep {
            try await CancellationSweepTests.world()
        } operation: { harness in
            _ = try await harness.links.migrateLegacyLink(
                record, playlistID: legacyID, name: "Deep Work", imageURL: nil)
        } check: { harness, run, result in
            CancellationSweepTests.expectCancelledOrDone(result, run)
            let link = try await harness.links.link(for: record)
            #expect(link == nil || link?.playlist.rawValue == legacyID, "\(run)")
            if case .success = result { #expect(link != nil, "\(run): migrated") }
            let again = try await harness.links.migrateLegacyLink(
                record, playlistID: legacyID, name: "Deep Work", imageURL: nil)
            #expect(again == (link == nil), "\(run): the next launch migrates what is left, and only that")
            #expect(try await harness.links.card(for: record)?.metadata.name == "Deep Work", "\(run)")
            await harness.stop()
        }
    }
}
