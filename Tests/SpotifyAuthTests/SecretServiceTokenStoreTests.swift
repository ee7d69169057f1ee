#if os(Linux)
    import Foundation
    import SpotifyEmulator
    import SpotifyTesting
    import Testing

    @_spi(Storage) @testable import SpotifyAuth
    @testable import SpotifyWebAPI

    /// Whether a real Secret Service daemon answers here. `.ci/run` starts one and sets
    /// `SPOTLINK_REQUIRE_SECRET_SERVICE=1`, so there a missing daemon fails instead of skipping.
    enum SecretServiceDaemon {
        static let required = ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_SECRET_SERVICE"] == "1"
        static let problem: String? = {
            do {
                // The blocking probe: a static initializer cannot await.
                try SecretServiceTokenStore(timeout: .seconds(5)).checkAvailableNow()
                return nil
            } catch {
                return "\(error)"
            }
        }()
        static var shouldRun: Bool { required || problem == nil }
    }

    @Suite(
        "Secret Service store against a real keyring daemon (rows 26, 33, 34)", .serialized,
        .enabled(
            if: SecretServiceDaemon.shouldRun,
            "no Secret Service daemon reachable: run inside dbus-run-session with an unlocked gnome-keyring-daemon, as .ci/run does"
        ))
    struct SecretServiceTokenStoreTests {
        let clock = VirtualClock()

        /// A key no other test or run uses, so the user's own keyring items are never touched.
        func uniqueKey() -> SpotifyAppKey {
            SpotifyAppKey(issuer: "http://127.0.0.1:1/test-\(UUID().uuidString)", clientID: "spotlink-tests")
        }

        /// Runs `body`, then removes `keys` from `store` whether it passed or threw, so the
        /// keyring keeps no test items.
        func removing(
            _ keys: [SpotifyAppKey], from store: SecretServiceTokenStore, _ body: () async throws -> Void
        ) async throws {
            do {
                try await body()
            } catch {
                for key in keys { try? await store.remove(key) }
                throw error
            }
            for key in keys { try? await store.remove(key) }
        }

        @Test func theDaemonIsReachable() {
            #expect(SecretServiceDaemon.problem == nil, "\(SecretServiceDaemon.problem ?? "")")
        }

        @Test func savesUpdatesInPlaceAndRemoves() async throws {
            let store = SecretServiceTokenStore()
            let key = uniqueKey()
            try await removing([key], from: store) {
                await #expect(try store.load(key) == nil)
                let first = storedTokens(clock: clock)
                try await store.save(first, for: key)
                await #expect(try store.load(key) == first)
                let second = storedTokens(access: "SENTINEL_AT_new", refresh: "SENTINEL_RT_2", clock: clock)
                try await store.save(second, for: key)
                await #expect(try SecretServiceTokenStore().load(key) == second)
                try await store.remove(key)
                await #expect(try store.load(key) == nil)
                try await store.remove(key)
            }
        }

        @Test func keysKeepIssuersAndClientsApart() async throws {
            let store = SecretServiceTokenStore()
            let key = uniqueKey()
            let otherClient = SpotifyAppKey(issuer: key.issuer, clientID: "another-app")
            let otherIssuer = SpotifyAppKey(issuer: key.issuer + "x", clientID: key.clientID)
            try await removing([key, otherClient, otherIssuer], from: store) {
                try await store.save(storedTokens(clock: clock), for: key)
                try await store.save(storedTokens(access: "SENTINEL_AT_other", clock: clock), for: otherClient)
                await #expect(try store.load(otherIssuer) == nil)
                try await store.remove(key)
                await #expect(try store.load(otherClient)?.accessToken.unredactedValue == "SENTINEL_AT_other")
            }
        }

        @Test func aFutureVersionItemIsRemovedAndTheSessionNeedsSignIn() async throws {
            let store = SecretServiceTokenStore()
            let key = SpotifyAppKey(
                issuer: AuthorizationServer.emulator(url: URL(string: "http://127.0.0.1:1")!).issuer,
                clientID: "spotlink-corrupt-test")
            try await removing([key], from: store) {
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
        }

        @Test func signInRefreshAndPersistThroughTheKeyring() async throws {
            let clock = VirtualClock()
            var configuration = EmulatorConfiguration()
            configuration.time = .external { clock.now }
            configuration.refreshRotation = .rotate
            try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
                let store = SecretServiceTokenStore()
                let (session, first) = try await LoopbackTests().signIn(emulator, store: store, clock: clock)
                try await removing([session.key], from: store) {
                    let key = session.key
                    await #expect(try SecretServiceTokenStore().load(key) == first)
                    try await LoopbackTests().expireAndCallFiftyTimes(emulator, session: session, clock: clock)
                    let stored = try await #require(try SecretServiceTokenStore().load(key))
                    #expect(stored.accessToken != first.accessToken && stored.refreshToken != first.refreshToken)
                    try await session.signOut()
                    await #expect(try store.load(key) == nil)
                }
            }
        }

        @Test func aSecondSessionReusesTheTokenTheFirstRefreshed() async throws {
            let locks = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: locks) }
            let store = SecretServiceTokenStore(lockDirectory: locks)
            try await removing([testKey], from: store) {
                try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
                try await expectSecondSessionReusesTheRefresh(
                    first: store, second: SecretServiceTokenStore(lockDirectory: locks), clock: clock)
                #expect(mode(locks) == 0o700)
            }
        }
    }

    @Suite("Secret Service unavailable (row 33)")
    struct SecretServiceUnavailableTests {
        @Test func aMissingLibraryIsUnavailableWithTheFix() async throws {
            let store = SecretServiceTokenStore(
                library: Result { try LibSecret(path: "libsecret-missing-for-test.so.0") }.mapError {
                    $0 as! TokenStoreError
                })
            #expect(store.kind == .secretService)
            let operations: [@Sendable () async throws -> Void] = [
                { _ = try await store.load(testKey) },
                { try await store.save(storedTokens(clock: VirtualClock()), for: testKey) },
                { try await store.remove(testKey) },
            ]
            for operation in operations {
                await #expect {
                    try await operation()
                } throws: { error in
                    let error = error as? TokenStoreError
                    return error?.code == .unavailable
                        && error?.message.contains("apt-get install libsecret-1-0 gnome-keyring") == true
                        && error?.message.contains("file store explicitly") == true
                }
            }
        }
    }
#endif
