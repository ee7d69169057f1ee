import Foundation
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

/// A store whose saves wait until the test lets them go.
final class HeldSaveStore: TokenStore {
    let inner = MemoryTokenStore()
    let saving = AsyncStream.makeStream(of: Void.self)
    let release = AsyncStream.makeStream(of: Void.self)
    var kind: TokenStoreKind { inner.kind }
    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { try await inner.load(key) }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        saving.continuation.yield()
        for await _ in release.stream { break }
        try await inner.save(tokens, for: key)
    }
    func remove(_ key: SpotifyAppKey) async throws { try await inner.remove(key) }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await inner.acquireLock(key) }
}

/// A sign-in that is finishing when the user disconnects must not leave tokens behind: disconnect
/// waits for it, then signs out. Here the sign-in has its code and is saving its tokens (a save no
/// cancellation stops) when disconnect begins.
@MainActor
@Suite("Disconnect during a sign-in")
struct DisconnectRaceTests {
    @Test func aSignInThatFinishesAfterDisconnectBeganLeavesNoTokens() async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        let emulator = try await EmulatorServer.startForTest(configuration)
        defer { Task { await emulator.stop() } }
        let store = HeldSaveStore()
        let session = SpotifySession(
            endpoint: TokenEndpoint(
                server: .emulator(url: emulator.baseURL), clientID: "spotlink-demo", transport: PatientTransport()),
            store: store)
        let model = SpotifyConnectionModel(
            session: session,
            client: SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport()),
            redirectURI: "myapp://spotify-callback")
        model.connect { url, _ in try await ConsentBrowser().callback(for: url) }
        var saves = store.saving.stream.makeAsyncIterator()
        await saves.next()
        let disconnecting = Task { await model.disconnect() }
        // Disconnect reaches its wait (seen, not assumed), then the sign-in saves its tokens.
        try await waitUntil("disconnect waits for the sign-in") { model.disconnectsWaitingForSignIn == 1 }
        store.release.continuation.yield()
        store.release.continuation.finish()
        await disconnecting.value
        #expect(try await session.tokens() == nil, "tokens saved by the finishing sign-in outlived the disconnect")
        #expect(model.phase == .disconnected)
    }
}
