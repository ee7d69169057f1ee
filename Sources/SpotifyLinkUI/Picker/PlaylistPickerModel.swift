import Foundation
public import Observation
public import PlaylistLinks
import SpotifyWebAPI

/// The playlist picker sheet: the user's own playlists filtered at once as they type, Spotify's
/// search after a pause in typing, and a link when they choose one.
///
/// Answers arrive in any order; only the answer for the current text is shown (a slow answer for
/// "foc" never replaces the one for "focus"). Disconnected, it filters the saved playlists only.
///
/// Each result carries what the app can read of it (`LibraryPlaylist.access`, worded by
/// ``SpotifyMessage/playlistAccess(_:)``): in Development Mode Spotify shows an app the songs of the
/// user's own and collaborative playlists only, so a followed playlist's card has no length and no
/// time in songs, and Spotify's own playlists show nothing. ``onlyComplete`` lists the first kind
/// alone. The marks cost no request: Spotify's list of the user's playlists says who owns each.
@MainActor @Observable
public final class PlaylistPickerModel {
    /// What the list area shows besides the results.
    public enum Phase: Sendable, Equatable {
        /// Results are the local matches; a search may follow.
        case ready
        /// Spotify is being searched; local matches are already shown.
        case searching
        /// Nothing matches: ``SpotifyMessage/noSavedPlaylists`` or ``SpotifyMessage/noPlaylistsMatch(_:)``.
        case empty(SpotifyMessage)
        /// Spotify can't be reached: saved playlists only (``SpotifyMessage/offlineShowingSavedPlaylists``).
        case offline(SpotifyMessage)
        /// The saved playlists could not be read, or Spotify refused: what to tell the user.
        case failed(SpotifyMessage)
    }

    /// The search field. Setting it filters at once and schedules a search.
    public var query = "" {
        didSet { if query != oldValue { queryChanged() } }
    }

    /// The playlists to list: saved matches first, then Spotify's, each with its `LibraryPlaylist.access`.
    public private(set) var results: [LibraryPlaylist] = []
    /// Lists only playlists whose songs the app can read (the user's own and collaborative ones),
    /// for a feature that needs their length, as a routine's time in songs does.
    public var onlyComplete = false {
        didSet { if onlyComplete != oldValue { showLocal() } }
    }
    /// What the list shows under the results.
    public private(set) var phase: Phase = .ready
    /// Whether Spotify has more search results for this text.
    public private(set) var canLoadMore = false
    /// Playlists of the user's library that Spotify listed as unavailable (a `null` entry: deleted
    /// by their owner, say) when it was last read; skipped, not shown.
    public private(set) var unavailableCount = 0

    /// What to say under the list about playlists Spotify no longer serves, if any.
    public var unavailableNote: SpotifyMessage? { unavailableCount > 0 ? .unavailablePlaylists(unavailableCount) : nil }
    /// Searches sent and not yet answered, stale ones included.
    package var searchesInFlight: Int { search.inFlight }

    private let links: LinkedPlaylists
    /// The saved library, filtered in memory as the user types.
    private var library: [LibraryPlaylist] = []
    private let connection: SpotifyConnectionModel
    private let client: SpotifyClient
    private let clock: any SpotifyClock
    private let search: PagedSearch<SimplifiedPlaylist>
    /// What an adult passes before the account's playlists are listed (a children's app).
    private let parentalGate: ParentalGateModel
    /// Whether the gate was passed since the picker was made (from the start, without a gate):
    /// nothing is listed or searched before.
    private var gatePassed: Bool
    private var searchTask: Task<Void, Never>?
    /// Tells the root a link changed, so the extensions' snapshot follows.
    private let linksChanged: @MainActor () -> Void
    /// Spotify's results for the current text, as last shown.
    private var searchResults: [SimplifiedPlaylist] = []

    /// The picker over `spotify`'s links (the chosen link and the library copy are kept there);
    /// Spotify is searched only while it is connected (``SpotifyLink/picker()`` makes one).
    package convenience init(spotify: SpotifyLink) {
        self.init(spotify: spotify, debounce: .milliseconds(350))
    }

    /// ``init(spotify:)`` with the pause in typing before Spotify is searched, and the search results
    /// per request (Spotify allows at most 10).
    package init(spotify: SpotifyLink, debounce: Duration, pageSize: Int = 10) {
        let client = spotify.client
        self.links = spotify.links
        self.parentalGate = spotify.parentalGate
        self.gatePassed = !spotify.parentalGate.isEnabled
        self.connection = spotify.connection
        self.client = client
        self.clock = spotify.services.clock
        self.linksChanged = { [weak spotify] in spotify?.extensionsNeedUpdate() }
        self.search = PagedSearch(pageSize: pageSize, debounce: debounce, clock: clock) { text, limit, offset in
            try await client.searchPlaylists(text, limit: limit, offset: offset)
        }
    }

    /// Shows the saved playlists, and when connected refreshes them from Spotify. With a parental
    /// gate, an adult passes it first; refused, nothing is listed and the phase says why
    /// (``SpotifyMessage/parentalGateReason(_:)``), and the next `appear()` asks again.
    public func appear() async {
        if !gatePassed { gatePassed = await parentalGate.pass(.choosePlaylist) }
        guard gatePassed else {
            library = []
            results = []
            phase = .failed(.parentalGateReason(.choosePlaylist))
            return
        }
        do {
            library = try await links.library()
        } catch is CancellationError {
            return  // the view went away: nothing failed
        } catch {
            phase = .failed(.savedPlaylistUnreadable)
            return
        }
        showLocal()
        await connection.storedSignInKnown()
        guard connection.isConnected else { return }
        do {
            // Read before the listing: a disconnect while Spotify answers forgets it, and wins.
            let epoch = try await links.forgetEpoch()
            let mine = try await client.allMyPlaylists()
            if let saved = try await links.replaceLibrary(mine.items, userID: userID, ifEpoch: epoch) {
                library = saved
                unavailableCount = mine.nullCount + mine.undecodableCount
            } else {
                library = try await links.library()
            }
            showLocal()
        } catch {
            show(error)
        }
    }

    /// Fetches the next page of Spotify's results for the current text.
    public func loadMore() async {
        guard connection.isConnected, gatePassed else { return }
        show(await search.loadMore { phase = .searching })
    }

    /// What VoiceOver reads for a row of ``results``: its name, owner, count and what the app can
    /// read of it ("Deep Work, by Mira, 50 tracks, Songs and length").
    public func accessibilityLabel(for playlist: LibraryPlaylist) -> SpotifyMessage {
        .playlistRowSpoken(
            name: playlist.name, owner: playlist.ownerName, tracks: playlist.trackCount, access: playlist.access)
    }

    /// Links `playlist` to `record` (replacing any earlier link) and returns its card.
    @discardableResult
    public func select(_ playlist: LibraryPlaylist, for record: RecordID) async throws -> PlaylistCard? {
        if let found = searchResults.first(where: { $0.id == playlist.id }) {
            try await links.link(record, to: found, access: playlist.access)
        } else {
            // From the saved library: what the picker knew makes the card whole at once, offline too.
            try await links.link(record, to: playlist)
        }
        linksChanged()
        return try await links.card(for: record)
    }

    private func queryChanged() {
        searchTask?.cancel()
        search.reset()
        searchResults = []
        canLoadMore = false
        guard gatePassed else { return }
        showLocal()
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard connection.isConnected, !text.isEmpty else { return }
        searchTask = Task { show(await search.search(text) { phase = .searching }) }
    }

    /// Waits for the search the last change of text started (tests).
    package func waitForSearch() async {
        await searchTask?.value
    }

    /// Shows what a search or page came to; `nil` (the text changed) changes nothing.
    private func show(_ outcome: PagedSearch<SimplifiedPlaylist>.Outcome?) {
        switch outcome {
        case nil: return
        case .answered:
            searchResults = search.items
            canLoadMore = search.canLoadMore
            showLocal()
        case .failed(let error): show(error)
        }
    }

    private func showLocal() {
        let local = LibraryPlaylist.filter(library, matching: query)
        results = LibraryPlaylist.merge(local: local, search: searchResults, userID: userID)
        if onlyComplete { results.removeAll { $0.access != .complete } }
        phase = results.isEmpty ? .empty(query.isEmpty ? .noSavedPlaylists : .noPlaylistsMatch(query)) : .ready
    }

    /// The connected user's Spotify ID, which says which playlists are their own.
    private var userID: String? {
        if case .connected(let account) = connection.phase { return account.userID }
        return nil
    }

    private func show(_ error: any Error) {
        guard let message = SpotifyMessage(error, now: clock.now) else {
            showLocal()  // cancelled (the view went away): what was shown stays, not a spinner
            return
        }
        phase = message == .offline ? .offline(.offlineShowingSavedPlaylists) : .failed(message)
    }
}
