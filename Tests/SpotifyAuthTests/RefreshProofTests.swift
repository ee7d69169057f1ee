import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

#if canImport(Glibc)
    import Glibc
#endif

/// A store that counts writes and can be told to fail them: what a session does to its store
/// is part of what these rows promise.
final class WatchedStore: TokenStore {
    let inner = MemoryTokenStore()
    private let state = Lock((saves: 0, removes: 0, failSaves: false))
    var kind: TokenStoreKind { inner.kind }
    var saves: Int { state.withLock { $0.saves } }
    var removes: Int { state.withLock { $0.removes } }
    func failSaves(_ fail: Bool = true) { state.withLock { $0.failSaves = fail } }

    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { try await inner.load(key) }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        let fail = state.withLock { state in
            state.saves += 1
            return state.failSaves
        }
        if fail { throw TokenStoreError(code: .io, message: "The disk is full (test).") }
        try await inner.save(tokens, for: key)
    }
    func remove(_ key: SpotifyAppKey) async throws {
        state.withLock { $0.removes += 1 }
        try await inner.remove(key)
    }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await inner.acquireLock(key) }
}

/// A store whose reads can be held back, so callers pile up waiting for the first one.
final class SlowLoadStore: TokenStore {
    let inner = MemoryTokenStore()
    private let gate = Lock<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    var kind: TokenStoreKind { inner.kind }

    func holdLoads() { gate.withLock { $0.held = true } }

    /// Lets held reads go once `count` of them wait (yielding until they do, failing loudly otherwise).
    func releaseLoads(after count: Int) async {
        var turns = 0
        while gate.withLock({ $0.waiting.count }) < count {
            turns += 1
            if turns > 1_000_000 {
                Issue.record("SlowLoadStore: \(count) held read(s) never arrived")
                break
            }
            await Task.yield()
        }
        for waiter in gate.withLock({ state in
            state.held = false
            defer { state.waiting = [] }
            return state.waiting
        }) { waiter.resume() }
    }

    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
        await withCheckedContinuation { continuation in
            let hold = gate.withLock { state in
                if state.held { state.waiting.append(continuation) }
                return state.held
            }
            if !hold { continuation.resume() }
        }
        return try await inner.load(key)
    }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws { try await inner.save(tokens, for: key) }
    func remove(_ key: SpotifyAppKey) async throws { try await inner.remove(key) }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await inner.acquireLock(key) }
}

/// An expiring activity that records when the work inside it begins and ends.
final class RecordingActivity: ExpiringActivity {
    private let log = Lock<[String]>([])
    var events: [String] { log.withLock { $0 } }
    func note(_ event: String) { log.withLock { $0.append(event) } }

    func run<T: Sendable>(_ reason: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        note("begin \(reason)")
        defer { note("end") }
        return try await body()
    }
}

/// A memory store that notes each save in an activity's log.
final class NotingStore: TokenStore {
    let inner = MemoryTokenStore()
    let activity: RecordingActivity
    init(_ activity: RecordingActivity) { self.activity = activity }
    var kind: TokenStoreKind { inner.kind }
    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { try await inner.load(key) }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        activity.note("save")
        try await inner.save(tokens, for: key)
    }
    func remove(_ key: SpotifyAppKey) async throws { try await inner.remove(key) }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await inner.acquireLock(key) }
}

@Suite("Refresh promises proven against a watched store (rows 18, 24, 25)")
struct RefreshProofTests {
    let clock = VirtualClock()

    @Test(arguments: [
        #"{"token_type":"Bearer","expires_in":3600}"#, #"{"access_token":"","refresh_token":"SENTINEL_RT_2"}"#,
        #"{"access_token":7}"#,
    ])
    func aMalformedRefreshAnswerLeavesTheStoreUntouched(body: String) async throws {
        let store = WatchedStore()
        let original = storedTokens(expiresIn: -1, clock: clock)
        try await store.inner.save(original, for: testKey)
        let subject = session(ScriptedTransport([.json(body)]), store: store, clock: clock)
        await #expect {
            try await subject.accessToken()
        } throws: { error in
            (error as? OAuthError)?.code == .malformedResponse
        }
        #expect(store.saves == 0 && store.removes == 0)
        await #expect(try store.load(testKey) == original)
    }

    /// Spotify may have rotated the refresh token: a save that fails must not lose it. The refreshed
    /// tokens are used at once, kept in memory, and saved before the store's next use.
    @Test func aRefreshWhoseSaveFailsKeepsTheTokensAndSavesThemNextTime() async throws {
        let store = WatchedStore()
        try await store.inner.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        store.failSaves()
        let transport = ScriptedTransport([
            .json(#"{"access_token":"SENTINEL_AT_new","refresh_token":"SENTINEL_RT_2","expires_in":3600}"#)
        ])
        let subject = session(transport, store: store, clock: clock)
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_new")
        #expect(store.saves == 1)
        await #expect(try store.load(testKey)?.refreshToken?.unredactedValue == "SENTINEL_RT_1")
        // Still failing: the next call tries again, and the tokens stay in use.
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_new")
        #expect(store.saves == 2)
        store.failSaves(false)
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_new")
        let saved = try await #require(try store.load(testKey))
        #expect(saved.refreshToken?.unredactedValue == "SENTINEL_RT_2")
        #expect(saved.accessToken.unredactedValue == "SENTINEL_AT_new")
        #expect(store.saves == 3)
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_new")
        #expect(store.saves == 3, "saved once, then no more store work")
        #expect(transport.requests.count == 1)
    }

    /// One refresh, also when it fails: fifty callers that need a refresh, some still waiting for
    /// the store's first read when it fails, all get its one failure; one token request is sent.
    @Test(arguments: [true, false])
    func fiftyCallersAndAFailingTokenEndpointMakeOneRequest(loadedFirst: Bool) async throws {
        let store = SlowLoadStore()
        try await store.inner.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let transport = ScriptedTransport { _, _ in
            .apiError(503, "Service unavailable")
        }
        let subject = session(transport, store: store, clock: clock)
        if loadedFirst { _ = try await subject.tokens() }
        store.holdLoads()
        let codes = await withTaskGroup(of: OAuthError.Code?.self) { group in
            for index in 0..<50 {
                group.addTask {
                    do {
                        if index.isMultiple(of: 2) {
                            _ = try await subject.accessToken()
                        } else {
                            _ = try await subject.refreshedAccessToken(replacing: AccessToken("SENTINEL_AT_old"))
                        }
                        return nil
                    } catch { return (error as? OAuthError)?.code }
                }
            }
            // Every caller has asked before anything is answered.
            await store.releaseLoads(after: loadedFirst ? 0 : 1)
            var all: [OAuthError.Code?] = []
            for await code in group { all.append(code) }
            return all
        }
        #expect(codes.count == 50)
        #expect(codes.allSatisfy { $0 == .transient }, "\(codes)")
        #expect(transport.requests.count == 1)
        // The failure is not remembered for later callers: the next one tries again.
        _ = try? await subject.accessToken()
        #expect(transport.requests.count == 2)
    }

    /// An extension without the shared lock refreshes (and Spotify rotates) while the app's own
    /// refresh is out: the app's refresh token is refused, but the store now holds the extension's
    /// tokens, so they are used and nothing is removed.
    @Test func aRefusedRefreshTokenRemovesNothingWhenAnotherProcessSavedNewTokens() async throws {
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let widget = session(
            ScriptedTransport([
                .json(#"{"access_token":"SENTINEL_AT_widget","refresh_token":"SENTINEL_RT_2","expires_in":3600}"#)
            ]), store: store, clock: clock)
        let app = session(
            ScriptedTransport { _, _ in
                // While the app's request with RT_1 is out, the widget refreshes with RT_1 first.
                _ = try await widget.accessToken()
                return .json(#"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#, status: 400)
            }, store: store, clock: clock)
        #expect(try await app.accessToken().unredactedValue == "SENTINEL_AT_widget")
        await #expect(try store.load(testKey)?.refreshToken?.unredactedValue == "SENTINEL_RT_2")
        #expect(await app.status == .signedIn)
    }

    /// A refresh and its save run inside the platform's expiring activity, so suspension cannot cut
    /// them apart.
    @Test func theRefreshAndItsSaveRunInsideTheExpiringActivity() async throws {
        let activity = RecordingActivity()
        let store = NotingStore(activity)
        try await store.inner.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let transport = ScriptedTransport { _, _ in
            activity.note("token request")
            return .json(#"{"access_token":"SENTINEL_AT_new","expires_in":3600}"#)
        }
        let subject = SpotifySession(
            endpoint: TokenEndpoint(
                server: emulatorServer, clientID: "spotlink-demo", transport: transport, clock: clock),
            store: store, clock: clock, logger: nil, activity: activity)
        _ = try await subject.accessToken()
        #expect(activity.events == ["begin Refreshing the Spotify sign-in", "token request", "save", "end"])
    }

    /// The waiter that started the refresh is cancelled while the request is out: the request is
    /// not cancelled, and the other 49 waiters get the new token from it.
    @Test func cancellingTheWaiterThatStartedTheRefreshDoesNotCancelIt() async throws {
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let arrived = AsyncStream.makeStream(of: Void.self)
        let release = AsyncStream.makeStream(of: Void.self)
        let sawCancellation = Lock(false)
        let transport = ScriptedTransport { _, _ in
            arrived.continuation.yield()
            for await _ in release.stream { break }
            sawCancellation.withLock { $0 = Task.isCancelled }
            try Task.checkCancellation()
            return .json(#"{"access_token":"SENTINEL_AT_new","expires_in":3600}"#)
        }
        let subject = session(transport, store: store, clock: clock)
        let first = Task { try await subject.accessToken() }
        var arrivals = arrived.stream.makeAsyncIterator()
        await arrivals.next()
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<49 { group.addTask { try await subject.accessToken().unredactedValue } }
            first.cancel()
            release.continuation.yield()
            release.continuation.finish()
            var all: [String] = []
            for try await token in group { all.append(token) }
            return all
        }
        _ = try? await first.value
        #expect(!sawCancellation.withLock { $0 }, "the refresh request saw its starter's cancellation")
        #expect(results.count == 49 && Set(results) == ["SENTINEL_AT_new"])
        #expect(transport.requests.count == 1)
    }

    @Test func oneRefreshErrorReachesEveryWaiter() async throws {
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let release = AsyncStream.makeStream(of: Void.self)
        let transport = ScriptedTransport { _, _ in
            for await _ in release.stream { break }
            return .json(#"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#, status: 400)
        }
        let subject = session(transport, store: store, clock: clock)
        let codes = await withTaskGroup(of: OAuthError.Code?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        _ = try await subject.accessToken()
                        return nil
                    } catch { return (error as? OAuthError)?.code }
                }
            }
            while transport.requests.isEmpty { await Task.yield() }
            release.continuation.yield()
            release.continuation.finish()
            var all: [OAuthError.Code?] = []
            for await code in group { all.append(code) }
            return all
        }
        #expect(codes.count == 50)
        #expect(codes.allSatisfy { $0 == .needsSignIn })
        #expect(transport.requests.count == 1)
        await #expect(try store.load(testKey) == nil)
    }
}

@Suite("The file lock and the token folder (rows 26, 32, 34)", .serialized)
struct FileLockProofTests {
    let clock = VirtualClock()

    /// Row 26 in one process, with the real `flock`: while another holder keeps the lock, a
    /// refresh waits and sends nothing; once it is released, the refresh goes out.
    @Test func aRefreshWaitsForTheLockAnotherHolderKeeps() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root, clock: clock)
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let held = try await FileLock.acquire(in: root, for: testKey)
        let transport = ScriptedTransport([.json(#"{"access_token":"SENTINEL_AT_new","expires_in":3600}"#)])
        let subject = session(transport, store: store, clock: clock)
        let refresh = Task { try await subject.accessToken() }
        // The waiting refresh sleeps on the session's clock between tries.
        try await clock.waitForSleepers(1)
        #expect(transport.requests.isEmpty)
        held.release()
        clock.advance(by: .seconds(1))
        #expect(try await refresh.value.unredactedValue == "SENTINEL_AT_new")
        #expect(transport.requests.count == 1)
    }

    @Test func aLockHeldTooLongFailsWithAClearErrorAndCancellationEndsTheWait() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let held = try await FileLock.acquire(in: root, for: testKey)
        defer { held.release() }
        let automatic = VirtualClock(mode: .automatic)
        await #expect {
            try await FileLock.acquire(in: root, for: testKey, timeout: .seconds(30), clock: automatic)
        } throws: { error in
            guard let error = error as? TokenStoreError else { return false }
            return error.code == .unavailable && error.message.contains("held the sign-in lock")
        }
        #expect(automatic.totalSlept >= .seconds(30) && automatic.totalSlept < .seconds(31))
        let manual = VirtualClock()
        let waiting = Task { try await FileLock.acquire(in: root, for: testKey, clock: manual) }
        try await manual.waitForSleepers(1)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test(arguments: [0o755, 0o770, 0o707])
    func aTokenFolderOpenToOthersIsRefusedWithTheFix(folderMode: Int) async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        chmod(root.path, mode_t(folderMode))
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            guard let error = error as? TokenStoreError else { return false }
            return error.code == .insecure && error.message.contains("chmod 700 \(root.path)")
        }
        #expect(mode(root) == folderMode, "the folder was changed without a word")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func aTokenFileOrFolderOfAnotherUserIsRefused() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        let nobody: uid_t = 65534
        chown(store.fileURL(testKey).path, nobody, nobody)
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .insecure && "\(error)".contains("another user")
        }
        chown(store.fileURL(testKey).path, 0, 0)
        chown(root.path, nobody, nobody)
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .insecure && "\(error)".contains("another user")
        }
        let lockFolder = root.appendingPathComponent("locks")
        try FileManager.default.createDirectory(
            at: lockFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chown(lockFolder.path, nobody, nobody)
        await #expect {
            try await FileLock.acquire(in: lockFolder, for: testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .insecure
        }
    }

    @Test func aFileFromANewerVersionIsMovedAsideAndSaysSo() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        let url = store.fileURL(testKey)
        // A whole, readable file whose only fault is its version.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(object["version"] as? Int == StoredTokens.currentVersion)
        object["version"] = StoredTokens.currentVersion + 1
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        chmod(url.path, 0o600)
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            guard let error = error as? TokenStoreError else { return false }
            return error.code == .corrupt && error.message.contains("newer version")
                && !error.message.contains("SENTINEL")
        }
        await #expect(try store.load(testKey) == nil)
    }
}
