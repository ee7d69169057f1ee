public import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI

/// The links from the app's records to Spotify playlists, with what is saved of each playlist
/// (name, owner, count, duration, cover) and the picker's copy of the user's library: what an app
/// links, unlinks, shows, backs up and forgets. A link, an unlink, a card with its retention, a
/// forget, an export and an import are each one transaction of the storage behind it.
///
/// An app gets it from its root (`SpotifyLink.links`); a tool or a server makes one from a factory
/// of its storage product: `.sqlite(file:)` (`SpotifyLinkSQLite`, the device's file) or
/// `.postgres(client:user:)` (`SpotifyLinkPostgres`, many users in one database). Every method
/// runs on the storage's own queue or connection, never on the caller's thread, so an app awaits
/// them from the main actor.
///
/// ```swift
/// let session = RecordID(namespace: "session", id: "42")
/// try await spotify.links.link(session, to: try SpotifyReference(parsing: pasted, expecting: .playlist).id)
/// let card = try await spotify.links.card(for: session)   // offline: the saved details and cover
/// try await spotify.links.removeLink(for: session)         // when the session is deleted
/// ```
///
/// Linking works at once and offline: the link is saved with whatever is known of the playlist,
/// and a card's refresh (`MetadataRefresher`) fills in the rest later. The merge of what is known
/// with what is saved happens inside the link's transaction, so a refresh saving the same playlist
/// meanwhile is never undone; and a refresh whose answer arrives after a forget (a disconnect)
/// saves nothing of it.
///
/// It is the only way in for every writer: apps, `MetadataRefresher`, the command line. The rules
/// of what is saved are `PlaylistMetadata`'s edits, and the storage below writes rows.
public struct LinkedPlaylists: Sendable {
    /// The storage the operations run on.
    @_spi(Storage) public let store: any PlaylistLinkStore

    /// The app's operations on `store`: for storage implementers and their tests.
    @_spi(Storage) public init(_ store: any PlaylistLinkStore) {
        self.store = store
    }

    // MARK: Linking

    /// Links `record` to a playlist chosen in the picker or found by a search, keeping what was
    /// listed of it; `access`, when known, is what the app can read of it
    /// (``LibraryPlaylist/access``). The record's previous link, if any, is replaced.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidArgument` for a record without a namespace
    ///   or an ID, or `.database` when the storage fails (nothing is changed then).
    public func link(_ record: RecordID, to playlist: SimplifiedPlaylist, access: PlaylistAccess? = nil) async throws {
        try await edit(playlist.id, linking: record, ifEpoch: nil) { cached in
            .linking(playlist, access: access, over: cached)
        }
    }

    /// Links `record` to a playlist picked from the saved library, keeping what the library knew of
    /// it (name, owner, count, cover URL, snapshot): its card reads complete at once, offline too,
    /// and a refresh adds the duration and the cover's bytes. What is saved of that playlist from
    /// an earlier read stays where the library says nothing.
    /// - Throws: ``PlaylistLinksError``, as ``link(_:to:access:)`` does.
    public func link(_ record: RecordID, to playlist: LibraryPlaylist) async throws {
        try await edit(playlist.id, linking: record, ifEpoch: nil) { cached in .linking(playlist, over: cached) }
    }

    /// Links `record` to a playlist known only by its ID (a pasted link or URI); what is saved of
    /// that playlist stays, and a card's refresh reads the rest.
    /// - Throws: ``PlaylistLinksError``, as ``link(_:to:access:)`` does.
    public func link(_ record: RecordID, to id: SpotifyID) async throws {
        try await edit(id, linking: record, ifEpoch: nil) { cached in .linking(id, over: cached) }
    }

    /// Removes the link of `record` (when the app deletes the record, say); what is saved of the
    /// playlist stays for other records and the picker.
    /// - Returns: whether there was a link.
    @discardableResult
    public func removeLink(for record: RecordID) async throws -> Bool {
        try await store.removeLink(for: record) != nil
    }

    /// Removes the link of `record` and returns it, for the app's undo of a deleted record:
    /// ``undoRemoval(_:)`` brings it back as it was. `nil` when the record had no link. The read
    /// and the removal are one transaction, so the link returned is the one removed, also when
    /// another writer linked the record just before. What is saved of the playlist stays, as
    /// ``removeLink(for:)`` leaves it.
    public func removeLinkForUndo(for record: RecordID) async throws -> PlaylistLink? {
        // One transaction: a link another process made meanwhile is the one removed and returned.
        try await store.removeLink(for: record)
    }

    /// Brings back a link ``removeLinkForUndo(for:)`` removed: the same playlist, linked at the same
    /// time, with what is still saved of it (a cover and details the retention policy or a
    /// disconnect did not drop meanwhile). A link the record was given since wins: the record was
    /// linked again after the delete, and the undo leaves that choice alone.
    public func undoRemoval(_ link: PlaylistLink) async throws {
        try link.record.check()
        _ = try await store.restore(links: [link], metadata: [], replacingNewer: false)
    }

    /// Links `record` to the playlist an earlier version of the app kept in fields of its own
    /// records, as the routine app's SchemaV6 keeps `spotifyPlaylistID`, `spotifyPlaylistName` and
    /// `spotifyPlaylistImageURL`: the ID (or a link or URI), and the name and cover URL as saved
    /// details, temporary from now under the retention policy, until a refresh reads the rest. Run it
    /// for every record at each launch until the fields are gone: a record already linked keeps its
    /// link, so a second run changes nothing, and the app's fields are never read again once migrated.
    /// A link another writer (a widget's process) gives the record while this runs stays: the
    /// user's choice wins over the old fields.
    /// - Returns: whether a link was made; `false` when the record was linked already.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidArgument` when `playlistID` names no
    ///   playlist (the fields stay for the app to keep or clear).
    @discardableResult
    public func migrateLegacyLink(
        _ record: RecordID, playlistID: String, name: String?, imageURL: String?
    ) async throws -> Bool {
        let id: SpotifyID
        do {
            id = try SpotifyReference(parsing: playlistID, expecting: .playlist).id
        } catch {
            throw PlaylistLinksError(
                code: .invalidArgument,
                message:
                    "The saved playlist ID of \(record) is not a Spotify playlist's (a 22-character ID, a link or a URI).",
                underlying: error)
        }
        try record.check()
        guard try await store.link(for: record) == nil else { return false }
        let linkedAt = store.clock.now
        let cover = imageURL.flatMap(URL.init(string:)).flatMap { $0.scheme == "https" ? $0 : nil }
        let name = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await edit(id, ifEpoch: nil) { cached in
            var metadata = cached ?? PlaylistMetadata(id: id)
            if metadata.name == nil, let name, !name.isEmpty { metadata.name = name }
            if metadata.coverURL == nil, let cover { metadata.coverURL = cover }
            return metadata
        }
        // The link as a restore: a link another process gave the record since the check above is
        // newer and stays (the user's choice wins over the old fields).
        let link = PlaylistLink(record: record, playlist: id, linkedAt: linkedAt)
        let report = try await store.restore(links: [link], metadata: [], replacingNewer: false)
        return report.added.contains(link)
    }

    /// The link of `record`, if any.
    public func link(for record: RecordID) async throws -> PlaylistLink? {
        try await store.link(for: record)
    }

    /// Every link, oldest first.
    public func links() async throws -> [PlaylistLink] {
        try await store.links()
    }

    // MARK: Cards

    /// The card of `record`: its link, the playlist's saved details and cover, from the storage
    /// alone (offline too; no request is made), or `nil` when the record has no link.
    public func card(for record: RecordID) async throws -> PlaylistCard? {
        try await store.card(for: record)
    }

    /// The card of `record` with `retention` applied at `now` first: details saved longer ago
    /// than ``RetentionPolicy/detailsKeptFor`` are dropped (the card's metadata then has
    /// ``PlaylistMetadata/droppedAt``), covers not shown for ``RetentionPolicy/coverUnusedFor`` are
    /// deleted, and the card's cover counts as shown now. Offline too: no request is made.
    public func card(for record: RecordID, retention: RetentionPolicy, at now: Date) async throws -> PlaylistCard? {
        try await store.card(
            for: record, detailsSavedBefore: now.addingTimeInterval(-retention.detailsKeptFor.seconds),
            coversShownBefore: now.addingTimeInterval(-retention.coverUnusedFor.seconds), at: now)
    }

    // MARK: The picker's library

    /// Replaces the saved list of the user's own playlists (for the picker) with the playlists
    /// Spotify listed to the user `userID`, each marked with what the app can read of it
    /// (``LibraryPlaylist/access``: the user's own and collaborative ones in full, followed ones
    /// without their songs, Spotify's own not at all).
    ///
    /// - Returns: the list as saved, in library order, so the caller need not read it back.
    @discardableResult
    public func replaceLibrary(_ playlists: [SimplifiedPlaylist], userID: String?) async throws -> [LibraryPlaylist] {
        try await replaceLibrary(playlists, userID: userID, ifEpoch: nil) ?? []
    }

    /// ``replaceLibrary(_:userID:)`` for a listing asked for when the forget epoch was `epoch`:
    /// nothing is saved, and `nil` returned, when the details were forgotten since (a disconnect
    /// while Spotify answered).
    package func replaceLibrary(_ playlists: [SimplifiedPlaylist], userID: String?, ifEpoch epoch: ForgetEpoch?)
        async throws -> [LibraryPlaylist]?
    {
        let library = playlists.map { LibraryPlaylist(playlist: $0, userID: userID) }
        return try await store.replaceLibrary(library, ifEpoch: epoch) ? library : nil
    }

    /// The saved copy of the user's own playlists, in library order.
    public func library() async throws -> [LibraryPlaylist] {
        try await store.library()
    }

    /// The saved playlists whose name matches `text`, case-, diacritic- and width-insensitively:
    /// names that start with it first, then names with a word that starts with it, then any other
    /// match, each group in library order.
    public func filterLibrary(_ text: String) async throws -> [LibraryPlaylist] {
        LibraryPlaylist.filter(try await store.library(), matching: text)
    }

    // MARK: Forgetting

    /// Forgets everything saved from Spotify, in one transaction: every playlist's name,
    /// description, owner, counts, duration, snapshot and cover URL, every cover's bytes, and the
    /// picker's library. The links stay (they are the app's data), each naming its playlist by ID
    /// alone, so a card still opens its playlist in Spotify.
    ///
    /// Disconnecting does this by default: Spotify's Developer Policy asks an app to "delete and no
    /// longer request or process any of that user's personal data" when the user disconnects.
    public func forgetSpotifyDetails() async throws {
        try await store.forgetSpotifyDetails()
    }

    // MARK: The door for the package's own writers

    /// The forget epoch now: read it before what an edit will carry (the saved details, then
    /// Spotify's answer), and pass it to the edit, which a forget since then refuses.
    package func forgetEpoch() async throws -> ForgetEpoch {
        try await store.forgetEpoch()
    }

    /// Every link and the saved metadata of every playlist, read in one transaction.
    package func saved() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        try await store.snapshot()
    }

    /// The saved metadata of one playlist, as it is stored.
    package func metadata(for id: SpotifyID) async throws -> PlaylistMetadata? {
        try await store.metadata(for: id)
    }

    /// Saves what `edit` makes of playlist `id`'s saved metadata, stamped at the store clock's
    /// present (``PlaylistMetadata/stamped(_:)``), and links `record` to it when given: one
    /// transaction, refused when a forget came after `epoch`.
    /// - Returns: `false` when a forget came after `epoch`: nothing was written.
    @discardableResult
    package func edit(
        _ id: SpotifyID, linking record: RecordID? = nil, ifEpoch epoch: ForgetEpoch?,
        _ edit: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws -> Bool {
        try record?.check()
        let now = store.clock.now
        return try await store.editPlaylist(id, linking: record, ifEpoch: epoch) { cached in
            edit(cached).stamped(now)
        }
    }

    /// Saves the cover bytes of playlist `id`, refused when a forget came after `epoch`.
    /// - Returns: `false` when a forget came after `epoch`: nothing was written.
    @discardableResult
    package func saveCover(_ bytes: Data, for id: SpotifyID, ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        try await store.saveCover(bytes, for: id, ifEpoch: epoch)
    }

    /// The saved cover bytes of playlist `id`.
    package func cover(for id: SpotifyID) async throws -> Data? {
        try await store.cover(for: id)
    }
}
