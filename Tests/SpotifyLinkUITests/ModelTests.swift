import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyNowPlaying
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

@MainActor
@Suite("SpotifyConnectionModel against the emulator", .serialized)
struct ConnectionModelTests {
    /// The README's apps never call `load()`: an app launched again with a stored sign-in is
    /// connected by itself, its picker's first appearance lists from Spotify, its search searches,
    /// and the launch asks Spotify nothing (the account is the one saved with the sign-in).
    @Test func anAppLaunchedAgainWithAStoredSignInIsConnectedWithoutAsking() async throws {
        let harness = try await UIHarness.connected()
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        let relaunched = SpotifyLink(harness.spotify.services.configuration)
        let picker = relaunched.picker()
        await picker.appear()
        #expect(relaunched.connection.isConnected, "\(relaunched.connection.phase)")
        #expect(!picker.results.isEmpty, "\(picker.phase)")
        guard case .connected(let account) = relaunched.connection.phase else { return }
        #expect(account.accountID == "acct-emu-user")
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") - before == 1, "only the picker's list")
        await harness.stop()
    }

    /// The routine app starts its indicator as it launches, before the stored sign-in is read: it
    /// follows the player once the read finds one, and sends nothing before.
    @Test func anIndicatorStartedAtLaunchFollowsOnceTheStoredSignInIsRead() async throws {
        let harness = try await UIHarness.connected()
        let relaunched = SpotifyLink(harness.spotify.services.configuration)
        let indicator = relaunched.nowPlaying()
        indicator.start()
        await relaunched.connection.storedSignInKnown()
        #expect(relaunched.connection.isConnected)
        await harness.clock.play(for: .seconds(120))
        try await waitUntil("the indicator's first poll") { indicator.callCount > 0 }
        indicator.stop()
        await harness.stop()
    }

    @Test func doubleConnectStartsOneSignIn() async throws {
        let harness = try await UIHarness()
        await harness.connection.load()
        #expect(harness.connection.phase == .disconnected)
        harness.connection.connect(using: harness.browser)
        #expect(harness.connection.phase == .connecting)
        harness.connection.connect(using: harness.browser)
        harness.connection.connect(using: harness.browser)
        await harness.connection.waitForConnect()
        #expect(harness.signIns.value == 1)
        #expect(harness.connection.signInCount == 1)
        #expect(await harness.emulator.requestCount("POST /api/token") == 1)
        guard case .connected(let account) = harness.connection.phase else {
            Issue.record("state \(harness.connection.phase)")
            return
        }
        #expect(account.userID == "emu-user")
        #expect(Set(account.scopes) == Set(SpotifyScope.all))
        // Connected: connect does nothing more.
        harness.connection.connect(using: harness.browser)
        #expect(harness.signIns.value == 1)
        await harness.stop()
    }

    /// A client ID created before 2026-02-11 still gets the plan, email and country on `/me`; a
    /// newer one does not. The package reads nothing into either: the same account, the same
    /// screens, the same requests.
    @Test func bothKindsOfClientIDGiveTheSameAccountAndRequests() async throws {
        var seen: [(SpotifyConnectionModel.Account, String?, Int)] = []
        for created in [nil, Date(timeIntervalSince1970: 1_748_736_000)] {  // 2025-06-01
            let harness = try await UIHarness(clientCreated: created)
            try await harness.connect()
            guard case .connected(var account) = harness.connection.phase else {
                Issue.record("state \(harness.connection.phase)")
                return
            }
            #expect(account.imageURL != nil)
            account.imageURL = nil  // names the emulator's port
            let (record, _) = try await harness.linkDeepWork(to: "1")
            let card = PlaylistCardModel(record: record, spotify: harness.spotify)
            await card.load()
            await card.waitForRefresh()
            #expect(card.note == nil)
            seen.append((account, card.card?.metadata.name, await harness.emulator.totalRequests(prefix: "GET /v1/")))
            await harness.stop()
        }
        #expect(seen.count == 2 && seen[0].0 == seen[1].0, "\(seen.map(\.0))")
        #expect(seen.map(\.1) == ["Deep Work", "Deep Work"])
        #expect(seen[0].2 == seen[1].2, "requests: \(seen.map(\.2))")
        #expect(seen[0].0.accountID == "acct-emu-user" && seen[0].0.displayName == "Emulator User")
    }

    /// A user not on a Development Mode app's user list finishes the sign-in, then is refused every
    /// call: the model says so right after connecting, with the `/me` it asks anyway, never
    /// "connected". The sign-in is kept for when the developer adds the account.
    @Test func anAccountNotOnTheUserListIsNotShownAsConnected() async throws {
        let harness = try await UIHarness()
        await harness.emulator.control("faults", ["kind": "403-not-registered", "path": "/v1/me", "count": "3"])
        await harness.connection.load()
        harness.connection.connect(using: harness.browser)
        await harness.connection.waitForConnect()
        #expect(harness.connection.phase == .failed(.userNotRegistered))
        #expect(!harness.connection.isConnected)
        #expect(await harness.emulator.requestCount("GET /v1/me") == 1)
        #expect(try await harness.session.tokens() != nil)
        // Added to the list: the next launch shows the account.
        await harness.emulator.control("faults/clear")
        await harness.connection.load()
        #expect(harness.connection.isConnected)
        await harness.stop()
    }

    /// The app cancels the sign-in while the sheet is up: the sheet's task is cancelled, the model
    /// goes back to disconnected, and nothing is exchanged.
    @Test func cancelledSignInGoesBackToDisconnectedAndExchangesNothing() async throws {
        let opened = AsyncStream<Void>.makeStream()
        let harness = try await UIHarness { url, _ in
            opened.continuation.yield()
            // The user never finishes: the sheet waits until its task is cancelled.
            try await Task.sleep(for: .seconds(3600))
            return try await ConsentBrowser().callback(for: url)
        }
        harness.connection.connect(using: harness.browser)
        var iterator = opened.stream.makeAsyncIterator()
        await iterator.next()
        #expect(harness.connection.phase == .connecting)
        harness.connection.cancelConnect()
        await harness.connection.waitForConnect()
        #expect(harness.connection.phase == .disconnected)
        #expect(await harness.emulator.requestCount("POST /api/token") == 0)
        await harness.stop()
    }

    /// Closing the system sheet throws Apple's `canceledLogin`: not "something went wrong".
    @Test func closingTheSheetIsNotAFailure() async throws {
        let harness = try await UIHarness { _, _ in
            throw NSError(domain: "com.apple.AuthenticationServices.WebAuthenticationSession", code: 1)
        }
        harness.connection.connect(using: harness.browser)
        await harness.connection.waitForConnect()
        #expect(harness.connection.phase == .disconnected)
        await harness.stop()
    }

    /// iOS 17.0–17.3 and macOS 14.0–14.3: SwiftUI's sheet in its custom-scheme form (the release
    /// faked) connects the model as the newer form does.
    @Test func belowIOS17_4TheSheetsCustomSchemeFormConnects() async throws {
        let harness = try await UIHarness()
        let sheet = BrowserSignIn.systemSheet(
            callbackFormAvailable: false,
            callbackForm: { _, _ in
                Issue.record("the Callback form was used below iOS 17.4")
                throw CancellationError()
            },
            customSchemeForm: { url, scheme in
                #expect(scheme == "myapp")
                return try await ConsentBrowser().callback(for: url)
            })
        harness.connection.connect(using: sheet)
        await harness.connection.waitForConnect()
        #expect(harness.connection.isConnected)
        #expect(await harness.emulator.requestCount("POST /api/token") == 1)
        await harness.stop()
    }

    @Test func declinedConsentIsNotAFailure() async throws {
        let harness = try await UIHarness { url, _ in try await ConsentBrowser(agree: false).callback(for: url) }
        harness.connection.connect(using: harness.browser)
        await harness.connection.waitForConnect()
        #expect(harness.connection.phase == .disconnected)
        await harness.stop()
    }

    /// By default a disconnect forgets: the sign-in and every detail saved from Spotify go, the
    /// record keeps its link (the app's data) and opens it in Spotify; connecting again refetches.
    @Test func disconnectForgetsTheDetailsAndKeepsTheLinks() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        #expect(card.card?.metadata.name == "Deep Work" && card.card?.cover != nil)
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        let japanese = SpotifyText(locale: Locale(identifier: "ja_JP"))
        #expect(harness.connection.disconnectExplanation() == .disconnectExplanation(.memory, keepingDetails: false))
        let explanation = english(harness.connection.disconnectExplanation())
        for said in [
            "memory", "playlist names, owners, covers, track counts and durations", "keep their linked playlists",
        ] {
            #expect(explanation.contains(said), "\(explanation)")
        }
        #expect(japanese(harness.connection.disconnectExplanation()).contains("削除されます"))
        await harness.connection.disconnect()
        #expect(harness.connection.phase == .disconnected)
        #expect(harness.connection.lastDisconnectMessage == .disconnected(.memory, keptDetails: false))
        #expect(try await harness.session.tokens() == nil)
        #expect(try await harness.links.link(for: record)?.playlist == deep)
        await card.load()
        #expect(card.card?.metadata == PlaylistMetadata(id: deep))
        #expect(card.card?.cover == nil)
        #expect(card.openInSpotify()?.reference == .playlist(deep))
        #expect(try await harness.links.library().isEmpty)
        // The card says what brings the details back, not that they will come by themselves.
        #expect(card.note == .playlistDetailsNeedConnection)
        #expect(
            english(try #require(card.note)) == "Connect Spotify to see this playlist again. It still opens in Spotify."
        )
        #expect(japanese(try #require(card.note)).contains("Spotifyに接続してください"))
        // Connecting again fetches the details anew.
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/playlists/")
        try await harness.connect()
        #expect(card.note == .playlistDetailsPending)
        await card.load()
        await card.waitForRefresh()
        #expect(card.card?.metadata.name == "Deep Work" && card.card?.cover != nil)
        #expect(card.note == nil)
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/playlists/") > before)
        await harness.stop()
    }

    /// Keeping the saved details is a choice the app asks for; the words say what it keeps.
    @Test func disconnectKeepsTheDetailsOnlyWhenAsked() async throws {
        let harness = try await UIHarness.connected()
        let (record, _) = try await harness.linkDeepWork(to: "1")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        let explanation = english(harness.connection.disconnectExplanation(keepingDetails: true))
        #expect(explanation.contains("stay on this device") && !explanation.contains("every detail"))
        await harness.connection.disconnect(keepingDetails: true)
        #expect(harness.connection.lastDisconnectMessage == .disconnected(.memory, keptDetails: true))
        #expect(try await harness.session.tokens() == nil)
        #expect(try await harness.links.card(for: record)?.metadata.name == "Deep Work")
        #expect(try await harness.links.card(for: record)?.cover != nil)
        await harness.stop()
    }

    /// One source of sign-in state: the card's refresh meets Spotify's refusal, the session says
    /// the sign-in ended, and the connection model shows it with no call from the card.
    @Test func anEndedSignInShowsNeedsSignInAgain() async throws {
        let harness = try await UIHarness.connected()
        // Six months on, the refresh token is refused.
        harness.clock.advance(by: .seconds(184 * 86400))
        let card = PlaylistCardModel(
            record: RecordID(namespace: "s", id: "1"), spotify: harness.spotify)
        let deep = try await harness.playlistID("Deep Work")
        try await harness.links.link(card.record, to: deep)
        await card.load()
        await card.waitForRefresh()
        try await waitUntil("the connection model follows the session") {
            harness.connection.phase == .needsSignIn(.expired)
        }
        await harness.connection.load()
        if case .needsSignIn = harness.connection.phase {
        } else {
            Issue.record("after load: \(harness.connection.phase)")
        }
        await harness.stop()
    }
}

@MainActor
@Suite("PlaylistPickerModel against the emulator", .serialized)
struct PickerModelTests {
    func picker(_ harness: UIHarness) -> PlaylistPickerModel {
        PlaylistPickerModel(
            spotify: harness.spotify, debounce: .milliseconds(300))
    }

    @Test func filtersAtOnceThenSearchesAfterTheDebounce() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        #expect(picker.results.map(\.name).contains("Deep Work"))
        // Each row read aloud: name, owner, count, what the app can read of it.
        let deep = try #require(picker.results.first { $0.name == "Deep Work" })
        #expect(
            harness.spotify.text(picker.accessibilityLabel(for: deep))
                == "Deep Work, by Emulator User, 50 tracks, Songs and length")
        // The followed playlist its owner deleted comes as `null`: not listed, but counted.
        #expect(picker.unavailableCount == 1)
        #expect(!picker.results.map(\.name).contains("Old Roadtrip"))
        let before = await harness.emulator.requestCount("GET /v1/search")
        picker.query = "f"
        picker.query = "fo"
        picker.query = "focus"
        // Local matches at once, before any search.
        #expect(picker.results.map(\.name).contains("Morning Focus"))
        #expect(!picker.results.map(\.name).contains("Focus Flow"))
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(299))
        #expect(await harness.emulator.requestCount("GET /v1/search") == before)
        harness.clock.advance(by: .milliseconds(1))
        try await waitUntil("search results") { picker.results.map(\.name).contains("Focus Flow") }
        // Three keystrokes inside the debounce: one search.
        #expect(await harness.emulator.requestCount("GET /v1/search") == before + 1)
        #expect(picker.phase == .ready)
        // Local matches stay first, in library order (both have a word that starts with the text).
        #expect(picker.results.prefix(2).map(\.name) == ["Morning Focus", "Lo-Fi Focus Beats"])
        await harness.stop()
    }

    @Test func moreResultsOnDemand() async throws {
        let harness = try await UIHarness.connected()
        let picker = PlaylistPickerModel(
            spotify: harness.spotify, debounce: .milliseconds(350), pageSize: 2)
        picker.query = "focus"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(350))
        try await waitUntil("the first page") { picker.searchesInFlight == 0 && picker.canLoadMore }
        let firstPage = picker.results.map(\.id)
        let searches = await harness.emulator.requestCount("GET /v1/search")
        await picker.loadMore()
        #expect(await harness.emulator.requestCount("GET /v1/search") == searches + 1)
        #expect(picker.results.count > firstPage.count)
        #expect(Array(picker.results.map(\.id).prefix(firstPage.count)) == firstPage)
        #expect(Set(picker.results.map(\.id)).count == picker.results.count)
        await harness.stop()
    }

    @Test func aSlowAnswerForOlderTextNeverReplacesTheNewerOne() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        let slow = harness.transport.hold { $0.path?.contains("q=focus&") == true }
        picker.query = "focus"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(300))
        try await waitUntil("the first search reaches the emulator") { slow.hasArrived }
        picker.query = "focus piano"
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(300))
        try await waitUntil("the second answer") { picker.results.map(\.name) == ["Focus Piano"] }
        // Now the answer for "focus" arrives, late.
        slow.open()
        try await waitUntil("every search answered") { picker.searchesInFlight == 0 }
        #expect(picker.results.map(\.name) == ["Focus Piano"])
        #expect(picker.phase == .ready)
        await harness.stop()
    }

    @Test func offlineShowsSavedPlaylistsWithAMessage() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        await harness.emulator.stop()
        picker.query = "deep"
        #expect(picker.results.map(\.name) == ["Deep Work"])
        try await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .milliseconds(300))
        // The client retries a failed GET with backoff on the test clock: let those waits pass.
        try await waitUntil("the search starts") { picker.searchesInFlight == 1 }
        for _ in 0..<10 where picker.searchesInFlight > 0 {
            try await waitUntil("a retry waits or the search ends") {
                harness.clock.sleeperCount > 0 || picker.searchesInFlight == 0
            }
            harness.clock.advanceToNextDeadline()
        }
        try await waitUntil("offline") { if case .offline = picker.phase { true } else { false } }
        #expect(picker.results.map(\.name) == ["Deep Work"])
        picker.query = "no such playlist anywhere"
        #expect(picker.phase == .empty(.noPlaylistsMatch("no such playlist anywhere")))
    }

    /// Offline from the first second: a playlist picked from the saved library keeps what the
    /// picker knew, so its card reads whole from SQLite with Spotify gone. The pick and the first
    /// card read cost no request.
    @Test func aPlaylistPickedFromTheLibraryReadsWholeOffline() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        let deep = try #require(picker.results.first { $0.name == "Deep Work" })
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        let record = RecordID(namespace: "session", id: "offline")
        let picked = try #require(try await picker.select(deep, for: record))
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before, "the pick sent a request")
        await harness.stop()
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        try await harness.letTheFailingRefreshEnd(card)
        let metadata = try #require(card.card?.metadata)
        #expect(metadata == picked.metadata)
        #expect(metadata.name == "Deep Work" && metadata.ownerName == "Emulator User")
        #expect(metadata.trackCount == 50)
        #expect(metadata.coverURL == deep.coverURL && metadata.coverURL != nil)
        #expect(metadata.snapshotID == deep.snapshotID && metadata.snapshotID != nil)
        #expect(card.summary == .playlistSummary(tracks: 50, duration: nil))
        // Spotify is gone: the refresh failed, and the card is as it was.
        #expect(card.note == .couldNotRefresh)
    }

    /// Details a day old are refreshed when the card opens; younger ones cost nothing.
    @Test func aCardRefreshesDetailsADayOld() async throws {
        let harness = try await UIHarness.connected()
        let (record, _) = try await harness.linkDeepWork(to: "daily")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/playlists/")
        harness.clock.advance(by: .seconds(23 * 3600))
        await card.load()
        await card.waitForRefresh()
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/playlists/") == before)
        harness.clock.advance(by: .seconds(2 * 3600))
        await card.load()
        await card.waitForRefresh()
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/playlists/") == before + 1)
        await harness.stop()
    }

    /// Offline and never connected again: after 90 days the card's saved details go when it is
    /// read, it says why, and it still opens the playlist in Spotify. No request is made.
    @Test func detailsNinetyDaysOldGoOfflineAndTheCardSaysSo() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "old")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        #expect(card.card?.metadata.name == "Deep Work")
        await harness.connection.disconnect(keepingDetails: true)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        harness.clock.advance(by: .seconds(89 * 86_400))
        await card.load()
        #expect(card.card?.metadata.name == "Deep Work" && card.note == nil)
        #expect(card.card?.cover == nil)  // not shown for 89 days: covers go after 30
        harness.clock.advance(by: .seconds(2 * 86_400))
        await card.load()
        #expect(card.card?.metadata.name == nil)
        #expect(card.note == .playlistDetailsExpired)
        #expect(card.openInSpotify()?.reference == .playlist(deep))
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before)
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        #expect(english(.playlistDetailsExpired).contains("90 days"))
        await harness.stop()
    }

    /// Once Spotify answers, one request fills in the duration and the cover's bytes; the next
    /// opening of the card sends nothing.
    @Test func afterThePickOneRequestCompletesTheCard() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        let deep = try #require(picker.results.first { $0.name == "Deep Work" })
        let record = RecordID(namespace: "session", id: "online")
        try await picker.select(deep, for: record)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") - before == 1)
        #expect(card.card?.metadata.totalDuration != nil)
        #expect(card.card?.cover != nil)
        await card.load()
        await card.waitForRefresh()
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") - before == 1)
        await harness.stop()
    }

    /// The picker marks each playlist by what the app can read, from the listing alone, and can
    /// list only those whose songs it reads.
    @Test func thePickerMarksWhatTheAppCanReadAndFiltersToComplete() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        let access = Dictionary(uniqueKeysWithValues: picker.results.map { ($0.name, $0.access) })
        #expect(access["Deep Work"] == .complete)
        #expect(access["Friends Mixtape"] == .complete)  // collaborative
        #expect(access["Lo-Fi Focus Beats"] == .detailsOnly)
        #expect(access["Today's Top Hits"] == .openOnly)
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        picker.onlyComplete = true
        #expect(!picker.results.isEmpty && picker.results.allSatisfy { $0.access == .complete })
        #expect(picker.results.contains { $0.name == "Friends Mixtape" })
        picker.query = "focus"
        #expect(picker.results.map(\.name) == ["Morning Focus"])
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before, "the marks cost a request")
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        #expect(english(.playlistAccess(.detailsOnly)).contains("name and cover only"))
        await harness.stop()
    }

    /// A followed playlist: picked, its card shows name, owner and count, and says why the length
    /// is missing; its time in songs says it cannot count. Never the generic "forbidden", never a
    /// request for its songs (a 403 that only spends quota).
    @Test func aFollowedPickGivesACardAndASongTimeThatExplainThemselves() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        let followed = try #require(picker.results.first { $0.name == "Lo-Fi Focus Beats" })
        let record = RecordID(namespace: "routine", id: "lofi")
        let picked = try #require(try await picker.select(followed, for: record))
        #expect(picked.metadata.availability == .detailsOnly)
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        let metadata = try #require(card.card?.metadata)
        #expect(metadata.name == "Lo-Fi Focus Beats" && metadata.ownerName == "Lofi Lab")
        #expect(metadata.trackCount == 80 && metadata.totalDuration == nil)
        #expect(metadata.availability == .detailsOnly)
        #expect(card.summary == .playlistSummary(tracks: 80, duration: nil))
        #expect(card.note == .playlistSongsHidden)
        #expect(card.songTime(.seconds(20 * 60)) == .songTimeUnknown(.songsHidden))
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/playlists/\(followed.id.rawValue)/items") == 0)
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        #expect(english(.playlistSongsHidden).contains("add its songs to a playlist of your own"))
        #expect(SpotifyText(locale: Locale(identifier: "ja_JP"))(.songTimeUnknown(.songsHidden)).contains("曲数"))
        // Offline: the same card and the same words, from the device alone.
        await harness.stop()
        let offline = PlaylistCardModel(record: record, spotify: harness.spotify)
        await offline.load()
        try await harness.letTheFailingRefreshEnd(offline)
        #expect(offline.card?.metadata == metadata)
        #expect(offline.note == .playlistSongsHidden)
        #expect(offline.songTime(.seconds(20 * 60)) == .songTimeUnknown(.songsHidden))
    }

    /// One of Spotify's own playlists: picked offline, its card says Spotify shares nothing of it
    /// and its time in songs cannot count; no request is sent for it, then or later.
    @Test func aSpotifyOwnedPickExplainsItselfAndCostsNothing() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        let spotifys = try #require(picker.results.first { $0.name == "Today's Top Hits" })
        await harness.stop()
        let record = RecordID(namespace: "session", id: "hits")
        let picked = try #require(try await picker.select(spotifys, for: record))
        #expect(picked.metadata.availability == .spotifyOwned)
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        #expect(card.note == .playlistOwnedBySpotify)
        #expect(card.songTime(.seconds(600)) == .songTimeUnknown(.spotifyOwned))
        #expect(card.openInSpotify()?.reference == .playlist(spotifys.id))
        // The refresher leaves Spotify's own playlists alone: asking would spend a request for a 404.
        let refresher = MetadataRefresher(links: harness.links, client: harness.client)
        #expect(try await refresher.refreshStale(olderThan: .zero).isEmpty)
    }

    @Test func selectionLinksTheRecord() async throws {
        let harness = try await UIHarness.connected()
        let picker = picker(harness)
        await picker.appear()
        picker.query = "deep"
        let chosen = try #require(picker.results.first)
        let record = RecordID(namespace: "routine", id: "morning")
        let card = try #require(try await picker.select(chosen, for: record))
        #expect(card.metadata.id == chosen.id)
        #expect(try await harness.links.link(for: record)?.playlist == chosen.id)
        await harness.stop()
    }
}

@MainActor
@Suite("Asking for a missing scope, and the account key", .serialized)
struct ScopeAndAccountTests {
    @Test func aMissingScopeIsOfferedAndASecondSignInAddsItWithTheConsentPage() async throws {
        let urls = Lock<[URL]>([])
        let harness = try await UIHarness { url, _ in
            urls.withLock { $0.append(url) }
            return try await ConsentBrowser().callback(for: url)
        }
        try await harness.connect()
        guard case .connected(let account) = harness.connection.phase else {
            Issue.record("not connected")
            return
        }
        // Keyed by the immutable account_id once Spotify said who it is.
        #expect(account.accountID == "acct-emu-user" && account.userID == "emu-user")
        #expect(try await harness.session.tokens()?.account?.accountID == "acct-emu-user")
        await harness.emulator.control("faults", ["kind": "403-scope"])
        let error = try await #require(throws: SpotifyAPIError.self) { try await harness.client.currentlyPlaying() }
        #expect(SpotifyMessage(error) == .missingScope("user-read-currently-playing"))
        #expect(harness.connection.isConnected)

        harness.connection.connect(adding: ["user-top-read"], using: harness.browser)
        await harness.connection.waitForConnect()
        #expect(harness.connection.isConnected)
        let second = try #require(urls.withLock { $0.last })
        #expect(second.queryValue("show_dialog") == "true")
        let asked = second.queryValue("scope")?.split(separator: " ").map(String.init) ?? []
        #expect(asked.contains("user-top-read") && asked.contains("playlist-read-private"))
        #expect(try await harness.session.tokens()?.scopes.contains("user-top-read") == true)
        #expect(urls.withLock { $0.first }?.queryValue("show_dialog") == nil)
        await harness.stop()
    }

    @Test func disconnectSaysThereIsNoRevocationAndHowLongTokensLast() async throws {
        let harness = try await UIHarness.connected()
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        #expect(english(harness.connection.disconnectExplanation()).contains("up to an hour"))
        #expect(SpotifyPrivacyModel(storeKind: .memory).revokeSteps.joined().contains("up to an hour"))
        await harness.connection.disconnect()
        #expect(english(try #require(harness.connection.lastDisconnectMessage)).contains("spotify.com/account/apps"))
        await harness.stop()
    }
}

@MainActor
@Suite("PlaylistCardModel against the emulator", .serialized)
struct CardModelTests {
    @Test func cachedCardAtOnceThenRefreshedAndOpenLinks() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "7")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        // At once: the link is there, details not yet.
        #expect(card.card?.metadata.id == deep)
        #expect(card.isRefreshing)
        #expect(card.note == .playlistDetailsPending)
        await card.waitForRefresh()
        #expect(!card.isRefreshing)
        #expect(card.card?.metadata.name == "Deep Work")
        #expect(card.card?.metadata.trackCount == 50)
        #expect(card.summary == .playlistSummary(tracks: 50, duration: card.card?.metadata.totalDuration))
        // VoiceOver reads the cover and the facts in words.
        #expect(card.coverLabel == .coverDescription(playlist: "Deep Work"))
        #expect(card.summaryLabel == .playlistSummarySpoken(tracks: 50, duration: card.card?.metadata.totalDuration))
        #expect(harness.spotify.text(try #require(card.summaryLabel)).hasPrefix("50 tracks, "))
        // The explicit songs were counted from the songs the refresh read: said when there are some.
        let explicit = try #require(card.card?.metadata.explicitCount)
        #expect(card.explicitSongs == (explicit > 0 ? .explicitSongs(explicit) : nil))
        #expect(SpotifyText(locale: Locale(identifier: "en_US"))(try #require(card.summary)).hasPrefix("50 tracks · "))
        #expect(card.note == nil)
        #expect(card.openInSpotify()?.appURL.absoluteString == "spotify:playlist:\(deep.rawValue)")
        #expect(
            card.openInSpotify()?.url(spotifyInstalled: false).absoluteString
                == "https://open.spotify.com/playlist/\(deep.rawValue)")
        #expect(card.openInSpotify(fallback: .appStore)?.url(spotifyInstalled: false) == OpenInSpotify.appStorePage)
        await harness.stop()
    }

    @Test func aDeletedPlaylistKeepsItsSavedCardWithAStatusLine() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "8")
        let first = PlaylistCardModel(record: record, spotify: harness.spotify)
        await first.load()
        await first.waitForRefresh()
        await harness.emulator.control("playlists/\(deep.rawValue)/delete")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        #expect(card.card?.metadata.name == "Deep Work")
        // Fresh details: opening the card asks nothing; pulling to refresh does.
        #expect(!card.isRefreshing)
        await card.refresh()
        await card.waitForRefresh()
        #expect(card.card?.metadata.name == "Deep Work")
        #expect(card.card?.metadata.trackCount == 50)
        #expect(card.card?.metadata.availability == .notFound)
        #expect(card.note == .playlistDeleted)
        await harness.stop()
    }

    @Test func openingAFreshCardTwentyTimesSendsNothingAndAStaleOneRefreshes() async throws {
        let harness = try await UIHarness.connected()
        let (record, _) = try await harness.linkDeepWork(to: "10")
        let first = PlaylistCardModel(record: record, spotify: harness.spotify)
        await first.load()
        await first.waitForRefresh()
        let calls = harness.transport.requestCount
        for _ in 0..<20 {
            let card = PlaylistCardModel(record: record, spotify: harness.spotify)
            await card.load()
            #expect(!card.isRefreshing)
            #expect(card.card?.metadata.trackCount == 50)
        }
        #expect(harness.transport.requestCount == calls)
        let impatient = PlaylistCardModel(
            record: record, spotify: harness.spotify,
            retention: RetentionPolicy(refreshAfter: .zero))
        await impatient.load()
        #expect(impatient.isRefreshing)
        await impatient.waitForRefresh()
        #expect(harness.transport.requestCount > calls)
        await harness.stop()
    }

    @Test func disconnectMidRefreshKeepsTheCardAndStopsCalling() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "9")
        let held = harness.transport.hold {
            $0.path?.hasPrefix("/v1/playlists/\(deep.rawValue)?") == true || $0.path == "/v1/playlists/\(deep.rawValue)"
        }
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        try await waitUntil("the refresh reaches Spotify") { held.hasArrived }
        await harness.connection.disconnect()
        held.open()
        await card.waitForRefresh()
        #expect(harness.connection.phase == .disconnected)
        #expect(!card.isRefreshing)
        #expect(card.card?.metadata.id == deep)
        let calls = harness.transport.requestCount
        await card.refresh()
        await card.waitForRefresh()
        #expect(harness.transport.requestCount == calls)
        await harness.stop()
    }
}

@MainActor
@Suite("NowPlayingIndicatorModel against the virtual player", .serialized)
struct IndicatorModelTests {
    /// An explicit song shows "Explicit" beside it, from the answer that says what plays.
    @Test func anExplicitSongIsLabelled() async throws {
        let harness = try await UIHarness.connected()
        let catalog = Catalog.generated(seed: EmulatorConfiguration().seed)
        let calm = try #require(catalog.playlists.values.first { $0.name == "Calm Evening" })
        let offset = try #require(calm.entries.firstIndex { $0?.kind == .track && $0?.explicit == true })
        await harness.emulator.control(
            "player/play", ["context_uri": "spotify:playlist:\(calm.id)", "offset": "\(offset)"])
        let indicator = NowPlayingIndicatorModel(spotify: harness.spotify)
        indicator.start()
        await harness.clock.play(for: .seconds(1))
        try await waitUntil("the indicator shows the song") { indicator.item != nil }
        #expect(indicator.explicitLabel == .explicitItem)
        #expect(SpotifyText(locale: Locale(identifier: "en_US"))(indicator.explicitLabel!) == "Explicit")
        indicator.stop()
        await harness.stop()
    }

    /// The indicator's default is the one polling default: an hour of music costs at most 30
    /// calls (`.responsive`, opt-in, would spend about 120), and every track change is still seen.
    @Test func theDefaultKeepsAnHourOfMusicWithinThirtyCalls() async throws {
        let harness = try await UIHarness.connected()
        let deep = try await harness.playlistID("Deep Work")
        await harness.emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
        let indicator = NowPlayingIndicatorModel(spotify: harness.spotify)
        indicator.start()
        var seen: Set<String> = []
        await harness.clock.play(
            for: .seconds(3600),
            steps: (1...360).map { tick in .init(at: .seconds(tick * 10)) { seen.insert(indicator.item?.uri ?? "") } })
        indicator.stop()
        print("indicator default: \(indicator.callCount) calls in a virtual hour, \(seen.count) items seen")
        #expect(indicator.callCount <= 30, "\(indicator.callCount) calls in an hour")
        #expect(indicator.callCount >= 10)
        // About 17 tracks in an hour of 150–260 s tracks: each one was shown.
        #expect(seen.count >= 14, "\(seen.count) items seen")
        await harness.stop()
    }

    /// With `.responsive` (opt-in), a pause and a resume are seen within 30 s.
    @Test func acrossAPauseAndASummaryInSongs() async throws {
        let harness = try await UIHarness.connected()
        let deep = try await harness.playlistID("Deep Work")
        let indicator = NowPlayingIndicatorModel(spotify: harness.spotify, policy: .responsive)
        #expect(!indicator.isVisible)
        let routine = try #require(indicator.start(routine: .playlist(deep)))
        #expect(routine.uri == "spotify:playlist:\(deep.rawValue)")
        var seen: [String] = []
        func note() {
            let label = indicator.isVisible ? (indicator.isPaused ? "paused" : "playing") : "hidden"
            if seen.last != label { seen.append(label) }
        }
        await harness.clock.play(for: .seconds(20))
        note()
        let emulator = harness.emulator
        await harness.clock.play(
            for: .seconds(900),
            steps: [
                .init(at: .seconds(1)) {
                    await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
                },
                .init(at: .seconds(100)) { note() },
                .init(at: .seconds(300)) { await emulator.control("player/pause") },
                .init(at: .seconds(400)) { note() },
                .init(at: .seconds(500)) { await emulator.control("player/resume") },
                .init(at: .seconds(700)) { note() },
            ])
        #expect(seen == ["hidden", "playing", "paused", "playing"])
        #expect(indicator.item?.name.isEmpty == false)
        let summary = try #require(indicator.finishRoutine())
        let songs = try #require(summary.songs)
        // About 700 s of listening at 150–260 s a track.
        #expect(songs > 2 && songs < 6)
        #expect(indicator.summaryMessage == .routineSummary(songs: songs))
        #expect(
            SpotifyText(locale: Locale(identifier: "en_US"))(.routineSummary(songs: songs)).hasPrefix(
                "You got through "))
        #expect(indicator.summary == summary)
        await harness.stop()
    }

    @Test func nothingPlayingStaysHiddenAndDisconnectStopsCalls() async throws {
        let harness = try await UIHarness.connected()
        let indicator = NowPlayingIndicatorModel(spotify: harness.spotify)
        indicator.start()
        await harness.clock.play(for: .seconds(60))
        #expect(!indicator.isVisible)
        #expect(indicator.state == .nothingPlaying)
        await harness.connection.disconnect()
        // The next poll's answer comes to a disconnected app: nothing is shown, and the monitor
        // stops for good.
        harness.clock.advance(by: .seconds(600))
        try await waitUntil("the indicator sees the disconnect") { indicator.state == nil }
        try await waitUntil("the monitor stops") { !indicator.isPolling && harness.clock.sleeperCount == 0 }
        let calls = harness.transport.requestCount
        harness.clock.advance(by: .seconds(3600))
        for _ in 0..<100 { await Task.yield() }
        #expect(harness.transport.requestCount == calls)
        #expect(harness.clock.sleeperCount == 0)
        #expect(!indicator.isVisible)
        #expect(harness.connection.phase == .disconnected)
        await harness.stop()
    }
}

@MainActor
@Suite("Never connected: the app behaves as without the feature")
struct NeverConnectedTests {
    @Test func noModelTouchesTheNetwork() async throws {
        let harness = try await UIHarness()
        await harness.connection.load()
        #expect(harness.connection.phase == .disconnected)
        let record = RecordID(namespace: "session", id: "1")
        try await harness.links.link(record, to: SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        let picker = PlaylistPickerModel(spotify: harness.spotify)
        await picker.appear()
        picker.query = "focus"
        await picker.loadMore()
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        let indicator = NowPlayingIndicatorModel(spotify: harness.spotify)
        #expect(indicator.start(routine: .playlist(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))) != nil)
        harness.clock.advance(by: .seconds(3600))
        // Nothing waits to call later: no model parked a poll, a search or a refresh on the clock.
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.transport.requestCount == 0)
        #expect(harness.signIns.value == 0)
        #expect(!indicator.isVisible)
        indicator.finishRoutine()
        #expect(indicator.summaryMessage == .routineSummary(songs: nil))
        // Disconnected, only the (empty) saved library is filtered: nothing matches.
        #expect(picker.phase == .empty(.noPlaylistsMatch("focus")))
        #expect(card.card?.uri == "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M")
        #expect(card.note == .playlistDetailsNeedConnection)
        #expect(!card.isRefreshing)
        await harness.stop()
    }
}
