public import Foundation
public import SpotifyWebAPI

/// The storage contract behind ``LinkedPlaylists``: the primitives a store implements, for the
/// stores of this package and a backend an app or server brings. Apps never call it: they link,
/// unlink, show and back up through ``LinkedPlaylists``, which owns the merge rules and makes
/// each of its operations one transaction of these.
///
/// `SQLitePlaylistLinkStore` (`SpotifyLinkSQLite`) keeps one SQLite file on the device;
/// `PostgresPlaylistLinkStore` (`SpotifyLinkPostgres`) keeps many users in one database. Another
/// database goes behind this protocol: the requirements are `async`, take and return only the
/// value types of this module, and name the few operations that must be atomic. Import it with
/// `@_spi(Storage) import PlaylistLinks`; the conformance suite of this package's tests is the
/// specification.
///
/// A conforming type:
/// - keeps at most one link per ``RecordID``; saving a link for a record replaces its old one;
/// - keeps a playlist's metadata while any link, or the library cache, names it, and keeps it when
///   the last link goes (the picker and other records may show it again);
/// - stamps ``PlaylistMetadata/savedAt`` with its clock when metadata with details is saved
///   without one, and clears ``PlaylistMetadata/droppedAt`` then;
/// - throws ``PlaylistLinksError`` (code `.database` when the storage fails), never loses saved
///   data on a failed write, and holds no token or other secret.
@_spi(Storage)
public protocol PlaylistLinkStore: Sendable {
    /// Links `record` to the playlist `metadata` describes, replacing the record's previous link and
    /// stamping it with the store's clock, and saves the metadata in the same transaction:
    /// replacing what is cached when `replacingMetadata`, otherwise only when nothing is cached
    /// for that playlist yet. ``LinkedPlaylists/link(_:to:)-(_,SpotifyID)`` calls it.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidArgument` for a record without a
    ///   namespace or an ID: every store refuses it (the conformance suite checks).
    func saveLink(_ record: RecordID, to metadata: PlaylistMetadata, replacingMetadata: Bool) async throws

    /// Links `record` to the playlist `id`, replacing the record's previous link and stamping it
    /// with the store's clock, and saves what `merge` makes of the playlist's cached metadata
    /// (`nil` when none is cached), all in one transaction: a metadata save by another writer (a
    /// refresh, a widget's process) lands wholly before the read or wholly after the write, never
    /// between them. ``LinkedPlaylists/link(_:to:)-(_,LibraryPlaylist)`` merges through it.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidArgument` for a record without a
    ///   namespace or an ID, or when `merge` returns metadata of another playlist.
    func saveLink(
        _ record: RecordID, to id: SpotifyID,
        merging merge: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws

    /// Removes the link of `record`; the playlist's metadata and cover stay for other records and
    /// the picker.
    /// - Returns: whether there was a link.
    @discardableResult
    func removeLink(for record: RecordID) async throws -> Bool

    /// The link of `record`, if any.
    func link(for record: RecordID) async throws -> PlaylistLink?

    /// Every link, oldest first.
    func links() async throws -> [PlaylistLink]

    /// The cached metadata of one playlist.
    func metadata(for id: SpotifyID) async throws -> PlaylistMetadata?

    /// Every link, oldest first, and the cached metadata of every playlist, by ID, read in one
    /// transaction: a consistent copy for ``LinkedPlaylists/exportJSON()``, with no link or unlink
    /// by another writer landing between the two reads.
    func snapshot() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata])

    /// Saves `metadata`, replacing what was cached for that playlist.
    func saveMetadata(_ metadata: PlaylistMetadata) async throws

    /// The card of `record`: its link, the playlist's metadata and cover, from the store alone.
    func card(for record: RecordID) async throws -> PlaylistCard?

    /// The card of `record` with retention applied first, in one transaction: the details of every
    /// playlist whose details were saved (``PlaylistMetadata/savedAt``, else
    /// ``PlaylistMetadata/fetchedAt``) before `detailsSavedBefore` are cleared as
    /// ``forgetSpotifyDetails()`` clears them, with ``PlaylistMetadata/droppedAt`` set to `now` and
    /// their covers deleted; the bytes of every cover not shown since `coversShownBefore` are
    /// deleted; then the card is read and its cover, if it has one, counts as shown at `now`. Links
    /// stay. A store may note a cover shown at most once a day (a card read twenty times a day
    /// then writes once). ``LinkedPlaylists/card(for:retention:at:)`` applies a
    /// ``RetentionPolicy`` this way.
    func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date) async throws
        -> PlaylistCard?

    /// Saves cover bytes for a playlist whose metadata is cached. The store may evict other
    /// covers to stay within its budget, never the one just saved.
    func saveCover(_ bytes: Data, for id: SpotifyID) async throws

    /// The cached cover bytes of a playlist.
    func cover(for id: SpotifyID) async throws -> Data?

    /// Replaces the cached copy of the user's own playlists, in the order given.
    func replaceLibrary(_ playlists: [LibraryPlaylist]) async throws

    /// The cached copy of the user's own playlists, in the order saved.
    func library() async throws -> [LibraryPlaylist]

    /// Forgets everything fetched from Spotify, in one transaction: every playlist's name,
    /// description, owner, counts, duration, snapshot and cover URL, every cover's bytes, and the
    /// picker's library. The links stay (they are the app's data), each naming its playlist by ID
    /// alone, so a card still opens its playlist in Spotify; a playlist no link names goes.
    ///
    /// This is what disconnecting does by default: Spotify's Developer Policy asks an app to
    /// "delete and no longer request or process any of that user's personal data" when the user
    /// disconnects. The storage keeps none of the bytes afterwards (SQLite rewrites its file).
    func forgetSpotifyDetails() async throws

    /// Saves `metadata`, then `links`, in one transaction: all or nothing. A record whose link here
    /// is newer (by `linkedAt`) than the restored one and names another playlist keeps its link,
    /// unless `replacingNewer`; ``RestoreReport/decision(existing:restored:replacingNewer:)`` decides,
    /// for every store alike. A link whose playlist has no metadata in the store gets an empty
    /// entry.
    /// - Returns: what became of each link: added, replaced, kept or already there.
    @discardableResult
    func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) async throws
        -> RestoreReport
}

/// What a restore did with each link it was given, so that it can say what it kept and what it
/// replaced: an import never silently turns a record back to an older playlist.
public struct RestoreReport: Sendable, Equatable {
    /// What becomes of one restored link.
    @_spi(Storage) public enum Decision: Sendable, Equatable {
        /// The record had no link: the restored one is saved.
        case add
        /// The record's link named another playlist and was not newer (or newer ones are
        /// replaced): the restored one takes its place.
        case replace
        /// The record's link names another playlist and is newer than the restored one: it stays.
        case keep
        /// The record already links to that playlist: nothing changes.
        case unchanged
    }

    /// Restored links saved for records that had none.
    public var added: [PlaylistLink] = []
    /// Restored links saved in place of a link to another playlist.
    public var replaced: [PlaylistLink] = []
    /// Restored links not saved: the record's link here is newer and names another playlist.
    public var kept: [PlaylistLink] = []
    /// Restored links the store already had.
    public var unchanged: [PlaylistLink] = []

    /// An empty report.
    @_spi(Storage) public init() {}

    /// What to do with `restored` when the record's link here is `existing`.
    @_spi(Storage) public static func decision(existing: PlaylistLink?, restored: PlaylistLink, replacingNewer: Bool)
        -> Decision
    {
        guard let existing else { return .add }
        if existing.playlist == restored.playlist { return .unchanged }
        return existing.linkedAt > restored.linkedAt && !replacingNewer ? .keep : .replace
    }

    /// Notes `decision` for `link`.
    @_spi(Storage) public mutating func note(_ decision: Decision, _ link: PlaylistLink) {
        switch decision {
        case .add: added.append(link)
        case .replace: replaced.append(link)
        case .keep: kept.append(link)
        case .unchanged: unchanged.append(link)
        }
    }
}

/// A record's link to a playlist.
public struct PlaylistLink: Sendable, Equatable, Hashable, Codable {
    /// The host app's record.
    public var record: RecordID
    /// The playlist linked to it.
    public var playlist: SpotifyID
    /// When the link was made.
    public var linkedAt: Date

    /// A link of `record` to `playlist`, made at `linkedAt`.
    @_spi(Storage) public init(record: RecordID, playlist: SpotifyID, linkedAt: Date) {
        self.record = record
        self.playlist = playlist
        self.linkedAt = linkedAt
    }
}

// MARK: - What every store's transactions share

extension PlaylistLinkStore {
    /// This store behind the app's face: how the command line and the tests reach the app's
    /// operations on a store they made.
    package var linked: LinkedPlaylists { LinkedPlaylists(self) }

    /// Refuses a record without a namespace or an ID: every store's `saveLink` calls it.
    package static func check(_ record: RecordID) throws {
        guard !record.namespace.isEmpty, !record.id.isEmpty else {
            throw PlaylistLinksError(
                code: .invalidArgument, message: "A record needs a namespace and an ID, as session/42.")
        }
    }

    /// What `merge` makes of `cached`, refused when it names another playlist than `id`: every
    /// store's merging `saveLink` calls it inside its transaction.
    package static func merged(
        _ cached: PlaylistMetadata?, for id: SpotifyID, _ merge: (PlaylistMetadata?) -> PlaylistMetadata
    ) throws -> PlaylistMetadata {
        let metadata = merge(cached)
        guard metadata.id == id else {
            throw PlaylistLinksError(
                code: .invalidArgument,
                message:
                    "A link to playlist \(id.rawValue) cannot save the details of playlist \(metadata.id.rawValue).")
        }
        return metadata
    }
}

extension LibraryPlaylist {
    /// `playlists` whose name matches `text`, ranked as ``LinkedPlaylists/filterLibrary(_:)`` says.
    package static func filter(_ playlists: [LibraryPlaylist], matching text: String) -> [LibraryPlaylist] {
        let needle = fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let ranked = playlists.enumerated().compactMap { position, playlist -> (Int, Int, LibraryPlaylist)? in
            let folded = fold(playlist.name)
            let rank: Int
            if needle.isEmpty || folded.hasPrefix(needle) {
                rank = 0
            } else if folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains(where: {
                $0.hasPrefix(needle)
            }) {
                rank = 1
            } else if folded.contains(needle) {
                rank = 2
            } else {
                return nil
            }
            return (rank, position, playlist)
        }
        return ranked.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// Merges local matches with Spotify search results (found by the user `userID`): local first,
    /// then search results whose ID is not already listed.
    package static func merge(local: [LibraryPlaylist], search: [SimplifiedPlaylist], userID: String?)
        -> [LibraryPlaylist]
    {
        var seen = Set(local.map(\.id))
        var merged = local
        for playlist in search where seen.insert(playlist.id).inserted {
            merged.append(LibraryPlaylist(playlist: playlist, userID: userID))
        }
        return merged
    }

    /// The form names are compared in.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
