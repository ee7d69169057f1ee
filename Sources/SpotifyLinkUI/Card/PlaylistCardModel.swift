import Foundation
public import Observation
public import PlaylistLinks
import SpotifyLinkSupport
public import SpotifyWebAPI

/// The playlist card in a record's detail screen: the saved card at once (cover, name, track
/// count, duration), then, when the saved details are older than the retention policy's
/// `refreshAfter` (a day), a refresh from Spotify in the background, and "Open in Spotify".
///
/// Opening a card twenty times a day costs no request when its details are fresh: a Development
/// Mode app shares about a thousand requests a day among all its users.
///
/// The link is never dropped: a deleted or inaccessible playlist keeps its card with a note
/// (``note``), and a failed refresh leaves the card as it was. The details saved from Spotify are
/// temporary, as Spotify's terms ask (`RetentionPolicy`): a cover not shown for 30 days and
/// details not refreshed for 90 days go when the card is read, offline too, and the card says so.
@MainActor @Observable
public final class PlaylistCardModel {
    /// The host app's record whose playlist the card shows.
    public let record: RecordID
    /// The saved card; `nil` when nothing is linked to the record.
    public private(set) var card: PlaylistCard?
    /// Whether a refresh from Spotify is under way.
    public private(set) var isRefreshing = false
    /// A line under the card: deleted, inaccessible, not fetched yet, couldn't refresh, or why.
    /// A card with no saved detail says "connect Spotify to see it again" once the stored sign-in
    /// is known to be gone (after a disconnect forgot its details), and "details will appear"
    /// while a connection may still fetch them.
    public var note: SpotifyMessage? {
        guard readNote == .playlistDetailsPending, connection.isStoredSignInKnown, !connection.isConnected else {
            return readNote
        }
        return .playlistDetailsNeedConnection
    }
    /// The note as the card was read or refreshed, before the connection is taken into account.
    private var readNote: SpotifyMessage?

    private let links: LinkedPlaylists
    private let connection: SpotifyConnectionModel
    private let client: SpotifyClient
    private let clock: any SpotifyClock
    private let coverTransport: any Transport
    /// Screenshot mode (`SpotifyServices.Configuration.screenshotMode`): covers shown as grey
    /// placeholders of their size.
    private let screenshotMode: Bool
    /// What "Open in Spotify" passes first (a children's app's parental gate).
    private let parentalGate: ParentalGateModel
    private var refreshTask: Task<Void, Never>?
    /// Tells the root the card's details changed, so the extensions' snapshot follows.
    private let detailsChanged: @MainActor () -> Void
    /// How long saved details stay, and how old they may be before ``load()`` refreshes them;
    /// ``refresh()`` always asks.
    package let retention: RetentionPolicy

    /// The card of `record`'s playlist, read from `spotify`'s links and refreshed through its client
    /// while it is connected, keeping details as its configuration's `retention` says
    /// (``SpotifyLink/card(for:)`` makes one).
    package convenience init(record: RecordID, spotify: SpotifyLink) {
        self.init(record: record, spotify: spotify, retention: spotify.services.configuration.retention)
    }

    /// ``init(record:spotify:)`` with another retention policy (tests).
    package init(record: RecordID, spotify: SpotifyLink, retention: RetentionPolicy) {
        self.record = record
        self.links = spotify.links
        self.connection = spotify.connection
        self.client = spotify.client
        self.clock = spotify.services.clock
        self.coverTransport = spotify.services.configuration.transport
        self.screenshotMode = spotify.services.configuration.screenshotMode
        self.parentalGate = spotify.parentalGate
        self.retention = retention
        self.detailsChanged = { [weak spotify] in spotify?.extensionsNeedUpdate() }
    }

    /// The card's facts, "12 tracks · 48 min" once worded; `nil` while neither is known.
    public var summary: SpotifyMessage? {
        guard let metadata = card?.metadata, metadata.trackCount != nil || metadata.totalDuration != nil else {
            return nil
        }
        return .playlistSummary(tracks: metadata.trackCount, duration: metadata.totalDuration)
    }

    /// What VoiceOver reads for the cover: "Cover of the playlist Deep Work"; `nil` before the
    /// card is read. Give it to the image's `accessibilityLabel`.
    public var coverLabel: SpotifyMessage? {
        card.map { .coverDescription(playlist: $0.metadata.name) }
    }

    /// What VoiceOver reads for ``summary``, in words: "50 tracks, 3 hours 20 minutes"; `nil` while
    /// neither is known.
    public var summaryLabel: SpotifyMessage? {
        guard case .playlistSummary(let tracks, let duration)? = summary else { return nil }
        return .playlistSummarySpoken(tracks: tracks, duration: duration)
    }

    /// "3 explicit songs": the songs Spotify marks explicit in the card's playlist, counted from the
    /// songs read for its length (no request of its own); `nil` when there are none or they are not
    /// known (a playlist the user only follows, or not read yet).
    public var explicitSongs: SpotifyMessage? {
        guard let count = card?.metadata.explicitCount, count > 0 else { return nil }
        return .explicitSongs(count)
    }

    /// `target` in songs of the card's playlist ("20 min ≈ 5.5 songs"), or why it cannot be counted:
    /// a playlist the user only follows, or one of Spotify's own, has no songs an app can read, and
    /// the message says so rather than guessing. `nil` before the card is read.
    public func songTime(_ target: Duration) -> SpotifyMessage? {
        guard let metadata = card?.metadata else { return nil }
        switch SongTime.reckon(target, in: metadata) {
        case .songs(let songs): return .songs(songs)
        case .cannotCount(let reason): return .songTimeUnknown(reason)
        }
    }

    /// "Open in Spotify" for the card's playlist: the Spotify app, else `fallback` (the web player,
    /// or with `.appStore` Spotify's App Store page and no web player). `nil` before the card is
    /// read. With a parental gate, opening it asks an adult first.
    public func openInSpotify(fallback: OpenInSpotify.Fallback = .webPlayer) -> OpenInSpotify? {
        card.map { OpenInSpotify($0.metadata.reference, fallback: fallback).gated(by: parentalGate) }
    }

    /// Shows the saved card (dropping what is past the retention policy's limits), then refreshes
    /// it in the background when connected and its details are missing or older than the
    /// policy's `refreshAfter`.
    public func load() async {
        await readCard()
        await connection.storedSignInKnown()
        guard let metadata = card?.metadata else { return }
        let age = metadata.fetchedAt.map { clock.now.timeIntervalSince($0) }
        if age.map({ $0 >= retention.refreshAfter.seconds }) ?? true { startRefresh(.backgroundWork) }
    }

    /// Refreshes from Spotify when connected (pull to refresh: a person asked) and returns when it
    /// is done; a refresh already running is joined, not repeated.
    public func refresh() async {
        startRefresh(.person)
        await refreshTask?.value
    }

    private func startRefresh(_ origin: RequestOrigin) {
        guard connection.isConnected, refreshTask == nil, let id = card?.metadata.id else { return }
        isRefreshing = true
        let refresher = MetadataRefresher(
            links: links, client: client, transport: coverTransport, origin: origin)
        refreshTask = Task {
            defer {
                isRefreshing = false
                refreshTask = nil
            }
            do {
                let outcome = try await refresher.refresh(playlist: id)
                await readCard()
                detailsChanged()
                // The card says what it shows (saved details); the outcome's error is there for an app
                // that words the reason itself. What the playlist is (deleted, followed only) says more
                // than a failed refresh, and stays.
                if case .failed = outcome, readNote == nil { readNote = .couldNotRefresh }
            } catch {
                await readCard()
                // An ended sign-in shows on the settings screen through the session's status.
                readNote = readNote ?? SpotifyMessage(error, now: clock.now)
            }
        }
    }

    /// Waits for a refresh in flight (for tests and pull-to-refresh).
    package func waitForRefresh() async {
        await refreshTask?.value
    }

    private func readCard() async {
        do {
            card = try await links.card(for: record, retention: retention, at: clock.now)
            if screenshotMode, let cover = card?.cover { card?.cover = PNG.placeholder(like: cover) }
            // No "connect Spotify" prompt here: users who never connected see the saved link only.
            readNote = card.flatMap { card in
                card.metadata.droppedAt != nil ? .playlistDetailsExpired : SpotifyMessage(card.metadata.availability)
            }
        } catch is CancellationError {
            // The view went away while the card was read: what it showed stays, and is no failure.
        } catch let error as PlaylistLinksError where error.code == .database {
            readNote = .storageUnavailable
        } catch {
            readNote = .savedPlaylistUnreadable
        }
    }
}
