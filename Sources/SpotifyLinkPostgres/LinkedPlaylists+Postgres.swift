public import Logging
@_spi(Storage) public import PlaylistLinks
public import PostgresNIO

extension LinkedPlaylists {
    /// The links of `user` (the Spotify account ID, or the server's own user key) in the
    /// PostgreSQL database `client` reaches: every row written carries that key and every query is
    /// limited to it, so one user's links can neither read nor change another's. The server owns
    /// the `PostgresClient` (its pool, its TLS, its `run()`) and runs
    /// ``PostgresSchema/migrate(_:deadline:logger:)`` once at start-up.
    ///
    /// ```swift
    /// try await PostgresSchema.migrate(databaseURL)  // at start-up: a wrong URL fails here, named
    /// let client = PostgresClient(configuration: try PostgresURL.configuration(databaseURL))
    /// // … run the client in a task group, then, per request:
    /// let links = try LinkedPlaylists.postgres(client: client, user: accountID)
    /// try await links.link(RecordID(namespace: "session", id: "42"), to: playlistID)
    /// ```
    /// - Parameters:
    ///   - client: the server's PostgreSQL client.
    ///   - user: whose links these are.
    ///   - deadline: how long one call may take before it fails with `.database`, naming the call.
    ///   - logger: PostgresNIO's messages, silent unless given.
    /// - Throws: `PlaylistLinksError` with code `.invalidArgument` for an empty user.
    public static func postgres(
        client: PostgresClient, user: String, deadline: Duration = PostgresDeadline.default,
        logger: Logger = Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> LinkedPlaylists {
        LinkedPlaylists(try PostgresPlaylistLinkStore(client: client, user: user, deadline: deadline, logger: logger))
    }
}
