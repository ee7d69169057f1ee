import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
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
