import Foundation
public import Observation
public import SpotifyWebAPI

/// The learning app's song search: results after a pause in typing, more on demand, and "Open in
/// Spotify" for the chosen track (there are no 30-second previews for apps created after November
/// 2024, so the app opens the track in Spotify instead).
///
/// Any language works, Japanese included: Spotify matches loosely. Only the answer for the current
/// text is shown. Until the user connects nothing is sent.
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

    /// The tracks found for the current text, pages appended in order.
    public private(set) var results: [Track] = []
    /// What the list shows under the results.
    public private(set) var phase: Phase = .ready
    /// Whether Spotify has more results for this text.
    public private(set) var canLoadMore = false

    private let connection: SpotifyConnectionModel
    private let clock: any SpotifyClock
    private let search: PagedSearch<Track>
    private var searchTask: Task<Void, Never>?

    /// The song search through `spotify`'s client, while it is connected
    /// (``SpotifyLink/songSearch()`` makes one).
    package convenience init(spotify: SpotifyLink) {
        self.init(spotify: spotify, debounce: .milliseconds(350))
    }

    /// ``init(spotify:)`` with the pause in typing before Spotify is searched.
    package init(spotify: SpotifyLink, debounce: Duration) {
        let client = spotify.client
        self.connection = spotify.connection
        self.clock = spotify.services.clock
        self.search = PagedSearch(pageSize: 10, debounce: debounce, clock: clock) { text, limit, offset in
            try await client.searchTracks(text, limit: limit, offset: offset)
        }
    }

    /// Fetches the next page for the current text.
    public func loadMore() async {
        show(await search.loadMore { phase = .searching })
    }

    /// "Open in Spotify" for `track`: the Spotify app, else `fallback` (the web player, or
    /// Spotify's App Store page); `nil` for a track without an ID (a local file).
    public func openInSpotify(_ track: Track, fallback: OpenInSpotify.Fallback = .webPlayer) -> OpenInSpotify? {
        track.reference.map { OpenInSpotify($0, fallback: fallback) }
    }

    private func queryChanged() {
        searchTask?.cancel()
        search.reset()
        results = []
        canLoadMore = false
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            phase = .ready
            return
        }
        guard connection.isConnected || !connection.isStoredSignInKnown else {
            phase = .empty(.connectToSearch)
            return
        }
        searchTask = Task {
            // Just launched: whether the user connected before is known once the sign-in is read.
            await connection.storedSignInKnown()
            guard connection.isConnected else {
                phase = .empty(.connectToSearch)
                return
            }
            show(await search.search(text) { phase = .searching })
        }
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
            results = search.items
            canLoadMore = search.canLoadMore
            let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
            phase = results.isEmpty ? .empty(.noSongsMatch(text)) : .ready
        case .failed(let error):
            guard let message = SpotifyMessage(error, now: clock.now) else {
                // Cancelled (the list's view went away): what was shown stays, not a spinner.
                let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
                phase = results.isEmpty && !text.isEmpty ? .empty(.noSongsMatch(text)) : .ready
                return
            }
            phase = .failed(message)
        }
    }
}
