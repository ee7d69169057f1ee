public import Foundation
public import Logging
@_spi(Storage) public import PlaylistLinks
public import PostgresNIO
import SpotifyLinkSupport
public import SpotifyWebAPI

/// The `PlaylistLinkStore` behind `LinkedPlaylists.postgres(client:user:deadline:logger:)`, for a
/// server that keeps many users' links in one database.
///
/// A store value belongs to one user (the Spotify account ID, or the server's own user key): every
/// row it writes carries that key and every query it runs is limited to it, so one user's store
/// can neither read nor change another's links. The server owns the `PostgresClient` (its pool,
/// its TLS, its `run()`) and runs ``PostgresSchema/migrate(_:deadline:logger:)`` once at start-up.
///
/// ```swift
/// try await PostgresSchema.migrate(databaseURL)  // at start-up: a wrong URL fails here, named
/// let client = PostgresClient(configuration: try PostgresURL.configuration(databaseURL))
/// // … run the client in a task group, then:
/// let links = LinkedPlaylists(try PostgresPlaylistLinkStore(client: client, user: accountID))
/// try await links.link(RecordID(namespace: "session", id: "42"), to: playlistID)
/// ```
@_spi(Storage)
public final class PostgresPlaylistLinkStore: PlaylistLinkStore {
    /// The user whose links this store reads and writes.
    package let user: String
    /// The most bytes of cover art kept for this user; the covers used longest ago go first.
    public let coverCacheLimit: Int
    /// How long one call may take before it fails with `.database`, naming the call.
    package let deadline: Duration
    /// The clock deadlines run on (tests make it virtual).
    package let deadlineClock: any SpotifyClock
    let client: PostgresClient
    /// The clock links are stamped with.
    public let clock: any SpotifyClock
    let logger: Logger

    /// A store of `user`'s links in the database `client` reaches.
    ///
    /// Every call ends within `deadline`: one that PostgreSQL does not answer in time fails with
    /// `.database`, saying which call and what to check.
    /// - Throws: `PlaylistLinksError` with code `.invalidArgument` for an empty user.
    public convenience init(
        client: PostgresClient, user: String, clock: any SpotifyClock = SystemClock(),
        coverCacheLimit: Int = 20 * 1024 * 1024, deadline: Duration = PostgresDeadline.default,
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try self.init(
            client: client, user: user, clock: clock, coverCacheLimit: coverCacheLimit, deadline: deadline,
            deadlineClock: SystemClock(), logger: logger)
    }

    /// A store whose deadlines run on `deadlineClock`.
    package init(
        client: PostgresClient, user: String, clock: any SpotifyClock, coverCacheLimit: Int = 20 * 1024 * 1024,
        deadline: Duration, deadlineClock: any SpotifyClock,
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        guard !user.isEmpty else {
            throw PlaylistLinksError(code: .invalidArgument, message: "A PostgreSQL link store needs a user key.")
        }
        self.client = client
        self.user = user
        self.clock = clock
        self.coverCacheLimit = coverCacheLimit
        self.deadline = deadline
        self.deadlineClock = deadlineClock
        self.logger = logger
    }

    // MARK: - Links

    public func forgetEpoch() async throws -> ForgetEpoch {
        try await read("read the forget epoch") { connection in
            let rows = try await connection.query(
                "SELECT epoch FROM spotlink_forget_epoch WHERE user_key = \(self.user)", logger: self.logger)
            for try await epoch in rows.decode(Int64.self) { return ForgetEpoch(epoch) }
            return ForgetEpoch(0)
        }
    }

    /// The user's forget epoch, read under a share lock held to the transaction's end: a forget
    /// (which updates the row) waits for this transaction, and this one for a forget under way,
    /// whose epoch it then reads.
    private func lockedEpoch(_ connection: PostgresConnection) async throws -> ForgetEpoch {
        try await connection.query(
            """
            INSERT INTO spotlink_forget_epoch (user_key, epoch) VALUES (\(user), 0)
            ON CONFLICT (user_key) DO NOTHING
            """, logger: logger)
        let rows = try await connection.query(
            "SELECT epoch FROM spotlink_forget_epoch WHERE user_key = \(user) FOR SHARE", logger: logger)
        var epoch = ForgetEpoch(0)
        for try await value in rows.decode(Int64.self) { epoch = ForgetEpoch(value) }
        return epoch
    }

    @discardableResult
    public func editPlaylist(
        _ id: SpotifyID, linking record: RecordID?, ifEpoch epoch: ForgetEpoch?,
        _ edit: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws -> Bool {
        let now = clock.now.timeIntervalSince1970
        return try await transaction(record == nil ? "save a playlist" : "save a link") { connection in
            if let epoch, try await self.lockedEpoch(connection) != epoch { return false }
            // The playlist's row exists before it is read, so `FOR UPDATE` always has a row to
            // lock: another writer's save of this playlist waits for this transaction's end.
            let inserted = try await connection.query(
                """
                INSERT INTO spotlink_playlist (user_key, id) VALUES (\(self.user), \(id.rawValue))
                ON CONFLICT (user_key, id) DO NOTHING RETURNING id
                """, logger: self.logger)
            var isNew = false
            for try await _ in inserted { isNew = true }
            let cached =
                isNew
                ? nil
                : try await self.metadata(
                    """
                    SELECT \(unescaped: PostgresPlaylistRow.selectList()) FROM spotlink_playlist
                    WHERE user_key = \(self.user) AND id = \(id.rawValue) FOR UPDATE
                    """, connection
                ).first
            let edited = try Self.edited(cached, for: id, edit)
            if isNew || edited != cached {
                try await connection.query(PostgresPlaylistRow.upsert(edited, user: self.user), logger: self.logger)
            }
            if let record { try await self.saveLink(record, to: id, at: now, connection) }
            return true
        }
    }

    @discardableResult
    public func removeLink(for record: RecordID) async throws -> PlaylistLink? {
        try await transaction("remove a link") { connection in
            try await self.links(
                """
                DELETE FROM spotlink_link WHERE user_key = \(self.user) AND namespace = \(record.namespace)
                AND record_id = \(record.id) RETURNING namespace, record_id, playlist_id, linked_at
                """, connection
            ).first
        }
    }

    public func link(for record: RecordID) async throws -> PlaylistLink? {
        try await links(
            """
            SELECT namespace, record_id, playlist_id, linked_at FROM spotlink_link
            WHERE user_key = \(user) AND namespace = \(record.namespace) AND record_id = \(record.id)
            """
        ).first
    }

    public func links() async throws -> [PlaylistLink] {
        try await links(
            """
            SELECT namespace, record_id, playlist_id, linked_at FROM spotlink_link WHERE user_key = \(user)
            ORDER BY linked_at, namespace, record_id
            """)
    }

    private func links(_ query: PostgresQuery) async throws -> [PlaylistLink] {
        try await read("read links") { connection in try await self.links(query, connection) }
    }

    private func links(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> [PlaylistLink] {
        var links: [PlaylistLink] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (namespace, id, playlist, linkedAt) in rows.decode((String, String, String, Double).self) {
            links.append(
                PlaylistLink(
                    record: RecordID(namespace: namespace, id: id), playlist: SpotifyID(unchecked: playlist),
                    linkedAt: Date(timeIntervalSince1970: linkedAt)))
        }
        return links
    }

    // MARK: - Metadata and cards

    public func metadata(for id: SpotifyID) async throws -> PlaylistMetadata? {
        try await metadata(
            """
            SELECT \(unescaped: PostgresPlaylistRow.selectList()) FROM spotlink_playlist
            WHERE user_key = \(user) AND id = \(id.rawValue)
            """
        ).first
    }

    /// One `REPEATABLE READ` transaction, so both queries see the same moment.
    public func snapshot() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        try await transaction("read links and playlists") { connection in
            try await connection.query(
                "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: self.logger)
            let links = try await self.links(
                """
                SELECT namespace, record_id, playlist_id, linked_at FROM spotlink_link WHERE user_key = \(self.user)
                ORDER BY linked_at, namespace, record_id
                """, connection)
            let metadata = try await self.metadata(
                """
                SELECT \(unescaped: PostgresPlaylistRow.selectList()) FROM spotlink_playlist
                WHERE user_key = \(self.user) ORDER BY id
                """, connection)
            return (links, metadata)
        }
    }

    /// One query: the link, its playlist and its cover, joined on the server.
    public func card(for record: RecordID) async throws -> PlaylistCard? {
        try await read("read a card") { connection in try await self.card(record, connection) }
    }

    /// One transaction: the drops, the card's query and the note of its cover.
    public func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date)
        async throws -> PlaylistCard?
    {
        try await transaction("read a card") { connection in
            // The covers first, as SQLite drops them: those of the playlists whose details are past
            // their limit, before the details are dropped. (Matching "dropped now" afterwards also
            // took the cover saved since of a playlist dropped earlier at the same instant: the
            // model-based property test found it on a random sequence.)
            try await connection.query(
                """
                DELETE FROM spotlink_cover c WHERE c.user_key = \(self.user) AND (
                    c.last_used_at < \(coversShownBefore.timeIntervalSince1970) OR c.playlist_id IN (
                        SELECT id FROM spotlink_playlist WHERE user_key = \(self.user)
                            AND \(unescaped: PostgresPlaylistRow.detailsSavedAt) < \(detailsSavedBefore.timeIntervalSince1970)))
                """, logger: self.logger)
            try await connection.query(
                PostgresPlaylistRow.update(
                    user: self.user, to: { .expired($0, at: now) },
                    where: "\(PostgresPlaylistRow.detailsSavedAt) < $2",
                    arguments: [detailsSavedBefore.timeIntervalSince1970]), logger: self.logger)
            guard let card = try await self.card(record, connection) else { return nil }
            if card.cover != nil {
                try await connection.query(
                    """
                    UPDATE spotlink_cover SET last_used_at = \(now.timeIntervalSince1970)
                    WHERE user_key = \(self.user) AND playlist_id = \(card.metadata.id.rawValue)
                        AND last_used_at < \(now.timeIntervalSince1970 - 86_400)
                    """, logger: self.logger)
            }
            return card
        }
    }

    private func card(_ record: RecordID, _ connection: PostgresConnection) async throws -> PlaylistCard? {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: PostgresPlaylistRow.selectList("p")), l.linked_at, c.bytes
            FROM spotlink_link l
            JOIN spotlink_playlist p ON p.user_key = l.user_key AND p.id = l.playlist_id
            LEFT JOIN spotlink_cover c ON c.user_key = l.user_key AND c.playlist_id = l.playlist_id
            WHERE l.user_key = \(user) AND l.namespace = \(record.namespace) AND l.record_id = \(record.id)
            """, logger: logger)
        for try await row in rows {
            let columns = row.makeRandomAccess()
            let metadata = try PostgresPlaylistRow.metadata(columns)
            return PlaylistCard(
                record: record, metadata: metadata,
                linkedAt: Date(timeIntervalSince1970: try columns["linked_at"].decode(Double.self)),
                cover: metadata.shownCover(try columns["bytes"].decode(Data?.self)))
        }
        return nil
    }

    @discardableResult
    public func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) async throws
        -> RestoreReport
    {
        try await transaction("restore links") { connection in
            var report = RestoreReport()
            for playlist in metadata {
                try await connection.query(
                    PostgresPlaylistRow.upsert(playlist, user: self.user), logger: self.logger)
            }
            for link in links {
                var existing: PlaylistLink?
                let rows = try await connection.query(
                    """
                    SELECT playlist_id, linked_at FROM spotlink_link
                    WHERE user_key = \(self.user) AND namespace = \(link.record.namespace) AND record_id = \(link.record.id)
                    FOR UPDATE
                    """, logger: self.logger)
                for try await (playlist, linkedAt) in rows.decode((String, Double).self) {
                    existing = PlaylistLink(
                        record: link.record, playlist: SpotifyID(unchecked: playlist),
                        linkedAt: Date(timeIntervalSince1970: linkedAt))
                }
                let decision = RestoreReport.decision(
                    existing: existing, restored: link, replacingNewer: replacingNewer)
                report.note(decision, link)
                guard decision == .add || decision == .replace else { continue }
                try await connection.query(
                    """
                    INSERT INTO spotlink_playlist (user_key, id) VALUES (\(self.user), \(link.playlist.rawValue))
                    ON CONFLICT (user_key, id) DO NOTHING
                    """, logger: self.logger)
                try await self.saveLink(
                    link.record, to: link.playlist, at: link.linkedAt.timeIntervalSince1970, connection)
            }
            return report
        }
    }

    /// Forgets what Spotify said of this user's playlists, in one transaction; other users' rows
    /// are not touched. PostgreSQL reclaims the dead rows' space at its next (auto)vacuum.
    public func forgetSpotifyDetails() async throws {
        try await transaction("forget the Spotify details") { connection in
            // First: the epoch's row lock makes a guarded edit under way end before this forget
            // clears, and every later one read the new epoch.
            try await connection.query(
                """
                INSERT INTO spotlink_forget_epoch (user_key, epoch) VALUES (\(self.user), 1)
                ON CONFLICT (user_key) DO UPDATE SET epoch = spotlink_forget_epoch.epoch + 1
                """, logger: self.logger)
            try await connection.query("DELETE FROM spotlink_cover WHERE user_key = \(self.user)", logger: self.logger)
            try await connection.query(
                "DELETE FROM spotlink_library WHERE user_key = \(self.user)", logger: self.logger)
            try await connection.query(
                """
                DELETE FROM spotlink_playlist p WHERE p.user_key = \(self.user) AND NOT EXISTS (
                    SELECT 1 FROM spotlink_link l WHERE l.user_key = p.user_key AND l.playlist_id = p.id)
                """, logger: self.logger)
            try await connection.query(
                PostgresPlaylistRow.update(user: self.user, to: PlaylistMetadata.forgotten), logger: self.logger)
        }
    }

    // MARK: - Covers

    @discardableResult
    public func saveCover(_ bytes: Data, for id: SpotifyID, ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        let now = clock.now.timeIntervalSince1970
        return try await transaction("save a cover") { connection in
            if let epoch, try await self.lockedEpoch(connection) != epoch { return false }
            try await connection.query(
                """
                INSERT INTO spotlink_cover (user_key, playlist_id, bytes, size, last_used_at)
                VALUES (\(self.user), \(id.rawValue), \(bytes), \(bytes.count), \(now))
                ON CONFLICT (user_key, playlist_id)
                DO UPDATE SET bytes = excluded.bytes, size = excluded.size, last_used_at = excluded.last_used_at
                """, logger: self.logger)
            var covers: [(id: SpotifyID, size: Int)] = []
            let rows = try await connection.query(
                """
                SELECT playlist_id, size FROM spotlink_cover WHERE user_key = \(self.user)
                ORDER BY last_used_at, playlist_id FOR UPDATE
                """, logger: self.logger)
            for try await (playlist, size) in rows.decode((String, Int).self) {
                covers.append((SpotifyID(unchecked: playlist), size))
            }
            for evicted in CoverBudget.evictions(covers, limit: self.coverCacheLimit, keeping: id) {
                try await connection.query(
                    "DELETE FROM spotlink_cover WHERE user_key = \(self.user) AND playlist_id = \(evicted.rawValue)",
                    logger: self.logger)
            }
            return true
        }
    }

    public func cover(for id: SpotifyID) async throws -> Data? {
        try await read("read a cover") { connection in
            let rows = try await connection.query(
                "SELECT bytes FROM spotlink_cover WHERE user_key = \(self.user) AND playlist_id = \(id.rawValue)",
                logger: self.logger)
            for try await (bytes) in rows.decode(Data.self) { return bytes }
            return nil
        }
    }

    // MARK: - The picker's library

    @discardableResult
    public func replaceLibrary(_ playlists: [LibraryPlaylist], ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        try await transaction("save the library") { connection in
            if let epoch, try await self.lockedEpoch(connection) != epoch { return false }
            try await connection.query(
                "DELETE FROM spotlink_library WHERE user_key = \(self.user)", logger: self.logger)
            for (position, playlist) in playlists.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO spotlink_library
                        (user_key, id, name, owner_name, track_count, cover_url, snapshot_id, access, position)
                    VALUES (\(self.user), \(playlist.id.rawValue), \(playlist.name), \(playlist.ownerName),
                            \(playlist.trackCount), \(playlist.coverURL?.absoluteString), \(playlist.snapshotID),
                            \(playlist.access?.rawValue), \(position))
                    ON CONFLICT (user_key, id) DO UPDATE SET name = excluded.name, owner_name = excluded.owner_name,
                        track_count = excluded.track_count, cover_url = excluded.cover_url,
                        snapshot_id = excluded.snapshot_id, access = excluded.access, position = excluded.position
                    """, logger: self.logger)
            }
            return true
        }
    }

    public func library() async throws -> [LibraryPlaylist] {
        try await read("read the library") { connection in
            let rows = try await connection.query(
                """
                SELECT id, name, owner_name, track_count, cover_url, snapshot_id, access FROM spotlink_library
                WHERE user_key = \(self.user) ORDER BY position
                """, logger: self.logger)
            var library: [LibraryPlaylist] = []
            for try await (id, name, owner, count, cover, snapshot, access) in rows.decode(
                (String, String, String?, Int?, String?, String?, String?).self)
            {
                library.append(
                    LibraryPlaylist(
                        id: SpotifyID(unchecked: id), name: name, ownerName: owner, trackCount: count,
                        coverURL: cover.flatMap(URL.init(string:)), snapshotID: snapshot,
                        access: access.flatMap(PlaylistAccess.init)))
            }
            return library
        }
    }

    // MARK: - Plumbing

    private func metadata(_ query: PostgresQuery) async throws -> [PlaylistMetadata] {
        try await read("read playlists") { connection in try await self.metadata(query, connection) }
    }

    private func metadata(_ query: PostgresQuery, _ connection: PostgresConnection) async throws -> [PlaylistMetadata] {
        var found: [PlaylistMetadata] = []
        let rows = try await connection.query(query, logger: logger)
        for try await row in rows { found.append(try PostgresPlaylistRow.metadata(row.makeRandomAccess())) }
        return found
    }

    /// Links `record` to `playlist` at `linkedAt`, replacing the record's link.
    private func saveLink(
        _ record: RecordID, to playlist: SpotifyID, at linkedAt: Double, _ connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            INSERT INTO spotlink_link (user_key, namespace, record_id, playlist_id, linked_at)
            VALUES (\(user), \(record.namespace), \(record.id), \(playlist.rawValue), \(linkedAt))
            ON CONFLICT (user_key, namespace, record_id)
            DO UPDATE SET playlist_id = excluded.playlist_id, linked_at = excluded.linked_at
            """, logger: logger)
    }

    private func read<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await PostgresFailure.wrapping(doing, within: deadline, clock: deadlineClock) {
            try await self.client.withConnection { try await body($0) }
        }
    }

    private func transaction<T: Sendable>(
        _ doing: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await PostgresFailure.wrapping(doing, within: deadline, clock: deadlineClock) {
            try await self.client.withTransaction(logger: self.logger) { try await body($0) }
        }
    }
}
