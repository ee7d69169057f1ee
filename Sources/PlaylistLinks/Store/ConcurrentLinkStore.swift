package import Foundation
package import SpotifyWebAPI

/// A store whose every call runs off the caller's actor. `SQLitePlaylistLinkStore` (`PlaylistLinksSQLite`) answers
/// synchronously, and a synchronous method that satisfies an `async` requirement runs where it is
/// called: from a view model, on the main actor. There the first call would open and migrate the
/// database, and a write another process (a widget) holds would make it wait up to the busy
/// timeout. The view models of `SpotifyLinkUI` wrap their store in this, so the main actor only
/// awaits.
package struct ConcurrentLinkStore: PlaylistLinkStore {
    /// The store every call goes to.
    package let base: any PlaylistLinkStore

    /// `store`, called off the caller's actor; a store already wrapped is not wrapped again.
    package init(_ store: any PlaylistLinkStore) {
        base = (store as? ConcurrentLinkStore)?.base ?? store
    }

    @concurrent package func saveLink(_ record: RecordID, to metadata: PlaylistMetadata, replacingMetadata: Bool)
        async throws
    {
        try await base.saveLink(record, to: metadata, replacingMetadata: replacingMetadata)
    }

    @concurrent package func saveLink(
        _ record: RecordID, to id: SpotifyID,
        merging merge: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws {
        try await base.saveLink(record, to: id, merging: merge)
    }

    @concurrent package func removeLink(for record: RecordID) async throws -> Bool {
        try await base.removeLink(for: record)
    }

    @concurrent package func link(for record: RecordID) async throws -> PlaylistLink? {
        try await base.link(for: record)
    }

    @concurrent package func links() async throws -> [PlaylistLink] { try await base.links() }

    @concurrent package func metadata(for id: SpotifyID) async throws -> PlaylistMetadata? {
        try await base.metadata(for: id)
    }

    @concurrent package func allMetadata() async throws -> [PlaylistMetadata] { try await base.allMetadata() }

    @concurrent package func saveMetadata(_ metadata: PlaylistMetadata) async throws {
        try await base.saveMetadata(metadata)
    }

    @concurrent package func card(for record: RecordID) async throws -> PlaylistCard? {
        try await base.card(for: record)
    }

    @concurrent package func saveCover(_ bytes: Data, for id: SpotifyID) async throws {
        try await base.saveCover(bytes, for: id)
    }

    @concurrent package func cover(for id: SpotifyID) async throws -> Data? { try await base.cover(for: id) }

    @concurrent package func replaceLibrary(_ playlists: [LibraryPlaylist]) async throws {
        try await base.replaceLibrary(playlists)
    }

    @concurrent package func library() async throws -> [LibraryPlaylist] { try await base.library() }

    @concurrent package func forgetSpotifyDetails() async throws { try await base.forgetSpotifyDetails() }

    @concurrent package func expire(detailsSavedBefore: Date, coversShownBefore: Date, at now: Date) async throws {
        try await base.expire(detailsSavedBefore: detailsSavedBefore, coversShownBefore: coversShownBefore, at: now)
    }

    @concurrent package func coverShown(for id: SpotifyID, at now: Date) async throws {
        try await base.coverShown(for: id, at: now)
    }

    @concurrent package func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool)
        async throws -> RestoreReport
    {
        try await base.restore(links: links, metadata: metadata, replacingNewer: replacingNewer)
    }
}
