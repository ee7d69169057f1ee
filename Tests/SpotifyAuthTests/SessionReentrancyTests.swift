import Foundation
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

/// A store whose answers wait at a gate: a keyring waiting for its password prompt.
final class SlowStore: TokenStore {
    let inner = MemoryTokenStore()
    let gate = TestGate()
    var kind: TokenStoreKind { inner.kind }

    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
        await gate.hold()
        return try await inner.load(key)
    }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        await gate.hold()
        try await inner.save(tokens, for: key)
    }
    func remove(_ key: SpotifyAppKey) async throws {
        await gate.hold()
        try await inner.remove(key)
    }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await inner.acquireLock(key) }
}

/// The store is asynchronous, so a session's actor runs other calls while the store answers;
/// these prove that no such interleaving loses or resurrects tokens.
@Suite("Session and a slow store")
struct SessionReentrancyTests {
    let clock = VirtualClock()

    /// A session whose stored token has expired, and whose refresh answer waits at `answer`.
    func sessionWhoseRefreshWaits() async throws -> (MemoryTokenStore, TestGate, SpotifySession) {
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let answer = TestGate()
        let transport = ScriptedTransport { _, _ in
            await answer.hold()
            return .json(#"{"access_token":"SENTINEL_AT_new","refresh_token":"SENTINEL_RT_2","expires_in":3600}"#)
        }
        return (store, answer, session(transport, store: store, clock: clock))
    }

    @Test func aSignOutDuringARefreshLeavesNoTokens() async throws {
        let (store, answer, subject) = try await sessionWhoseRefreshWaits()
        let refreshing = Task { try await subject.accessToken() }
        try await waitUntil("the refresh reached Spotify") { answer.hasArrived }
        let signingOut = Task { try await subject.signOut() }
        // The sign-out waits its turn at the store behind the refresh: seen parked, not assumed.
        try await waitUntil("the sign-out waits for the store") { await subject.storeWaiterCount == 1 }
        answer.open()
        _ = try? await refreshing.value
        _ = try await signingOut.value
        #expect(try await store.load(testKey) == nil, "the refreshed tokens were saved after the sign-out")
        #expect(try await subject.tokens() == nil)
        #expect(await subject.status == .signedOut)
    }

    @Test func callersWaitingForTheFirstLoadAllSeeTheStoredTokens() async throws {
        let store = SlowStore()
        try await store.inner.save(storedTokens(clock: clock), for: testKey)
        let subject = session(ScriptedTransport([]), store: store, clock: clock)
        let readers = (0..<4).map { _ in Task { try await subject.accessToken() } }
        try await waitUntil("a load reached the store") { store.gate.hasArrived }
        // The actor is free while the store waits: it answers a call that needs no store.
        #expect(await subject.status == .signedOut)
        store.gate.open()
        for reader in readers { #expect(try await reader.value.unredactedValue == "SENTINEL_AT_old") }
    }

    @Test func rememberingTheAccountDuringARefreshKeepsTheRefreshedTokens() async throws {
        let (store, answer, subject) = try await sessionWhoseRefreshWaits()
        _ = try await subject.tokens()
        let refreshing = Task { try await subject.accessToken() }
        try await waitUntil("the refresh reached Spotify") { answer.hasArrived }
        let user = try JSONDecoder().decode(
            CurrentUser.self, from: Data(#"{"id":"learner","display_name":"Learner","account_id":"acc-1"}"#.utf8))
        let remembering = Task { try await subject.remember(user) }
        try await waitUntil("remembering waits for the store") { await subject.storeWaiterCount == 1 }
        answer.open()
        #expect(try await refreshing.value.unredactedValue == "SENTINEL_AT_new")
        _ = try await remembering.value
        let stored = try #require(try await store.load(testKey))
        #expect(stored.accessToken.unredactedValue == "SENTINEL_AT_new", "an older copy was written over the refresh")
        #expect(stored.refreshToken?.unredactedValue == "SENTINEL_RT_2")
        #expect(stored.account != nil)
    }
}
