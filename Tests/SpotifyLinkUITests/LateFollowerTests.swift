import Foundation
import SpotifyAuth
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

        /// The next status the follower reached; fails loudly if none comes in 10 s.
        func next(_ what: String) async -> SpotifySession.Status? {
            let heard = heard.stream
            return await withTaskGroup(of: SpotifySession.Status?.self) { group in
                group.addTask {
                    var iterator = heard.makeAsyncIterator()
                    return await iterator.next()
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                if first == nil { Issue.record("gave up after 10 s waiting for the follower to hear \(what)") }
                return first
            }
        }
    }

    static func emulator() async throws -> EmulatorServer {
        var configuration = EmulatorConfiguration()
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        return try await EmulatorServer.start(configuration)
    }

    static func connection(_ emulator: EmulatorServer, follower: HeldFollower) -> SpotifyConnectionModel {
        let session = SpotifySession(
            endpoint: TokenEndpoint(server: .emulator(url: emulator.baseURL), clientID: "spotlink-demo"),
            store: MemoryTokenStore())
        return SpotifyConnectionModel(
            session: session, client: SpotifyClient(configuration: .emulator(url: emulator.baseURL), tokens: session),
            redirectURI: "myapp://spotify-callback", beforeFollowing: follower.gate)
    }

    @Test func aSignedOutHeardAfterTheSignInFinishedLeavesTheModelConnected() async throws {
        let emulator = try await Self.emulator()
        defer { Task { await emulator.stop() } }
        do {
            let follower = HeldFollower()
            let model = Self.connection(emulator, follower: follower)
            // The follower hears the first status, "signed out", and is held there.
            #expect(await follower.next("the first status") == .signedOut)
            model.connect { url, _ in try await ConsentBrowser().callback(for: url) }
            await model.waitForConnect()
            #expect(model.isConnected)
            // Now the late "signed out" reaches the model; the sign-in's own "signed in" follows it.
            follower.letGo()
            #expect(await follower.next("the sign-in's status") == .signedIn)
            #expect(model.isConnected, "a late status turned the model to \(model.state)")
            follower.letGo()
        }
    }

    @Test func aSignedInHeardAfterDisconnectingLeavesTheModelDisconnectedAndANewerEndStillShows() async throws {
        let emulator = try await Self.emulator()
        defer { Task { await emulator.stop() } }
        do {
            let follower = HeldFollower()
            let model = Self.connection(emulator, follower: follower)
            #expect(await follower.next("the first status") == .signedOut)
            model.connect { url, _ in try await ConsentBrowser().callback(for: url) }
            await model.waitForConnect()
            await model.disconnect()
            #expect(model.state == .disconnected)
            follower.letGo()
            #expect(await follower.next("the sign-in's status") == .signedIn)
            follower.letGo()
            #expect(await follower.next("the sign-out's status") == .signedOut)
            #expect(model.state == .disconnected)
            follower.letGo()
        }
    }
}
