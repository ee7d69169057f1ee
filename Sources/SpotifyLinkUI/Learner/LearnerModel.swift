import Foundation
public import Observation
public import SpotifyWebAPI

/// The language-learning app's profile screen: who is connected (name and picture), the songs they
/// saved and their top songs, a page at a time, and "Open in Spotify" for any of them.
///
/// Saved songs need `user-library-read` and top songs `user-top-read`, which are not in
/// `SpotifyScope.all`: while the sign-in lacks one, its list says ``SpotifyMessage/missingScope(_:)``
/// and the app offers `connection.connect(adding: [scope], using:)`. Nothing is sent while
/// disconnected, and the profile comes from the connection (no request of its own).
@MainActor @Observable
public final class LearnerModel {
    /// Where one list is.
    public enum ListPhase: Sendable, Equatable {
        /// Not asked yet (or disconnected).
        case idle
        /// Spotify is being asked; what was read stays shown.
        case loading
        /// Read; more may follow (``LearnerModel/canLoadMoreSaved``, ``LearnerModel/canLoadMoreTop``).
        case ready
        /// Nothing there: ``SpotifyMessage/noSavedTracks`` or ``SpotifyMessage/noTopTracks``.
        case empty(SpotifyMessage)
        /// Spotify refused or failed: what to tell the user (a missing scope among them).
        case failed(SpotifyMessage)
    }

    /// The connected account: name, picture and scopes; `nil` while disconnected.
    public var profile: SpotifyConnectionModel.Account? {
        if case .connected(let account) = connection.phase { return account }
        return nil
    }

    /// The "Account type" row of a profile (Free or Premium): ``SpotifyMessage/accountTypeNotAvailable``
    /// while connected, `nil` while disconnected. Since 2026 Spotify no longer sends `product` to
    /// Development Mode apps, and may still send it to some clients: the package never reads its
    /// presence or absence as either type, so the row says "Not available" rather than a blank or
    /// a guess.
    public var accountType: SpotifyMessage? {
        profile == nil ? nil : .accountTypeNotAvailable
    }

    /// The songs the user saved, newest first, pages appended in order.
    public private(set) var savedTracks: [SavedTrack] = []
    /// Where the saved songs are.
    public private(set) var savedPhase: ListPhase = .idle
    /// Whether Spotify has more saved songs.
    public var canLoadMoreSaved: Bool { savedNext != nil }

    /// The user's most played songs over ``topRange``.
    public private(set) var topTracks: [Track] = []
    /// Where the top songs are.
    public private(set) var topPhase: ListPhase = .idle
    /// Whether Spotify has more top songs.
    public var canLoadMoreTop: Bool { topNext != nil }
    /// The period the top songs cover; setting it reads them again.
    public private(set) var topRange: TopItemsRange

    private let connection: SpotifyConnectionModel
    private let client: SpotifyClient
    /// The app's Spotify, told of the first page of saved songs (its extensions may show them).
    private weak var spotify: SpotifyLink?
    private let pageSize: Int
    private var savedNext: Int?
    private var topNext: Int?

    /// The learner's lists through `spotify`'s client, while it is connected
    /// (``SpotifyLink/learner(topRange:)`` makes one).
    /// - Parameters:
    ///   - spotify: the app's Spotify.
    ///   - topRange: the period of the top songs.
    package convenience init(spotify: SpotifyLink, topRange: TopItemsRange = .shortTerm) {
        self.init(spotify: spotify, topRange: topRange, pageSize: 20)
    }

    /// ``init(spotify:topRange:)`` with the songs per request (1–50).
    package init(spotify: SpotifyLink, topRange: TopItemsRange, pageSize: Int) {
        self.connection = spotify.connection
        self.client = spotify.client
        self.spotify = spotify
        self.parentalGate = spotify.parentalGate
        self.topRange = topRange
        self.pageSize = min(max(pageSize, 1), 50)
    }

    /// Reads the first page of both lists (two requests), when connected.
    public func load() async {
        savedTracks = []
        topTracks = []
        savedNext = 0
        topNext = 0
        await connection.storedSignInKnown()
        async let saved: Void = loadMoreSaved()
        async let top: Void = loadMoreTop()
        _ = await (saved, top)
    }

    /// Reads the next page of saved songs.
    public func loadMoreSaved() async {
        guard connection.isConnected, let offset = savedNext, savedPhase != .loading else { return }
        savedPhase = .loading
        do {
            let page = try await client.savedTracks(limit: pageSize, offset: offset)
            savedTracks += page.items
            savedNext = page.next == nil ? nil : offset + page.elementCount
            if offset == 0 { spotify?.learnerSongsLoaded(page.items.map(\.track)) }
            savedPhase = savedTracks.isEmpty ? .empty(.noSavedTracks) : .ready
        } catch {
            savedPhase = SpotifyMessage(error, now: client.clock.now).map(ListPhase.failed) ?? .idle
        }
    }

    /// Reads the next page of top songs.
    public func loadMoreTop() async {
        guard connection.isConnected, let offset = topNext, topPhase != .loading else { return }
        topPhase = .loading
        do {
            let page = try await client.topTracks(range: topRange, limit: pageSize, offset: offset)
            topTracks += page.items
            topNext = page.next == nil ? nil : offset + page.elementCount
            topPhase = topTracks.isEmpty ? .empty(.noTopTracks) : .ready
        } catch {
            topPhase = SpotifyMessage(error, now: client.clock.now).map(ListPhase.failed) ?? .idle
        }
    }

    /// Shows the top songs of another period (one request).
    public func showTop(_ range: TopItemsRange) async {
        guard range != topRange else { return }
        topRange = range
        topTracks = []
        topNext = 0
        await loadMoreTop()
    }

    /// "Open in Spotify" for `track`: the Spotify app, else `fallback` (the web player, or
    /// Spotify's App Store page); `nil` for a track without an ID (a local file). With a parental
    /// gate, opening it asks an adult first.
    public func openInSpotify(_ track: Track, fallback: OpenInSpotify.Fallback = .webPlayer) -> OpenInSpotify? {
        track.reference.map { OpenInSpotify($0, fallback: fallback).gated(by: parentalGate) }
    }

    /// What "Open in Spotify" passes first (a children's app's parental gate).
    private let parentalGate: ParentalGateModel
}
