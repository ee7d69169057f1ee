import Foundation
import SpotifyAuth
import SpotifyLinkUI
import SpotifyWebAPI
import Testing

/// A sign-in that is finishing when the user disconnects must not leave tokens behind: disconnect
/// waits for it, then signs out. The sign-in here ignores cancellation, as a browser flow that
/// already has its code does, and saves its tokens only after disconnect has begun.
@MainActor
@Suite("Disconnect during a sign-in")
struct DisconnectRaceTests {
    @Test func aSignInThatFinishesAfterDisconnectBeganLeavesNoTokens() async throws {
        let server = AuthorizationServer.emulator(url: URL(string: "http://127.0.0.1:9")!)
        let session = SpotifySession(
            endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: MemoryTokenStore())
        let entered = AsyncStream.makeStream(of: Void.self)
        let release = AsyncStream.makeStream(of: Void.self)
        let model = SpotifyConnectionModel(
            session: session,
            client: SpotifyClient(configuration: .emulator(url: URL(string: "http://127.0.0.1:9")!), tokens: session)
        ) { session, _ in
            entered.continuation.yield()
            for await _ in release.stream { break }
            let now = Date()
            try await session.signedIn(
                StoredTokens(
                    accessToken: AccessToken("SENTINEL_AT_late"), refreshToken: RefreshToken("SENTINEL_RT_late"),
                    expiresAt: now.addingTimeInterval(3600), scopes: SpotifyScope.all, signedInAt: now,
                    issuer: server.issuer, clientID: "spotlink-demo"))
        }
        model.connect()
        var entries = entered.stream.makeAsyncIterator()
        await entries.next()
        let disconnecting = Task { await model.disconnect() }
        // Let disconnect reach its wait, then let the sign-in save its tokens.
        for _ in 0..<50 { await Task.yield() }
        release.continuation.yield()
        release.continuation.finish()
        await disconnecting.value
        #expect(try await session.tokens() == nil, "tokens saved by the finishing sign-in outlived the disconnect")
        #expect(model.state == .disconnected)
    }
}
