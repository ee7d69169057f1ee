import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyAuthLoopback
@testable import SpotifyWebAPI

/// A store that cannot keep anything (a full disk, a locked keyring).
final class FailingStore: TokenStore {
    let saves = Lock(0)
    var kind: TokenStoreKind { .memory }
    func load(_ key: SpotifyAppKey) throws -> StoredTokens? { nil }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) throws {
        saves.withLock { $0 += 1 }
        throw TokenStoreError(code: .io, message: "the disk is full")
    }
    func remove(_ key: SpotifyAppKey) throws {}
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { ProcessLocalLock() }
}

@Suite("The browser hears \"connected\" only once the tokens are kept")
struct SignInSaveTests {
    @Test func aStoreThatCannotSaveMakesTheSuccessPageAFailurePage() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let store = FailingStore()
            let session = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: store)
            let page = Lock<ConsentBrowser.Visit?>(nil)
            let error = try await #require(throws: TokenStoreError.self) {
                try await LoopbackSignIn(timeout: .seconds(30)).run(
                    session: session
                ) { url in
                    let visit = try await ConsentBrowser().visit(url)
                    page.withLock { $0 = visit }
                }
            }
            #expect(error.message.contains("disk is full"))
            let visit = try #require(page.withLock { $0 })
            #expect(visit.finalStatus == 500)
            #expect(visit.finalPage.contains("could not be saved") && !visit.finalPage.contains("is connected"))
            #expect(store.saves.withLock { $0 } == 1)
            #expect(try await session.tokens() == nil)
        }
    }
}
