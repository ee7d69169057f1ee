public import Foundation
public import SpotifyWebAPI

/// The storage contract behind ``LinkedPlaylists``: rows, and one atomic edit of a playlist's row,
/// for the stores of this package and a backend an app or server brings. Apps never call it: they
/// link, unlink, show and back up through ``LinkedPlaylists``, which owns every rule of what is
/// saved (`PlaylistMetadata`'s edits: linking, refreshed, gone, forgotten, expired, stamped) and
/// makes each of its operations one call here.
///
/// `SQLitePlaylistLinkStore` (`SpotifyLinkSQLite`) keeps one SQLite file on the device;
/// `PostgresPlaylistLinkStore` (`SpotifyLinkPostgres`) keeps many users in one database. Another
/// database goes behind this protocol: the requirements are `async`, take and return only the
/// value types of this module, and name the few operations that must be atomic. Import it with
/// `@_spi(Storage) import PlaylistLinks`; the conformance checks of `SpotifyTesting`
/// (`PlaylistLinkStoreConformance`) are the specification, and `InMemoryPlaylistLinkStore` there
/// is a reference implementation.
///
/// A conforming type:
/// - keeps at most one link per ``RecordID``; saving a link for a record replaces its old one;
/// - keeps a playlist's metadata while any link, or the library cache, names it, and keeps it when
///   the last link goes (the picker and other records may show it again);
/// - writes what an edit returns as it is, stamped by ``LinkedPlaylists`` already, and applies no
///   rule of its own to it;
/// - keeps a forget epoch (``ForgetEpoch``) that every ``forgetSpotifyDetails()`` increases in its
///   own transaction, and refuses a guarded write that read an earlier one, across processes that
///   share the storage too;
/// - throws ``PlaylistLinksError`` (code `.database` when the storage fails), never loses saved
///   data on a failed write, and holds no token or other secret.
@_spi(Storage)
public protocol PlaylistLinkStore: Sendable {
    /// The clock links are stamped with, and ``LinkedPlaylists`` stamps saved details by.
    var clock: any SpotifyClock { get }

    /// The most bytes of cover art the store keeps (``saveCover(_:for:ifEpoch:)`` evicts beyond it).
    var coverCacheLimit: Int { get }

    /// The store's forget epoch now. Read it before reading what an edit will carry (a refresh's
    /// saved details, then Spotify's answer): a forget after it then refuses the edit.
    func forgetEpoch() async throws -> ForgetEpoch

    /// In one transaction: reads the metadata of playlist `id` (`nil` when none is saved) and,
    /// unless `epoch` is given and is no longer the store's, saves what `edit` makes of it (when
    /// that differs) and links `record`, when given, to `id` at the clock's present, replacing the
    /// record's link. A write by another writer (a refresh, a widget's process) lands wholly before
    /// the read or wholly after the write, never between them.
    /// - Returns: `false` when a forget came after `epoch`: nothing was written.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidArgument` for a record without a
    ///   namespace or an ID, or when `edit` returns metadata of another playlist (nothing is
    ///   written then).
    @discardableResult
    func editPlaylist(
        _ id: SpotifyID, linking record: RecordID?, ifEpoch epoch: ForgetEpoch?,
        _ edit: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws -> Bool

    /// Removes the link of `record` in one transaction and returns the link removed, so an undo
    /// brings back the link that was there, not one read before another writer's; the
    /// playlist's metadata and cover stay for other records and the picker.
    /// - Returns: the link removed, or `nil` when there was none.
    @discardableResult
    func removeLink(for record: RecordID) async throws -> PlaylistLink?

    /// The link of `record`, if any.
    func link(for record: RecordID) async throws -> PlaylistLink?

    /// Every link, oldest first.
    func links() async throws -> [PlaylistLink]

    /// The saved metadata of one playlist.
    func metadata(for id: SpotifyID) async throws -> PlaylistMetadata?

    /// Every link, oldest first, and the saved metadata of every playlist, by ID, read in one
    /// transaction: a consistent copy for ``LinkedPlaylists/exportJSON()``, with no link or unlink
    /// by another writer landing between the two reads.
    func snapshot() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata])

    /// The card of `record`: its link, the playlist's metadata and cover, from the store alone.
    func card(for record: RecordID) async throws -> PlaylistCard?

    /// The card of `record` with retention applied first, in one transaction: every playlist whose
    /// details were taken from Spotify (``PlaylistMetadata/detailsSavedAt``) before
    /// `detailsSavedBefore` becomes ``PlaylistMetadata/expired(_:at:)`` at `now`, and its cover is
    /// deleted; the bytes of every cover not shown since `coversShownBefore` are deleted; then the
    /// card is read and its cover, if it has one, counts as shown at `now`. Links stay. A store may
    /// note a cover shown at most once a day (a card read twenty times a day then writes once).
    /// ``LinkedPlaylists/card(for:retention:at:)`` applies a ``RetentionPolicy`` this way.
    func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date) async throws
        -> PlaylistCard?

    /// Saves cover bytes for a playlist whose metadata is saved, unless `epoch` is given and is no
    /// longer the store's, then deletes the covers ``CoverBudget/evictions(_:limit:keeping:)`` names
    /// to stay within the store's budget, in one transaction.
    /// - Returns: `false` when a forget came after `epoch`: nothing was written.
    @discardableResult
    func saveCover(_ bytes: Data, for id: SpotifyID, ifEpoch epoch: ForgetEpoch?) async throws -> Bool

    /// The saved cover bytes of a playlist.
    func cover(for id: SpotifyID) async throws -> Data?

    /// Replaces the saved copy of the user's own playlists, in the order given, unless `epoch` is
    /// given and is no longer the store's.
    /// - Returns: `false` when a forget came after `epoch`: nothing was written.
    @discardableResult
    func replaceLibrary(_ playlists: [LibraryPlaylist], ifEpoch epoch: ForgetEpoch?) async throws -> Bool

    /// The saved copy of the user's own playlists, in the order saved.
    func library() async throws -> [LibraryPlaylist]

    /// Forgets everything fetched from Spotify and increases the forget epoch, in one transaction:
    /// every playlist a link names becomes ``PlaylistMetadata/forgotten(_:)``, a playlist no link
    /// names goes, and every cover's bytes and the picker's library go. The links stay (they are
    /// the app's data), each naming its playlist by ID alone, so a card still opens its playlist
    /// in Spotify.
    ///
    /// This is what disconnecting does by default: Spotify's Developer Policy asks an app to
    /// "delete and no longer request or process any of that user's personal data" when the user
    /// disconnects. The storage keeps none of the bytes afterwards (SQLite rewrites its file).
    func forgetSpotifyDetails() async throws

    /// Saves `metadata` (stamped by ``LinkedPlaylists`` already), then `links`, in one
    /// transaction: all or nothing. A record whose link here is newer (by `linkedAt`) than the
    /// restored one and names another playlist keeps its link, unless `replacingNewer`;
    /// ``RestoreReport/decision(existing:restored:replacingNewer:)`` decides, for every store alike.
    /// A link whose playlist has no metadata in the store gets an empty entry.
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

    /// Saves `metadata` over what is saved of its playlist, stamped as every save is: how tests
    /// and tools put details in place.
    package func saveMetadata(_ metadata: PlaylistMetadata) async throws {
        try await linked.edit(metadata.id, ifEpoch: nil) { _ in metadata }
    }

    /// Links `record` to `metadata`'s playlist and saves `metadata` over what is saved of it, as
    /// ``saveMetadata(_:)`` does: how tests and tools link a playlist with its details.
    package func saveLink(_ record: RecordID, to metadata: PlaylistMetadata) async throws {
        try await linked.edit(metadata.id, linking: record, ifEpoch: nil) { _ in metadata }
    }

    /// Replaces the saved library with no epoch to check: how tests and tools put one in place.
    package func replaceLibrary(_ playlists: [LibraryPlaylist]) async throws {
        try await replaceLibrary(playlists, ifEpoch: nil)
    }

    /// Saves a cover with no epoch to check: how tests and tools put a cover in place.
    package func saveCover(_ bytes: Data, for id: SpotifyID) async throws {
        try await saveCover(bytes, for: id, ifEpoch: nil)
    }

    /// What `edit` makes of `cached`, refused when it names another playlist than `id`: every
    /// store's ``editPlaylist(_:linking:ifEpoch:_:)`` calls it inside its transaction.
    @_spi(Storage) public static func edited(
        _ cached: PlaylistMetadata?, for id: SpotifyID, _ edit: (PlaylistMetadata?) -> PlaylistMetadata
    ) throws -> PlaylistMetadata {
        let metadata = edit(cached)
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
