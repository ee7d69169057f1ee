import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// A disconnect forgets what Spotify said, and nothing the app was fetching when it happened comes
/// back afterwards: Spotify's answer to a card's refresh or a picker's listing, held until after
/// the disconnect, saves nothing (F2 of the 2026-11-28 review: the refresh wrote the name and the
/// 11,786-byte cover back).
@MainActor
@Suite("A disconnect no answer in flight can undo")
struct DisconnectInterleavingTests {
    @Test func aCardsRefreshAnsweredAfterTheDisconnectSavesNothing() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        let answer = harness.transport.hold { $0.path?.hasPrefix("/v1/playlists/\(deep.rawValue)") == true }
        let card = harness.spotify.card(for: record)
        await card.load()
        try await waitUntil("the card's refresh has its answer, held") { answer.hasArrived }
        await harness.connection.disconnect()
        #expect(harness.connection.phase == .disconnected)
        answer.open()
        await card.waitForRefresh()
        #expect(try await harness.links.card(for: record)?.metadata == .forgotten(deep), "the answer was saved")
        #expect(try await harness.linkStore.cover(for: deep) == nil, "the cover was saved after the disconnect")
        #expect(card.card?.metadata.name == nil && card.card?.cover == nil)
        #expect(try await harness.links.link(for: record)?.playlist == deep, "the link is the app's: it stays")
        await harness.stop()
    }

    @Test func aPickersListingAnsweredAfterTheDisconnectSavesNothing() async throws {
        let harness = try await UIHarness.connected()
        let answer = harness.transport.hold { $0.path?.hasPrefix("/v1/me/playlists") == true }
        let picker = harness.spotify.picker()
        let appearing = Task { await picker.appear() }
        try await waitUntil("the picker's listing is answered, held") { answer.hasArrived }
        await harness.connection.disconnect()
        answer.open()
        await appearing.value
        #expect(try await harness.links.library().isEmpty, "the listing was saved after the disconnect")
        #expect(picker.results.isEmpty, "the picker shows a listing the disconnect forgot")
        await harness.stop()
    }

    /// The disconnect and the answer the other way round: a refresh that starts after the
    /// disconnect is not signed in, asks nothing and saves nothing.
    @Test func aRefreshAfterTheDisconnectAsksNothing() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        await harness.connection.disconnect()
        let before = harness.transport.requestCount
        let card = harness.spotify.card(for: record)
        await card.load()
        await card.refresh()
        #expect(harness.transport.requestCount == before)
        #expect(try await harness.links.card(for: record)?.metadata == .forgotten(deep))
        await harness.stop()
    }
}

/// The interleavings of a disconnect with the other lives of an app: a sign-in refresh under way
/// and a now-playing poll. (An import against a forget is the property test's: each is one
/// transaction, checked through two handles after every step.)
@MainActor
@Suite("A disconnect against a token refresh and a poll")
struct DisconnectAgainstOtherWorkTests {
    /// The access token expired: a card's refresh asks for a new one, and the user disconnects
    /// while Spotify's accounts service answers. The sign-out waits for the refresh's save (they
    /// take turns on the store), then removes it: no sign-in outlives the disconnect, the card's
    /// answer is not saved, and the settings row says disconnected.
    @Test func aSignOutDuringATokenRefreshLeavesNoSignIn() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        harness.clock.advance(by: .seconds(3600))  // the access token has expired
        let refreshing = harness.transport.hold { $0.path?.hasPrefix("/api/token") == true }
        let card = harness.spotify.card(for: record)
        await card.load()
        try await waitUntil("the token refresh is answered and held") { refreshing.hasArrived }
        let disconnecting = Task { await harness.connection.disconnect() }
        // The sign-out waits for the refresh's turn at the store (or, were it not to wait, is done).
        try await waitUntil("the sign-out waits for the refresh") {
            await harness.session.storeTurnsWaiting == 1 || harness.connection.phase == .disconnected
        }
        refreshing.open()
        await disconnecting.value
        await card.waitForRefresh()
        #expect(try await harness.session.tokens() == nil, "the refreshed sign-in outlived the disconnect")
        #expect(harness.connection.phase == .disconnected)
        #expect(try await harness.links.card(for: record)?.metadata == .forgotten(deep))
        await harness.stop()
    }

    /// A poll whose answer arrives after the disconnect shows nothing of the account that was
    /// disconnected, and the polling ends without another request.
    @Test func aPollAnsweredAfterTheDisconnectShowsNothingAndPollingEnds() async throws {
        let harness = try await UIHarness.connected()
        let deep = try await harness.playlistID("Deep Work")
        await harness.emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep.rawValue)"])
        let answer = harness.transport.hold { $0.path?.hasPrefix("/v1/me/player") == true }
        let indicator = harness.spotify.nowPlaying()
        indicator.start()
        try await waitUntil("the poll is answered and held") { answer.hasArrived }
        await harness.connection.disconnect()
        let sent = harness.transport.requestCount
        answer.open()
        try await waitUntil("the polling ends") { !indicator.isPolling }
        #expect(
            indicator.item == nil, "the disconnected account's song is shown: \(String(describing: indicator.item))")
        #expect(!indicator.isVisible)
        harness.clock.advance(by: .seconds(3600))
        for _ in 0..<100 { await Task.yield() }
        #expect(harness.transport.requestCount == sent, "a poll after the disconnect")
        await harness.stop()
    }
}
