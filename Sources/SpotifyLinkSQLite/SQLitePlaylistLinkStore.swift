public import Foundation
public import GRDB
@_spi(Storage) public import PlaylistLinks
import SpotifyLinkSupport
public import SpotifyWebAPI
import Synchronization

/// The `PlaylistLinkStore` behind `LinkedPlaylists.sqlite(file:configuration:)` and an app's
/// `SpotifyLink.links`: links, cached metadata, covers and the picker's library in one SQLite file
/// on the device (GRDB, WAL mode), readable offline.
///
/// Linking works at once and offline: the link is saved with whatever is known and a
/// `MetadataRefresher` fills in the rest later. Reads come from SQLite alone. Nothing here
/// stores a token or any other secret. Every method runs its SQL on GRDB's own queue, never on the
/// caller's thread: an app awaits them from the main actor and the main thread stays free, also
/// while another process (a widget) holds the file's write lock.
///
/// ```swift
/// let store = try SQLitePlaylistLinkStore(location: .file(appSupport.appendingPathComponent("links.sqlite")))
/// try await LinkedPlaylists(store).link(RecordID(namespace: "session", id: "42"), to: playlist)
/// let card = try await store.card(for: RecordID(namespace: "session", id: "42"))
/// ```
///
/// One connection per file: the app keeps its own tables in the same file through ``writer``, the
/// store's own GRDB writer (migrate them on it, and delete a record with its link in one
/// transaction with ``removeLink(for:in:)``), or hands the store the writer it already owns with
/// ``init(writer:clock:coverCacheLimit:)``. Never open a second pool on the file. This store only
/// touches the tables `playlist`, `link`, `cover`, `libraryPlaylist` and the rows of GRDB's
/// `grdb_migrations` whose names it registered.
@_spi(Storage)
public final class SQLitePlaylistLinkStore: PlaylistLinkStore {
    /// Where the database lives.
    public enum Location: Sendable {
        /// A file, created (0600, in a 0700 folder) when missing.
        case file(URL)
        /// Memory alone, gone with the store (tests, previews).
        case inMemory

        /// The file, when there is one.
        var file: URL? {
            if case .file(let url) = self { url } else { nil }
        }
    }

    /// The file's one writer (a `DatabasePool` for a file): the app's own tables and transactions
    /// go through it too, so the file has one owner and one busy timeout. A store made by
    /// `SpotifyLink` opens its file at the first use, off the main actor: reading this opens it.
    /// - Throws: `PlaylistLinksError` with code `.database` when the file cannot be opened.
    public var writer: any DatabaseWriter {
        get throws { try database.writer() }
    }
    let database: DeferredDatabase
    /// The database file, named in what a failure says (`nil` in memory or for an app's writer).
    let file: URL?
    /// The limit that ``card(for:detailsSavedBefore:coversShownBefore:at:)`` could not apply to a
    /// read-only database (seconds since 1970, and when it was asked): reads apply it instead.
    private let readOnlyCutoff = Lock<(TimeInterval, Date)?>(nil)
    /// The clock links are stamped with.
    public let clock: any SpotifyClock
    /// The most bytes of cover art kept; the covers stored longest ago go first.
    public let coverCacheLimit: Int

    /// Opens (and migrates) the database.
    ///
    /// - Parameters:
    ///   - location: the file, or memory alone.
    ///   - configuration: the app's GRDB configuration, for example with
    ///     `observesSuspensionNotifications` for a file in an App Group container. The store turns
    ///     foreign keys on and, unless the configuration has its own, waits up to five seconds for
    ///     another process's write.
    ///   - clock: the clock links are stamped with.
    ///   - coverCacheLimit: the most bytes of cover art kept.
    /// - Throws: `PlaylistLinksError` with code `.database`.
    public convenience init(
        location: Location, configuration: Configuration = Configuration(), clock: any SpotifyClock = SystemClock(),
        coverCacheLimit: Int = 20 * 1024 * 1024
    ) throws {
        self.init(
            deferring: location, configuration: configuration, protection: .platform, clock: clock,
            coverCacheLimit: coverCacheLimit)
        _ = try database.writer()
    }

    /// A store whose file is opened (created and migrated) at its first use: making it touches no
    /// disk, so `SpotifyLink` can make it on the main actor at launch. `beforeOpening` runs before
    /// each attempt to open it, on the thread of that first use.
    package init(
        deferring location: Location, configuration: Configuration?, protection: FileProtection,
        beforeOpening: @escaping @Sendable () -> Void = {}, clock: any SpotifyClock = SystemClock(),
        coverCacheLimit: Int = 20 * 1024 * 1024
    ) {
        var configuration = configuration ?? Configuration()
        configuration.foreignKeysEnabled = true
        if case .immediateError = configuration.busyMode { configuration.busyMode = .timeout(5) }
        file = location.file
        database = DeferredDatabase { [configuration] in
            beforeOpening()
            let writer: any DatabaseWriter
            do {
                switch location {
                case .inMemory:
                    writer = try DatabaseQueue(configuration: configuration)
                case .file(let url):
                    writer = try PrivateFile.openDatabase(url, configuration: configuration, protection: protection)
                }
            } catch {
                throw PlaylistLinksError.database(
                    error, doing: "The playlist database could not be opened", file: location.file)
            }
            try Self.migrate(writer)
            return writer
        }
        self.clock = clock
        self.coverCacheLimit = coverCacheLimit
    }

    /// Keeps the store's tables in a database the app already owns, migrating them on `writer`:
    /// the file keeps one connection pool.
    ///
    /// The writer must enforce foreign keys (GRDB's default `Configuration` does); give it a busy
    /// timeout when other processes write the same file.
    /// - Throws: `PlaylistLinksError` with code `.database` when the tables cannot be migrated or
    ///   the writer does not enforce foreign keys.
    public init(
        writer: any DatabaseWriter, clock: any SpotifyClock = SystemClock(), coverCacheLimit: Int = 20 * 1024 * 1024
    )
        throws
    {
        try Self.migrate(writer)
        database = DeferredDatabase(opened: writer)
        file = nil
        self.clock = clock
        self.coverCacheLimit = coverCacheLimit
    }

    private static func migrate(_ writer: any DatabaseWriter) throws {
        do {
            guard try writer.read({ db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }) == true else {
                throw PlaylistLinksError(
                    code: .database,
                    message: "The database writer does not enforce foreign keys; open it with "
                        + "Configuration.foreignKeysEnabled = true (GRDB's default).")
            }
            try Schema.migrator.migrateAlongsideOtherProcesses(writer, component: "playlist links")
        } catch {
            throw PlaylistLinksError.database(
                error, doing: "The playlist database could not be brought up to date", file: nil)
        }
    }

    /// The names of this store's migrations applied to the file, in order (for diagnostics).
    package func appliedMigrations() throws -> [String] {
        try readNow { db in try Schema.migrator.appliedMigrations(db) }
    }

    /// Runs SQLite's integrity check; `["ok"]` when the database is sound.
    package func integrityCheck() throws -> [String] {
        try readNow { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    // MARK: - Links

    public func forgetEpoch() async throws -> ForgetEpoch {
        try await read { db in try Self.epoch(db) }
    }

    /// The forget epoch in `db`.
    static func epoch(_ db: Database) throws -> ForgetEpoch {
        ForgetEpoch(try Int64.fetchOne(db, sql: "SELECT epoch FROM forgetEpoch WHERE id = 1") ?? 0)
    }

    @discardableResult
    public func editPlaylist(
        _ id: SpotifyID, linking record: RecordID?, ifEpoch epoch: ForgetEpoch?,
        _ edit: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws -> Bool {
        let linkedAt = clock.now.timeIntervalSince1970
        // GRDB begins a write IMMEDIATE: the file's write lock is held from the epoch's read on, so
        // no other connection or process forgets, or saves this playlist, between the read and the
        // write.
        return try await write { db in
            if let epoch, try Self.epoch(db) != epoch { return false }
            let row = try PlaylistRow.fetchOne(db, key: id.rawValue)
            let edited = PlaylistRow(try Self.edited(row?.metadata, for: id, edit))
            if edited != row { try edited.save(db) }
            if let record { try Self.saveLink(record, to: id, at: linkedAt, db) }
            return true
        }
    }

    /// Links `record` to `playlist` at `linkedAt` (seconds since 1970), replacing the record's link.
    static func saveLink(_ record: RecordID, to playlist: SpotifyID, at linkedAt: Double, _ db: Database)
        throws
    {
        try db.execute(
            sql: """
                INSERT INTO link (namespace, recordID, playlistID, linkedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT(namespace, recordID) DO UPDATE SET playlistID = excluded.playlistID, linkedAt = excluded.linkedAt
                """,
            arguments: [record.namespace, record.id, playlist.rawValue, linkedAt])
    }

    @discardableResult
    public func removeLink(for record: RecordID) async throws -> PlaylistLink? {
        try await write { db in
            let removed = try Row.fetchOne(
                db,
                sql: "SELECT namespace, recordID, playlistID, linkedAt FROM link WHERE namespace = ? AND recordID = ?",
                arguments: [record.namespace, record.id]
            ).map(Self.link)
            if removed != nil { try removeLink(for: record, in: db) }
            return removed
        }
    }

    /// Removes the link of `record` inside a transaction of the app's on ``writer``, so a record
    /// and its link go together or not at all.
    /// - Returns: whether there was a link.
    @discardableResult
    public func removeLink(for record: RecordID, in db: Database) throws -> Bool {
        try db.execute(
            sql: "DELETE FROM link WHERE namespace = ? AND recordID = ?", arguments: [record.namespace, record.id])
        return db.changesCount > 0
    }

    public func link(for record: RecordID) async throws -> PlaylistLink? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT namespace, recordID, playlistID, linkedAt FROM link WHERE namespace = ? AND recordID = ?",
                arguments: [record.namespace, record.id]
            ).map(Self.link)
        }
    }

    public func links() async throws -> [PlaylistLink] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT namespace, recordID, playlistID, linkedAt FROM link ORDER BY linkedAt, namespace, recordID"
            )
            .map(Self.link)
        }
    }

    private static func link(_ row: Row) -> PlaylistLink {
        PlaylistLink(
            record: RecordID(namespace: row["namespace"], id: row["recordID"]),
            playlist: SpotifyID(unchecked: row["playlistID"]),
            linkedAt: Date(timeIntervalSince1970: row["linkedAt"]))
    }

    // MARK: - Offline reads

    /// The card of `record`: everything a screen shows, from SQLite alone, never the network (one
    /// query).
    public func card(for record: RecordID) async throws -> PlaylistCard? {
        try await read { db in try self.card(record, db)?.card }
    }

    /// One read when nothing is past its limit and the cover was noted shown within the day (every
    /// card but the rare one); otherwise one write that drops, reads and notes. In a database
    /// opened read-only (a read-only data folder) nothing can be dropped: the details past their
    /// limit are left out of what this store reads instead.
    public func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date)
        async throws -> PlaylistCard?
    {
        let limits = (
            details: detailsSavedBefore.timeIntervalSince1970, covers: coversShownBefore.timeIntervalSince1970
        )
        let noted = now.timeIntervalSince1970 - 86_400
        let (found, past) = try await read { db in (try self.card(record, db), try Self.pastLimits(db, limits)) }
        let stale = found.map { $0.card.cover != nil && ($0.coverShownAt ?? 0) < noted } ?? false
        guard past || stale else { return found?.card }
        guard try !isReadOnly else {
            guard past, let card = found?.card else { return found?.card }
            readOnlyCutoff.withLock { $0 = (limits.details, now) }
            let metadata = retained(card.metadata)
            return PlaylistCard(
                record: record, metadata: metadata, linkedAt: card.linkedAt,
                cover: metadata.shownCover(card.cover))
        }
        return try await write { db in
            try Self.expire(db, limits, at: now)
            guard let card = try self.card(record, db)?.card else { return nil }
            if card.cover != nil {
                try db.execute(
                    sql: "UPDATE cover SET lastUsedAt = ? WHERE playlistID = ? AND lastUsedAt < ?",
                    arguments: [now.timeIntervalSince1970, card.metadata.id.rawValue, noted])
            }
            return card
        }
    }

    /// The cards of every record of `namespace`, keyed by record ID, without their covers: what a
    /// list of records shows, with the limits applied first as ``card(for:detailsSavedBefore:coversShownBefore:at:)``
    /// applies them. One read (and one write when something is past its limit), however many
    /// records: a list of 100,000 sessions read card by card took a minute.
    @_spi(Storage) public func cardsWithoutCovers(
        in namespace: String, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date
    ) async throws -> [String: PlaylistCard] {
        let limits = (
            details: detailsSavedBefore.timeIntervalSince1970, covers: coversShownBefore.timeIntervalSince1970
        )
        if try await read({ db in try Self.pastLimits(db, limits) }) {
            if try isReadOnly {
                readOnlyCutoff.withLock { $0 = (limits.details, now) }
            } else {
                try await write { db in try Self.expire(db, limits, at: now) }
            }
        }
        return try await read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT link.recordID, link.linkedAt, playlist.*
                    FROM link JOIN playlist ON playlist.id = link.playlistID
                    WHERE link.namespace = ?
                    """,
                arguments: [namespace])
            var cards: [String: PlaylistCard] = [:]
            while let row = try rows.next() {
                let id: String = row["recordID"]
                cards[id] = PlaylistCard(
                    record: RecordID(namespace: namespace, id: id),
                    metadata: retained(try PlaylistRow(row: row).metadata),
                    linkedAt: Date(timeIntervalSince1970: row["linkedAt"]), cover: nil)
            }
            return cards
        }
    }

    /// The card of `record` read in `db`, and when its cover was last noted shown.
    private func card(_ record: RecordID, _ db: Database) throws -> (card: PlaylistCard, coverShownAt: Double?)? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT link.linkedAt, playlist.*, cover.bytes AS coverBytes, cover.lastUsedAt AS coverShownAt
                    FROM link
                    JOIN playlist ON playlist.id = link.playlistID
                    LEFT JOIN cover ON cover.playlistID = link.playlistID
                    WHERE link.namespace = ? AND link.recordID = ?
                    """,
                arguments: [record.namespace, record.id])
        else { return nil }
        let metadata = retained(try PlaylistRow(row: row).metadata)
        let card = PlaylistCard(
            record: record, metadata: metadata, linkedAt: Date(timeIntervalSince1970: row["linkedAt"]),
            cover: metadata.shownCover(row["coverBytes"]))
        return (card, row["coverShownAt"])
    }

    /// The cached metadata of one playlist.
    public func metadata(for id: SpotifyID) async throws -> PlaylistMetadata? {
        try await read { db in
            try PlaylistRow.fetchOne(db, key: id.rawValue).map { retained($0.metadata) }
        }
    }

    /// One read: the links and the playlists of one moment of the file.
    public func snapshot() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        try await read { db in
            let links = try Row.fetchAll(
                db,
                sql: "SELECT namespace, recordID, playlistID, linkedAt FROM link ORDER BY linkedAt, namespace, recordID"
            )
            .map(Self.link)
            let metadata = try PlaylistRow.order(Column("id")).fetchAll(db).map {
                self.retained($0.metadata)
            }
            return (links, metadata)
        }
    }

    @discardableResult
    public func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) async throws
        -> RestoreReport
    {
        try await write { db in
            try Self.restoreRows(db, links: links, metadata: metadata, replacingNewer: replacingNewer)
        }
    }

    /// ``restore(links:metadata:replacingNewer:)`` inside a write the caller holds: for a caller
    /// whose own rows must be written in the same transaction (the CLI's journal sessions).
    package static func restoreRows(
        _ db: Database, links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool
    ) throws -> RestoreReport {
        var report = RestoreReport()
        for playlist in metadata { try PlaylistRow(playlist).save(db) }
        // Prepared once for the whole restore: a backup of 100,000 links runs each 100,000 times.
        let lookup = try db.cachedStatement(
            sql: "SELECT playlistID, linkedAt FROM link WHERE namespace = ? AND recordID = ?")
        let save = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO link (namespace, recordID, playlistID, linkedAt) VALUES (?, ?, ?, ?)")
        // A playlist saved above, or given its row by an earlier link, needs no row again.
        var saved = Set(metadata.map(\.id))
        for link in links {
            let existing = try Row.fetchOne(lookup, arguments: [link.record.namespace, link.record.id]).map { row in
                PlaylistLink(
                    record: link.record, playlist: SpotifyID(unchecked: row["playlistID"]),
                    linkedAt: Date(timeIntervalSince1970: row["linkedAt"]))
            }
            let decision = RestoreReport.decision(
                existing: existing, restored: link, replacingNewer: replacingNewer)
            report.note(decision, link)
            guard decision == .add || decision == .replace else { continue }
            if saved.insert(link.playlist).inserted {
                try PlaylistRow(PlaylistMetadata(id: link.playlist)).insert(db, onConflict: .ignore)
            }
            try save.execute(arguments: [
                link.record.namespace, link.record.id, link.playlist.rawValue, link.linkedAt.timeIntervalSince1970,
            ])
        }
        return report
    }

    /// Forgets what Spotify said, then rewrites the file (`VACUUM`) and empties its write-ahead
    /// log: a deleted row's bytes would otherwise stay in the file's free pages and the log. The
    /// app's own tables in the same file are rewritten too, unchanged.
    public func forgetSpotifyDetails() async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM cover")
            try db.execute(sql: "DELETE FROM libraryPlaylist")
            try db.execute(sql: "DELETE FROM playlist WHERE id NOT IN (SELECT playlistID FROM link)")
            try PlaylistRow.updateAll(db, try PlaylistRow.assignments(PlaylistMetadata.forgotten))
            try db.execute(sql: "UPDATE forgetEpoch SET epoch = epoch + 1 WHERE id = 1")
        }
        let writer = try database.writer()
        do {
            try await writer.vacuum()
            try await writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        } catch {
            throw PlaylistLinksError(
                code: .database,
                message: "The Spotify details were removed, but the database file could not be rewritten to erase "
                    + "them from its free space: \(error). Disconnect again to retry.",
                underlying: error)
        }
    }

    /// Whether anything in `db` is past `limits`: a playlist's details saved before `details`, or a
    /// cover not shown since `covers` (seconds since 1970).
    private static func pastLimits(_ db: Database, _ limits: (details: Double, covers: Double)) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM playlist WHERE \(PlaylistRow.detailsSavedAt) < ?)
                    OR EXISTS (SELECT 1 FROM cover WHERE lastUsedAt < ?)
                """, arguments: [limits.details, limits.covers]) ?? false
    }

    /// Drops what is past `limits` in `db`: three indexed statements.
    private static func expire(_ db: Database, _ limits: (details: Double, covers: Double), at now: Date) throws {
        try db.execute(
            sql: """
                DELETE FROM cover WHERE playlistID IN (
                    SELECT id FROM playlist WHERE \(PlaylistRow.detailsSavedAt) < ?)
                """,
            arguments: [limits.details])
        try PlaylistRow.saved(before: limits.details).updateAll(
            db, try PlaylistRow.assignments { .expired($0, at: now) })
        try db.execute(sql: "DELETE FROM cover WHERE lastUsedAt < ?", arguments: [limits.covers])
    }

    // MARK: - Plumbing

    /// Whether the database was opened read-only (its folder cannot be written).
    var isReadOnly: Bool {
        get throws { try database.writer().configuration.readonly }
    }

    /// `metadata` without the details a read-only database could not drop for their age.
    private func retained(_ metadata: PlaylistMetadata) -> PlaylistMetadata {
        guard let (before, now) = readOnlyCutoff.withLock({ $0 }),
            let saved = metadata.savedAt ?? metadata.fetchedAt, saved.timeIntervalSince1970 < before
        else { return metadata }
        return .expired(metadata.id, at: now)
    }

    /// Runs `body` in a read on GRDB's own queue, never the caller's thread: a store called from the
    /// main actor keeps SQLite (and the first use's opening) off it. A cancelled task's read throws
    /// `CancellationError`.
    @concurrent func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let writer = try database.writer()
        do { return try await writer.read(body) } catch let error as CancellationError { throw error } catch {
            throw failure(error, writing: false)
        }
    }

    /// Runs `body` in one write transaction on GRDB's own queue, never the caller's thread.
    @concurrent func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let writer = try database.writer()
        do { return try await writer.write(body) } catch let error as CancellationError { throw error } catch {
            throw failure(error, writing: true)
        }
    }

    /// Runs `body` in a read on the calling thread, for the package's own diagnostics.
    func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        let writer = try database.writer()
        do { return try writer.read(body) } catch {
            throw failure(error, writing: false)
        }
    }

    /// What a failed read or write of the file says, with what to do.
    func failure(_ error: any Error, writing: Bool) -> PlaylistLinksError {
        PlaylistLinksError.database(
            error, doing: "The playlist database could not be \(writing ? "written" : "read")", file: file)
    }
}
