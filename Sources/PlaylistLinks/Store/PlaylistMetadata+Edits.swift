public import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI

/// The rules of what is saved of a playlist, each a pure edit of its ``PlaylistMetadata``: what a
/// link keeps, what Spotify's answer changes, what a forget and the retention policy clear, how a
/// save is stamped. Every store applies these and no rule of its own: a store reads a row, hands it
/// to an edit, and writes what comes back (`PlaylistLinkStore`), so a rule exists once, here, and a
/// new card field is a property, a line here, and a column per store.
extension PlaylistMetadata {
    // MARK: Linking

    /// What a link to `playlist`, found by a search or read from Spotify, saves over `cached`: the
    /// name, description, owner, cover URL and count Spotify listed; `access`, when known, is what
    /// the app can read of it.
    package static func linking(
        _ playlist: SimplifiedPlaylist, access: PlaylistAccess?, over cached: PlaylistMetadata?
    ) -> PlaylistMetadata {
        var metadata = cached ?? PlaylistMetadata(id: playlist.id)
        metadata.update(from: playlist)
        if let access { metadata.availability = access.availability }
        metadata.trackCount = playlist.itemCount ?? metadata.trackCount
        metadata.savedAt = nil  // fresh from Spotify: stamped as it is saved
        return metadata
    }

    /// What a link to `playlist`, picked from the saved library, saves over `cached`: what the
    /// library knew (name, owner, count, cover URL, snapshot), and what was saved before where the
    /// library says nothing. A snapshot other than the saved one drops the saved duration: the
    /// next refresh reads that version's songs.
    package static func linking(_ playlist: LibraryPlaylist, over cached: PlaylistMetadata?) -> PlaylistMetadata {
        var metadata = cached ?? PlaylistMetadata(id: playlist.id)
        metadata.name = playlist.name
        metadata.ownerName = playlist.ownerName ?? metadata.ownerName
        metadata.trackCount = playlist.trackCount ?? metadata.trackCount
        metadata.coverURL = playlist.coverURL ?? metadata.coverURL
        if metadata.snapshotID != playlist.snapshotID {
            metadata.totalDuration = nil
            metadata.unavailableCount = nil
            metadata.explicitCount = nil
            metadata.fetchedAt = nil
        }
        metadata.snapshotID = playlist.snapshotID ?? metadata.snapshotID
        // Just listed, so served: what the listing said the app can read, else served as before.
        if let access = playlist.access {
            metadata.availability = access.availability
        } else if metadata.availability == .unknown {
            metadata.availability = .available
        }
        metadata.savedAt = nil  // fresh from Spotify's listing: stamped as it is saved
        return metadata
    }

    /// What a link to playlist `id`, known by its ID alone (a pasted link), saves: what was saved
    /// of it stays; a playlist never saved starts empty.
    package static func linking(_ id: SpotifyID, over cached: PlaylistMetadata?) -> PlaylistMetadata {
        cached ?? PlaylistMetadata(id: id)
    }

    // MARK: Spotify's answers

    /// What Spotify's answer for a playlist, read at `now`, makes of the saved details: the
    /// listing's name, owner and cover, availability, and the songs' count and duration as
    /// `answer` read them. Applied to what is saved when the answer arrives, not to what was
    /// saved when it was asked for: a link saved meanwhile keeps what the answer does not say.
    package func refreshed(with answer: PlaylistAnswer, at now: Date) -> PlaylistMetadata {
        var metadata = self
        metadata.update(from: answer.playlist)
        metadata.availability = .available
        metadata.fetchedAt = now
        metadata.savedAt = now
        switch answer.entries {
        case .unchanged:
            break
        case .read(let count, let unavailable, let explicit, let duration):
            metadata.trackCount = answer.itemCount ?? count
            metadata.unavailableCount = unavailable
            metadata.explicitCount = explicit
            metadata.totalDuration = duration.clamped(to: .longestTotal)
            metadata.snapshotID = answer.playlist.snapshotID
        case .notServed:
            // Since 2026 Spotify sends no entries for playlists the user neither owns nor
            // collaborates on: the count is whatever Spotify says, the duration stays unknown.
            metadata.availability = .detailsOnly
            metadata.trackCount = answer.itemCount ?? metadata.trackCount
            metadata.totalDuration = nil
            metadata.unavailableCount = nil
            metadata.explicitCount = nil
            metadata.snapshotID = answer.playlist.snapshotID
        }
        return metadata
    }

    /// What the user's library listing, at `now`, says of a playlist whose snapshot is the saved
    /// one: its name, owner and cover; its count, duration and songs stay as saved (a playlist the
    /// user only follows takes the listing's count, the only one there is).
    package func listedUnchanged(_ playlist: SimplifiedPlaylist, at now: Date) -> PlaylistMetadata {
        var metadata = self
        metadata.update(from: playlist)
        if metadata.availability == .detailsOnly {
            metadata.trackCount = playlist.itemCount ?? metadata.trackCount
        } else {
            metadata.availability = .available
        }
        metadata.fetchedAt = now
        metadata.savedAt = now
        return metadata
    }

    /// What Spotify's refusal to serve the playlist, at `now`, makes of the saved details: they
    /// stay, marked `availability` (`.notFound`, `.forbidden` or `.spotifyOwned`). One of Spotify's
    /// own playlists counts as asked, so a stale refresh does not ask again every day.
    package func gone(_ availability: PlaylistAvailability, at now: Date) -> PlaylistMetadata {
        var metadata = self
        metadata.availability = availability
        if availability == .spotifyOwned { metadata.fetchedAt = now }
        return metadata
    }

    // MARK: Forgetting and retention

    /// What is left of playlist `id` once the details from Spotify are forgotten (a disconnect):
    /// its ID alone, so its links still open it in Spotify. It depends on the ID alone, so a
    /// store may write it to many rows in one statement.
    @_spi(Storage) public static func forgotten(_ id: SpotifyID) -> PlaylistMetadata {
        PlaylistMetadata(id: id)
    }

    /// What is left of playlist `id` once its details are dropped for their age at `now`
    /// (``RetentionPolicy``): its ID, and when they were dropped, so a card says so. It depends on
    /// the ID and `now` alone, so a store may write it to many rows in one statement.
    @_spi(Storage) public static func expired(_ id: SpotifyID, at now: Date) -> PlaylistMetadata {
        var metadata = PlaylistMetadata(id: id)
        metadata.droppedAt = now
        return metadata
    }

    /// What `rule` saves of any playlist, for a store that writes it to many rows in one statement
    /// (every column but the ID): the rule must depend on the ID alone, which this checks.
    @_spi(Storage) public static func template(of rule: (SpotifyID) -> PlaylistMetadata) -> PlaylistMetadata {
        let first = rule(SpotifyID(unchecked: "0000000000000000000000"))
        var second = rule(SpotifyID(unchecked: "1111111111111111111111"))
        second.id = first.id
        precondition(first == second, "a rule written to many rows at once depends on more than the playlist's ID")
        return first
    }

    /// The cover a card of this playlist shows, of the saved `bytes`: none while no detail is
    /// saved (a playlist linked by its ID alone, forgotten or dropped for its age), so a cover is
    /// shown, and counted as shown for ``RetentionPolicy/coverUnusedFor``, only beside its details.
    /// Every store builds its cards with this rule; the model-based property test holds them to it.
    @_spi(Storage) public func shownCover(_ bytes: Data?) -> Data? {
        hasDetails ? bytes : nil
    }

    /// When these details were taken from Spotify, by which ``RetentionPolicy`` ages them:
    /// ``savedAt``, else ``fetchedAt``; `nil` when they never were. A store's query for the details
    /// past a limit states the same (`COALESCE(saved_at, fetched_at) < limit`), and the
    /// conformance checks hold it to this.
    @_spi(Storage) public var detailsSavedAt: Date? { savedAt ?? fetchedAt }

    /// Whether these details are past the limit: taken from Spotify before `limit`.
    @_spi(Storage) public func isSaved(before limit: Date) -> Bool {
        detailsSavedAt.map { $0 < limit } ?? false
    }
}

/// What Spotify said of a playlist in one read, as ``PlaylistMetadata/refreshed(with:at:)`` takes
/// it: the playlist as listed, its count, and what was learned of its songs.
package struct PlaylistAnswer: Sendable {
    /// What was learned of the playlist's songs.
    package enum Entries: Sendable {
        /// Not read: the snapshot is the saved one, so the saved count and duration hold.
        case unchanged
        /// Read: the entries counted (items and entries Spotify sent as `null`), those whose item
        /// is no longer available, those marked explicit, and the sum of the others' durations.
        case read(count: Int, unavailable: Int, explicit: Int, duration: Duration)
        /// Spotify sends no entries to this app (a playlist the user only follows).
        case notServed
    }

    /// The playlist as Spotify listed it (name, owner, images, snapshot).
    package var playlist: SimplifiedPlaylist
    /// The number of entries Spotify says it has, when it says.
    package var itemCount: Int?
    /// What was learned of its songs.
    package var entries: Entries

    package init(playlist: SimplifiedPlaylist, itemCount: Int?, entries: Entries) {
        self.playlist = playlist
        self.itemCount = itemCount
        self.entries = entries
    }
}

/// A store's forget epoch: a number each forget of the details from Spotify increases, in the same
/// transaction as the forget. An edit that carries what was read before it (a refresh's answer,
/// a listing of the library) names the epoch it read first, and a store writes it only while that
/// is still the epoch: a disconnect that forgets while Spotify is answering is never undone by the
/// answer, in this process or another one on the same store (an app and its widget).
@_spi(Storage)
public struct ForgetEpoch: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number of forgets the store has seen (per user, in a store of many users).
    public var value: Int64

    /// The epoch `value`.
    public init(_ value: Int64) { self.value = value }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }

    /// The number.
    public var description: String { "\(value)" }
}

/// Which covers a store drops to keep within its budget: the rule every store applies.
@_spi(Storage)
public enum CoverBudget {
    /// The covers to delete so that `covers` (each with its size in bytes, the longest unshown
    /// first) fit in `limit` bytes, never `keeping` (the one just saved).
    public static func evictions(
        _ covers: [(id: SpotifyID, size: Int)], limit: Int, keeping: SpotifyID
    ) -> [SpotifyID] {
        var total = covers.reduce(0) { $0 + $1.size }
        var evicted: [SpotifyID] = []
        for cover in covers where total > limit && cover.id != keeping {
            evicted.append(cover.id)
            total -= cover.size
        }
        return evicted
    }
}
