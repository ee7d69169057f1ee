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
///     @State var search: TrackSearchModel          // TrackSearchModel(connection: connection)
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
    private let client: SpotifyClient
    private let clock: any SpotifyClock
    private let debounce: Duration
    private var generation = 0
    private var searchTask: Task<Void, Never>?
    private var nextOffset: Int?
    private static let pageSize = 10

    /// The song search through `spotify`'s client, while it is connected
    /// (``SpotifyLink/songSearch()`` makes one).
    public convenience init(spotify: SpotifyLink) {
        self.init(spotify: spotify, debounce: .milliseconds(350))
    }

    /// ``init(spotify:)`` with the pause in typing before Spotify is searched.
    package init(spotify: SpotifyLink, debounce: Duration) {
        self.connection = spotify.connection
        self.client = spotify.client
        self.clock = spotify.services.clock
        self.debounce = debounce
    }

    /// Fetches the next page for the current text.
    public func loadMore() async {
        guard let offset = nextOffset else { return }
        await search(query.trimmingCharacters(in: .whitespacesAndNewlines), offset: offset, generation: generation)
    }

    /// "Open in Spotify" for `track`: the Spotify app, else `fallback` (the web player, or
    /// Spotify's App Store page); `nil` for a track without an ID (a local file).
    public func openInSpotify(_ track: Track, fallback: OpenInSpotify.Fallback = .webPlayer) -> OpenInSpotify? {
        track.reference.map { OpenInSpotify($0, fallback: fallback) }
    }

    private func queryChanged() {
        generation += 1
        searchTask?.cancel()
        results = []
        nextOffset = nil
        canLoadMore = false
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            phase = .ready
            return
        }
        guard connection.isConnected else {
            phase = .empty(.connectToSearch)
            return
        }
        let current = generation
        searchTask = Task {
            do { try await clock.sleep(for: debounce) } catch { return }
            guard current == generation else { return }
            await search(text, offset: 0, generation: current)
        }
    }

    private func search(_ text: String, offset: Int, generation current: Int) async {
        phase = .searching
        do {
            let page = try await client.searchTracks(text, limit: Self.pageSize, offset: offset)
            guard current == generation else { return }
            results += page.items
            nextOffset = page.next == nil || offset + Self.pageSize > 1000 ? nil : offset + Self.pageSize
            canLoadMore = nextOffset != nil
            phase = results.isEmpty ? .empty(.noSongsMatch(text)) : .ready
        } catch {
            guard current == generation, let message = SpotifyMessage(error, now: clock.now) else { return }
            phase = .failed(message)
        }
    }
}
