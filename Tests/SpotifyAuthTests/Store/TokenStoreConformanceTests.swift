import Foundation
import SpotifyTesting
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

/// One token store under test, fresh for each test, and how to clean it up.
struct StoreUnderTest: Sendable, CustomTestStringConvertible {
    let name: String
    /// Whether the store reads bytes (so a value written by a newer version can be met).
    let readsBytes: Bool
    let make: @Sendable () async throws -> (any TokenStore, @Sendable () -> Void)
    /// For a store that locks in a server rather than a folder: another process's attempt to
    /// take the lock of a key at once, which fails while the lock is held.
    var otherProcessTakesLock: (@Sendable (any TokenStore, SpotifyAppKey) async throws -> any TokenStoreLock)? = nil

    var testDescription: String { name }

    static var all: [StoreUnderTest] {
        var stores = [
            StoreUnderTest(name: "memory", readsBytes: false) { (MemoryTokenStore(), {}) },
            StoreUnderTest(name: "file", readsBytes: true) {
                let folder = temporaryDirectory()
                return (FileTokenStore(directory: folder), { try? FileManager.default.removeItem(at: folder) })
            },
            StoreUnderTest(name: "Keychain (the stand-in of its documented behaviour)", readsBytes: true) {
                (KeychainTokenStore(keychain: KeychainStandIn()), {})
            },
            StoreUnderTest(name: "Keychain, shared through an access group", readsBytes: true) {
                (KeychainTokenStore(accessGroup: "TEAMID.group.dev.spotifylink", keychain: KeychainStandIn()), {})
            },
            StoreUnderTest(name: "Keychain, with an App Group's lock folder", readsBytes: true) {
                let folder = temporaryDirectory()
                let store = KeychainTokenStore(
                    accessGroup: "group.dev.spotifylink", lockDirectory: folder.appendingPathComponent("locks"),
                    keychain: KeychainStandIn(entitledGroups: ["TEAMID.dev.spotifylink.app", "group.dev.spotifylink"]))
                return (store, { try? FileManager.default.removeItem(at: folder) })
            },
        ]
        #if os(Linux)
            if SecretServiceDaemon.shouldRun {
                stores.append(
                    StoreUnderTest(name: "Secret Service (a real keyring daemon)", readsBytes: true) {
                        (SecretServiceTokenStore(), {})
                    })
            }
        #endif
        if let postgres = PostgresTokenStoreUnderTest.subject() { stores.append(postgres) }
        return stores
    }
}

/// What every `TokenStore` promises, run against each implementation.
@Suite("Token store conformance", .serialized)
struct TokenStoreConformanceTests {
    let clock = VirtualClock()

    /// Keys no other test or run uses, so a real keyring's other items are never touched.
    static func keys() -> (SpotifyAppKey, SpotifyAppKey, SpotifyAppKey) {
        let issuer = "http://127.0.0.1:1/conformance-\(UUID().uuidString)"
        return (
            SpotifyAppKey(issuer: issuer, clientID: "spotlink-tests"),
            SpotifyAppKey(issuer: issuer, clientID: "another-app"),
            SpotifyAppKey(issuer: issuer + "x", clientID: "spotlink-tests")
        )
    }

    @Test(arguments: StoreUnderTest.all)
    func savesReadsUpdatesInPlaceAndRemoves(_ subject: StoreUnderTest) async throws {
        let (store, cleanUp) = try await subject.make()
        defer { cleanUp() }
        let (key, _, _) = Self.keys()
        await #expect(try store.load(key) == nil)
        let first = storedTokens(clock: clock)
        try await store.save(first, for: key)
        await #expect(try store.load(key) == first)
        let second = storedTokens(access: "SENTINEL_AT_new", refresh: "SENTINEL_RT_2", clock: clock)
        try await store.save(second, for: key)
        await #expect(try store.load(key) == second)
        try await store.remove(key)
        await #expect(try store.load(key) == nil)
        // Removing what is not there is not an error.
        try await store.remove(key)
    }

    @Test(arguments: StoreUnderTest.all)
    func keysKeepIssuersAndClientsApart(_ subject: StoreUnderTest) async throws {
        let (store, cleanUp) = try await subject.make()
        defer { cleanUp() }
        let (key, otherClient, otherIssuer) = Self.keys()
        defer { Task { for key in [key, otherClient, otherIssuer] { try? await store.remove(key) } } }
        try await store.save(storedTokens(clock: clock), for: key)
        try await store.save(storedTokens(access: "SENTINEL_AT_other", clock: clock), for: otherClient)
        await #expect(try store.load(otherIssuer) == nil)
        try await store.remove(key)
        await #expect(try store.load(otherClient)?.accessToken.unredactedValue == "SENTINEL_AT_other")
        try await store.remove(otherClient)
    }

    /// A sign-in written by a newer version is not guessed at: it is reported as `.corrupt`, once,
    /// without its contents, and the next read finds the store signed out.
    @Test(arguments: StoreUnderTest.all.filter(\.readsBytes))
    func aSignInFromANewerVersionIsReportedOnceAsCorrupt(_ subject: StoreUnderTest) async throws {
        let (store, cleanUp) = try await subject.make()
        defer { cleanUp() }
        let (key, _, _) = Self.keys()
        var future = storedTokens(clock: clock)
        future.version = StoredTokens.currentVersion + 1
        try await store.save(future, for: key)
        await #expect {
            try await store.load(key)
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.code == .corrupt && error?.message.contains("SENTINEL") == false
        }
        await #expect(try store.load(key) == nil)
    }

    /// A store with a lock folder shuts every other holder out until it releases: another
    /// process's attempt (here another open of the lock file, which `flock` treats the same) is
    /// refused while it holds the lock and succeeds after. A store without one says so: its lock is
    /// the process's own, and the session's single flight is what keeps one refresh at a time.
    @Test(arguments: StoreUnderTest.all)
    func theLockShutsOutOtherHoldersUntilReleased(_ subject: StoreUnderTest) async throws {
        let (store, cleanUp) = try await subject.make()
        defer { cleanUp() }
        let (key, _, _) = Self.keys()
        let lock = try await store.acquireLock(key)
        if let otherProcessTakesLock = subject.otherProcessTakesLock {
            await #expect {
                try await otherProcessTakesLock(store, key)
            } throws: { error in
                (error as? TokenStoreError)?.code == .unavailable
            }
            lock.release()
            try await otherProcessTakesLock(store, key).release()
            try await store.acquireLock(key).release()
            return
        }
        guard let folder = Self.lockFolder(of: store) else {
            #expect(lock is ProcessLocalLock, "\(subject.name) locks across processes without a lock folder")
            lock.release()
            return
        }
        await #expect {
            try await FileLock.acquire(in: folder, for: key, timeout: .zero)
        } throws: { error in
            (error as? TokenStoreError)?.code == .unavailable
        }
        lock.release()
        try await FileLock.acquire(in: folder, for: key, timeout: .zero).release()
        try await store.acquireLock(key).release()
    }

    /// Where `store` keeps its lock file, when it has one.
    static func lockFolder(of store: any TokenStore) -> URL? {
        switch store {
        case let store as FileTokenStore: store.directory
        case let store as KeychainTokenStore: store.lockDirectory
        default: nil
        }
    }
}
