public import Foundation
public import GRDB
@_spi(Storage) public import PlaylistLinks

extension LinkedPlaylists {
    /// The links in the SQLite file at `file` (created 0600, in a 0700 folder, when missing),
    /// opened and migrated now: what a tool or an app without `SpotifyLink` keeps on the device.
    ///
    /// ```swift
    /// let links = try LinkedPlaylists.sqlite(file: appSupport.appendingPathComponent("links.sqlite"))
    /// ```
    /// - Parameters:
    ///   - file: the database file.
    ///   - configuration: the app's GRDB configuration, for example with
    ///     `observesSuspensionNotifications` for a file in an App Group container. The store turns
    ///     foreign keys on and, unless the configuration has its own, waits up to five seconds for
    ///     another process's write.
    /// - Throws: `PlaylistLinksError` with code `.database` when the file cannot be opened.
    public static func sqlite(file: URL, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws
        -> LinkedPlaylists
    {
        LinkedPlaylists(try SQLitePlaylistLinkStore(location: .file(file), configuration: configuration))
    }

    /// The links in the tables this package keeps in a database the app already owns, migrated on
    /// `writer` now: the file keeps one connection pool, and the app's own tables sit beside them.
    /// The writer must enforce foreign keys (GRDB's default configuration does).
    /// - Throws: `PlaylistLinksError` with code `.database` when the tables cannot be migrated or
    ///   the writer does not enforce foreign keys.
    public static func sqlite(writer: any DatabaseWriter) throws -> LinkedPlaylists {
        LinkedPlaylists(try SQLitePlaylistLinkStore(writer: writer))
    }

    /// Links in memory alone, gone with the value: for tests and previews.
    public static func inMemory() -> LinkedPlaylists {
        LinkedPlaylists(SQLitePlaylistLinkStore(deferring: .inMemory, configuration: nil, protection: .platform))
    }
}
