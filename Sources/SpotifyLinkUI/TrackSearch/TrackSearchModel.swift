import Foundation
public import Observation
import SpotifyAuth
import SpotifyLinkServices
public import SpotifyWebAPI

/// The learning app's song search: results after a pause in typing, more on demand, and "Open in
/// Spotify" for the chosen track (there are no 30-second previews for apps created after November
/// 2024, so the app opens the track in Spotify instead).
///
/// Any language works, Japanese included: Spotify matches loosely. Only the answer for the current
/// text is shown. Until the user connects nothing is sent, unless the app has a search service for
/// signed-out search (`SpotifyServices.Configuration.signedOutSearch`): then it searches through
/// that, and through the user's sign-in once connected, with no change to the screen's code. A
/// device the service does not accept (no App Attest) is asked to connect, as without one.
///
/// ```swift
/// struct SongSearchView: View {
///     @State var search: TrackSearchModel          // spotify.songSearch()
///     @Environment(\.openURL) private var openURL
///     var body: some View {
///         List(search.results, id: \.uri) { track in
///             Button("\(track.name) · \(track.artistLine)") {
///                 if let link = search.openInSpotify(track) { Task { await link.open(with: openURL) } }
///             }
///         }
///         .searchable(text: $search.query)
///     }
/// }
/// ```
@MainActor @Observable
public final class TrackSearchModel {
    /// What the list shows besides the results.
    public enum Phase: Sendable, Equatable {
        /// Waiting for text, or showing results.
        case ready
        /// Spotify is being asked; results so far stay shown.
        case searching
        /// Nothing found (``SpotifyMessage/noSongsMatch(_:)``), or not connected
        /// (``SpotifyMessage/connectToSearch``).
        case empty(SpotifyMessage)
        /// Spotify refused or failed: what to tell the user (an ended sign-in also shows on the
        /// settings screen, through the session's status).
        case failed(SpotifyMessage)
    }

    /// The search field; setting it schedules a search after the pause.
    public var query = "" {
        didSet { if query != oldValue { queryChanged() } }
    }

    /// The tracks found for the current text, pages appended in order (without the explicit ones
    /// while ``hidesExplicit`` is on).
    public private(set) var results: [Track] = []
    /// Hides the songs Spotify marks explicit (`Track.explicit`), for a children's app: a toggle
    /// worded ``SpotifyMessage/noExplicitSongsFilter``, or always on. The mark comes with each
    /// result, so turning it on or off sends nothing; ``hiddenExplicitCount`` says how many it hides.
    public var hidesExplicit = false {
        didSet { if hidesExplicit != oldValue, !search.items.isEmpty { showResults() } }
    }
    /// How many results of the pages read ``hidesExplicit`` hides.
    public private(set) var hiddenExplicitCount = 0
    /// What the list shows under the results.
    public private(set) var phase: Phase = .ready
    /// Whether Spotify has more results for this text.
    public private(set) var canLoadMore = false

    private let connection: SpotifyConnectionModel
    /// The search service's way, before the user connects; `nil` when the app has none or this
    /// device cannot prove itself to it.
    private let signedOut: SignedOutSearch?
    private let clock: any SpotifyClock
    private let search: PagedSearch<Track>
    /// What "Open in Spotify" passes first (a children's app's parental gate).
    private let parentalGate: ParentalGateModel
    private var searchTask: Task<Void, Never>?

    /// The song search through `spotify`'s client, while it is connected
    /// (``SpotifyLink/songSearch()`` makes one).
    package convenience init(spotify: SpotifyLink) {
        self.init(spotify: spotify, debounce: .milliseconds(350))
    }

    /// ``init(spotify:)`` with the pause in typing before Spotify is searched.
    package init(spotify: SpotifyLink, debounce: Duration) {
        let client = spotify.client
        let connection = spotify.connection
        let signedOut = spotify.services.configuration.signedOutSearch.flatMap { $0.isAvailable ? $0 : nil }
        self.connection = connection
        self.signedOut = signedOut
        self.clock = spotify.services.clock
        self.parentalGate = spotify.parentalGate
        self.search = PagedSearch(pageSize: 10, debounce: debounce, clock: clock) { text, limit, offset in
            if !connection.isConnected, let signedOut {
                return try await signedOut.searchTracks(text, limit: limit, offset: offset)
            }
            return try await client.searchTracks(text, limit: limit, offset: offset)
        }
    }

    /// Fetches the next page for the current text.
    public func loadMore() async {
        show(await search.loadMore { phase = .searching })
    }

    /// "Open in Spotify" for `track`: the Spotify app, else `fallback` (the web player, or
    /// Spotify's App Store page); `nil` for a track without an ID (a local file). With a parental
    /// gate, opening it asks an adult first.
    public func openInSpotify(_ track: Track, fallback: OpenInSpotify.Fallback = .webPlayer) -> OpenInSpotify? {
        track.reference.map { OpenInSpotify($0, fallback: fallback).gated(by: parentalGate) }
    }

    private func queryChanged() {
        searchTask?.cancel()
        search.reset()
        results = []
        hiddenExplicitCount = 0
        canLoadMore = false
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            phase = .ready
            return
        }
        guard connection.isConnected || !connection.isStoredSignInKnown || signedOut != nil else {
            phase = .empty(.connectToSearch)
            return
        }
        searchTask = Task {
            // Just launched: whether the user connected before is known once the sign-in is read.
            await connection.storedSignInKnown()
            guard connection.isConnected || signedOut != nil else {
                phase = .empty(.connectToSearch)
                return
            }
            show(await search.search(text) { phase = .searching })
        }
    }

    /// Shows the pages read, filtered as ``hidesExplicit`` says. A page whose every song is hidden
    /// leaves the list ready for more while Spotify has more.
    private func showResults() {
        let all = search.items
        results = hidesExplicit ? all.filter { $0.explicit != true } : all
        hiddenExplicitCount = all.count - results.count
        canLoadMore = search.canLoadMore
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        phase = results.isEmpty && !canLoadMore ? .empty(.noSongsMatch(text)) : .ready
    }

    /// Waits for the search the last change of text started (tests).
    package func waitForSearch() async {
        await searchTask?.value
    }

    /// Shows what a search or page came to; `nil` (the text changed) changes nothing.
    private func show(_ outcome: PagedSearch<Track>.Outcome?) {
        switch outcome {
        case nil: return
        case .answered:
            showResults()
        case .failed(let error):
            guard let message = SpotifyMessage(error, now: clock.now) else {
                // Cancelled (the list's view went away): what was shown stays, not a spinner.
                let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
                phase = results.isEmpty && !text.isEmpty ? .empty(.noSongsMatch(text)) : .ready
                return
            }
            // The search service did not accept this device: connecting is the way to search.
            if !connection.isConnected, signedOut != nil, let refusal = error as? SpotifyAPIError,
                refusal.code == .forbidden
            {
                phase = .empty(.connectToSearch)
                return
            }
            phase = .failed(message)
        }
    }
}
