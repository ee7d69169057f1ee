import Foundation
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

/// The connection model follows the session's status from a task of its own, which the scheduler
/// may run late: a status it hears after the model saw a newer one itself must not undo it. (Two
/// UI suites failed 2 runs of 12 with "not connected: disconnected" when the follower delivered
/// the first `.signedOut` after the sign-in had set "connected".)
@MainActor
@Suite("The connection model and a late status follower")
struct LateFollowerTests {
    /// Holds the follower before each status it hears until the test lets it go, and says which
    /// statuses reached it.
    final class HeldFollower: Sendable {
        private let heard = AsyncStream.makeStream(of: SpotifySession.Status.self)
        private let release = AsyncStream.makeStream(of: Void.self)

        var gate: @Sendable (SpotifySession.Status) async -> Void {
            { [heard, release] status in
                heard.continuation.yield(status)
                for await _ in release.stream { break }
            }
        }

        /// Lets the follower act on the status it holds.
        func letGo() { release.continuation.yield() }

        /// The next status the follower reached; gives up loudly if none comes in 10 s.
        func next(_ what: String) async throws -> SpotifySession.Status {
            try await nextElement(of: heard.stream, "the follower to hear \(what)")
        }
    }

    static func emulator() async throws -> EmulatorServer {
        var configuration = EmulatorConfiguration()
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        return try await EmulatorServer.startForTest(configuration)
    }

    /// A connection model whose follower is held at the first status ("signed out") while the
    /// user connects: the sign-in ends before the follower hears anything.
    static func connectedWhileTheFollowerIsHeld(_ emulator: EmulatorServer) async throws
        -> (SpotifyConnectionModel, HeldFollower)
    {
        let follower = HeldFollower()
        let session = SpotifySession(
            endpoint: TokenEndpoint(
                server: .emulator(url: emulator.baseURL), clientID: "spotlink-demo", transport: PatientTransport()),
            store: MemoryTokenStore())
        let model = SpotifyConnectionModel(
            session: session,
            client: SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport()),
            redirectURI: "myapp://spotify-callback", beforeFollowing: follower.gate)
        #expect(try await follower.next("the first status") == .signedOut)
        model.connect { url, _ in try await ConsentBrowser().callback(for: url) }
        await model.waitForConnect()
        return (model, follower)
    }

    @Test func aSignedOutHeardAfterTheSignInFinishedLeavesTheModelConnected() async throws {
        let emulator = try await Self.emulator()
        defer { Task { await emulator.stop() } }
        let (model, follower) = try await Self.connectedWhileTheFollowerIsHeld(emulator)
        #expect(model.isConnected)
        // Now the late "signed out" reaches the model; the sign-in's own "signed in" follows it.
        follower.letGo()
        #expect(try await follower.next("the sign-in's status") == .signedIn)
        #expect(model.isConnected, "a late status turned the model to \(model.phase)")
        follower.letGo()
    }

    @Test func aSignedInHeardAfterDisconnectingLeavesTheModelDisconnected() async throws {
        let emulator = try await Self.emulator()
        defer { Task { await emulator.stop() } }
        let (model, follower) = try await Self.connectedWhileTheFollowerIsHeld(emulator)
        await model.disconnect()
        #expect(model.phase == .disconnected)
        follower.letGo()
        #expect(try await follower.next("the sign-in's status") == .signedIn)
        follower.letGo()
        #expect(try await follower.next("the sign-out's status") == .signedOut)
        #expect(model.phase == .disconnected)
        follower.letGo()
    }

    /// An app launched with a stored sign-in: whichever of the follower and `load()` hears the
    /// session's "signed in" first, the model ends connected.
    @Test func launchingWithAStoredSignInConnectsWhicheverHearsItFirst() async throws {
        let emulator = try await Self.emulator()
        defer { Task { await emulator.stop() } }
        let (connected, _) = try await Self.connectedWhileTheFollowerIsHeld(emulator)
        let store = MemoryTokenStore()
        let stored = try #require(try await connected.session.tokens())
        try await store.save(stored, for: connected.session.key)
        // The relaunched app: a new session over the same store. Its follower hears the first
        // status, then the "signed in" of the store's first read, before the model's load() runs.
        let session = SpotifySession(endpoint: connected.session.endpoint, store: store)
        let follower = HeldFollower()
        let model = SpotifyConnectionModel(
            session: session,
            client: SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport()),
            redirectURI: "myapp://spotify-callback", beforeFollowing: follower.gate)
        #expect(try await follower.next("the first status") == .signedOut)
        follower.letGo()
        _ = try await session.tokens()
        #expect(try await follower.next("the store's first read") == .signedIn)
        follower.letGo()
        await model.load()
        #expect(model.isConnected, "after load: \(model.phase)")
    }
}
