import Foundation
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyAuth
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// A reinstalled app starts signed out. Keychain items outlive the app's deletion; the data folder
/// does not. Here the token store is one that outlives the folders (as the Keychain outlives the
/// app), and each `SpotifyLink` is a launch of the app.
@MainActor
@Suite("A reinstalled app starts signed out")
struct ReinstallTests {
    let server = AuthorizationServer.emulator(url: URL(string: "http://127.0.0.1:9")!)

    func tokens() -> StoredTokens {
        StoredTokens(
            accessToken: AccessToken("SENTINEL_AT_previous"), refreshToken: RefreshToken("SENTINEL_RT_previous"),
            expiresAt: Date().addingTimeInterval(3600), scopes: SpotifyScope.all, signedInAt: Date(),
            issuer: server.issuer, clientID: "spotlink-demo")
    }

    func launch(folder: URL, store: any TokenStore) -> SpotifyLink {
        var configuration = SpotifyLink.Configuration(
            clientID: "spotlink-demo", redirectURI: "myapp://spotify-callback", server: server)
        configuration.folder = folder
        configuration.tokenStore = store
        configuration.clock = VirtualClock()
        return SpotifyLink(configuration)
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("reinstall-\(UUID().uuidString)")
    }

    @Test func theFirstLaunchAfterAnInstallForgetsTheKeychainsSignInAndLaterLaunchesKeepTheirs() async throws {
        let store = MemoryTokenStore()
        let key = SpotifyAppKey(issuer: server.issuer, clientID: "spotlink-demo")
        try await store.save(tokens(), for: key)  // the deleted install's sign-in
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let first = launch(folder: folder, store: store)
        #expect(try await first.session.tokens() == nil, "the reinstalled app found the previous account's sign-in")
        #expect(try await store.load(key) == nil, "the previous install's sign-in is still in the store")
        #expect(await first.session.status == .signedOut)

        // The user connects; the next launch (same folder) keeps that sign-in.
        try await store.save(tokens(), for: key)
        let second = launch(folder: folder, store: store)
        #expect(try await second.session.tokens() != nil)
    }

    /// An app updated from a version without the marker is not a new install: its data folder
    /// already has the databases, and its sign-in stays.
    @Test func anUpgradeKeepsTheSignIn() async throws {
        let store = MemoryTokenStore()
        let key = SpotifyAppKey(issuer: server.issuer, clientID: "spotlink-demo")
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The earlier version's folder: its databases, no marker.
        _ = try SQLitePlaylistLinkStore(location: .file(folder.appendingPathComponent("links.sqlite")))
        try await store.save(tokens(), for: key)

        let upgraded = launch(folder: folder, store: store)
        #expect(try await upgraded.session.tokens() != nil)
        #expect(try await store.load(key) != nil)
    }
}
