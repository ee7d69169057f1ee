package import Foundation
package import HTTPTypes
@_spi(Storage) package import PlaylistLinks
@_spi(Storage) package import SpotifyAuth
import SpotifyLinkSupport
@_spi(Transport) package import SpotifyWebAPI
import Synchronization

/// A transport that reports each request to ``SuspensionPoints`` before it sends it, and counts
/// the Web API's requests that reached it (what the ledger must have counted, no more).
package final class TracedTransport: Transport {
    private let inner: any Transport
    private let points: SuspensionPoints
    private let apiRequests = Lock(0)

    /// `inner`, reporting to `points`.
    package init(_ inner: any Transport, points: SuspensionPoints) {
        self.inner = inner
        self.points = points
    }

    /// Requests to the Web API (`/v1/…`) that reached the transport, sent or not.
    package var apiRequestCount: Int { apiRequests.withLock { $0 } }

    package func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws -> (
        HTTPResponse, Data
    ) {
        let path = request.path ?? ""
        if path.hasPrefix("/v1/") { apiRequests.withLock { $0 += 1 } }
        await points.reach("\(request.method) \(path.split(separator: "?").first.map(String.init) ?? path)")
        return try await inner.send(request, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}

/// A clock that reports each sleep to ``SuspensionPoints`` before it sleeps.
package struct TracedClock: SpotifyClock {
    private let inner: any SpotifyClock
    private let points: SuspensionPoints

    /// `inner`, reporting to `points`.
    package init(_ inner: any SpotifyClock, points: SuspensionPoints) {
        self.inner = inner
        self.points = points
    }

    package var now: Date { inner.now }

    package func sleep(for duration: Duration) async throws {
        await points.reach("sleep \(duration)")
        try await inner.sleep(for: duration)
    }
}

/// A token store that reports each call to ``SuspensionPoints`` before it makes it.
package final class TracedTokenStore: TokenStore {
    private let inner: any TokenStore
    private let points: SuspensionPoints

    /// `inner`, reporting to `points`.
    package init(_ inner: any TokenStore, points: SuspensionPoints) {
        self.inner = inner
        self.points = points
    }

    package var kind: TokenStoreKind { inner.kind }

    package func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
        await points.reach("tokens.load")
        return try await inner.load(key)
    }

    package func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        await points.reach("tokens.save")
        try await inner.save(tokens, for: key)
    }

    package func remove(_ key: SpotifyAppKey) async throws {
        await points.reach("tokens.remove")
        try await inner.remove(key)
    }

    package func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock {
        await points.reach("tokens.lock")
        return try await inner.acquireLock(key)
    }
}

/// A link store that reports each call to ``SuspensionPoints`` before it makes it.
package final class TracedLinkStore: PlaylistLinkStore {
    private let inner: any PlaylistLinkStore
    private let points: SuspensionPoints

    /// `inner`, reporting to `points`.
    package init(_ inner: any PlaylistLinkStore, points: SuspensionPoints) {
        self.inner = inner
        self.points = points
    }

    package var clock: any SpotifyClock { inner.clock }
    package var coverCacheLimit: Int { inner.coverCacheLimit }

    /// `body`, the store's call, between the point before it and (when the points trace returns)
    /// the point after it.
    private func traced<Value>(_ label: String, _ body: () async throws -> Value) async throws -> Value {
        await points.reach(label)
        let value = try await body()
        await points.returned(label)
        return value
    }

    package func forgetEpoch() async throws -> ForgetEpoch {
        return try await traced("links.forgetEpoch") { try await inner.forgetEpoch() }
    }

    package func editPlaylist(
        _ id: SpotifyID, linking record: RecordID?, ifEpoch epoch: ForgetEpoch?,
        _ edit: @escaping @Sendable (PlaylistMetadata?) -> PlaylistMetadata
    ) async throws -> Bool {
        return try await traced("links.editPlaylist") {
            try await inner.editPlaylist(id, linking: record, ifEpoch: epoch, edit)
        }
    }

    package func removeLink(for record: RecordID) async throws -> PlaylistLink? {
        return try await traced("links.removeLink") { try await inner.removeLink(for: record) }
    }

    package func link(for record: RecordID) async throws -> PlaylistLink? {
        return try await traced("links.link") { try await inner.link(for: record) }
    }

    package func links() async throws -> [PlaylistLink] {
        return try await traced("links.links") { try await inner.links() }
    }

    package func metadata(for id: SpotifyID) async throws -> PlaylistMetadata? {
        return try await traced("links.metadata") { try await inner.metadata(for: id) }
    }

    package func snapshot() async throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        return try await traced("links.snapshot") { try await inner.snapshot() }
    }

    package func card(for record: RecordID) async throws -> PlaylistCard? {
        return try await traced("links.card") { try await inner.card(for: record) }
    }

    package func card(for record: RecordID, detailsSavedBefore: Date, coversShownBefore: Date, at now: Date)
        async throws -> PlaylistCard?
    {
        return try await traced("links.cardWithRetention") {
            try await inner.card(
                for: record, detailsSavedBefore: detailsSavedBefore, coversShownBefore: coversShownBefore, at: now)
        }
    }

    package func saveCover(_ bytes: Data, for id: SpotifyID, ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        return try await traced("links.saveCover") { try await inner.saveCover(bytes, for: id, ifEpoch: epoch) }
    }

    package func cover(for id: SpotifyID) async throws -> Data? {
        return try await traced("links.cover") { try await inner.cover(for: id) }
    }

    package func replaceLibrary(_ playlists: [LibraryPlaylist], ifEpoch epoch: ForgetEpoch?) async throws -> Bool {
        return try await traced("links.replaceLibrary") { try await inner.replaceLibrary(playlists, ifEpoch: epoch) }
    }

    package func library() async throws -> [LibraryPlaylist] {
        return try await traced("links.library") { try await inner.library() }
    }

    package func forgetSpotifyDetails() async throws {
        try await traced("links.forgetSpotifyDetails") { try await inner.forgetSpotifyDetails() }
    }

    package func restore(links: [PlaylistLink], metadata: [PlaylistMetadata], replacingNewer: Bool) async throws
        -> RestoreReport
    {
        return try await traced("links.restore") {
            try await inner.restore(links: links, metadata: metadata, replacingNewer: replacingNewer)
        }
    }
}
