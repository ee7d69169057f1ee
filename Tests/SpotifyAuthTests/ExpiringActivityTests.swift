import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `GrantedActivity`, the logic of `performExpiringActivity` on the iOS family, driven through its
/// seam by a stand-in of the system that calls the block on threads of its own, as Foundation does.
@Suite("The expiring activity: granted, refused, expired")
struct ExpiringActivityTests {
    /// The system's side: each call of the block runs on a new thread; a call's return is awaited.
    final class SystemStandIn: Sendable {
        private let blocks = Lock<[@Sendable (Bool) -> Void]>([])
        private let returns = AsyncStream.makeStream(of: Bool.self)

        /// Hands the block to the "system", which grants the activity at once unless `refused`.
        func perform(refused: Bool = false) -> GrantedActivity.Perform {
            { [self] _, block in
                blocks.withLock { $0.append(block) }
                call(block, expired: refused)
            }
        }

        /// Calls the last block again with `expired == true`, as the system does before suspending.
        func expire() {
            guard let block = blocks.withLock({ $0.last }) else {
                Issue.record("expire(): the activity was never asked for")
                return
            }
            call(block, expired: true)
        }

        private func call(_ block: @escaping @Sendable (Bool) -> Void, expired: Bool) {
            let returns = returns.continuation
            Thread {
                block(expired)
                returns.yield(expired)
            }.start()
        }

        /// The next call that returned, and whether it was an expiry call; gives up loudly after 10 s.
        func nextReturn(_ what: String) async throws -> Bool {
            try await nextElement(of: returns.stream, what)
        }
    }

    /// Whether anyone holds the `flock` of `key`'s lock file in `folder` (a second open file
    /// description conflicts with the session's, in this process too).
    static func lockIsFree(in folder: URL) throws -> Bool {
        let file = folder.appendingPathComponent(testKey.fileName("lock")).path
        let fd = open(file, O_RDWR | O_CLOEXEC)
        try #require(fd >= 0, "the lock file \(file) exists")
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(fd, LOCK_UN)
        return true
    }

    /// Whether `task` ends by throwing within 10 s; records a failure saying what it waited for otherwise.
    static func ends<T: Sendable>(_ task: Task<T, any Error>, _ what: String) async -> Bool {
        // Awaiting a task's value does not end when the waiter is cancelled: race it unstructured.
        let threw = await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
            let resumed = Lock(false)
            let finish: @Sendable (Bool?) -> Void = { value in
                let first = resumed.withLock { resumed in
                    defer { resumed = true }
                    return !resumed
                }
                if first { continuation.resume(returning: value) }
            }
            Task { finish((try? await task.value) == nil) }
            Task {
                try? await Task.sleep(for: .seconds(10))
                finish(nil)
            }
        }
        guard let threw else {
            Issue.record("gave up after 10 s waiting for \(what) to end")
            return false
        }
        return threw
    }

    /// The system must suspend while a refresh waits for Spotify with the lock folder's lock held:
    /// the expiry call cancels the request, the lock is released before that call returns, the
    /// granted call returns too, and the saved sign-in is kept.
    @Test func anExpiryCancelsTheRefreshAndReleasesTheLockBeforeItReturns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expiry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = VirtualClock()
        let store = FileTokenStore(directory: folder, clock: clock)
        let original = storedTokens(expiresIn: -1, clock: clock)
        try await store.save(original, for: testKey)

        let arrived = AsyncStream.makeStream(of: Void.self)
        let sawCancellation = Lock(false)
        let never = AsyncStream.makeStream(of: Void.self)
        let transport = ScriptedTransport { _, _ in
            arrived.continuation.yield()
            // Spotify does not answer until the request is cancelled.
            for await _ in never.stream {}
            sawCancellation.withLock { $0 = Task.isCancelled }
            throw CancellationError()
        }
        let system = SystemStandIn()
        let subject = SpotifySession(
            endpoint: TokenEndpoint(
                server: emulatorServer, clientID: "spotlink-demo", transport: transport, clock: clock),
            store: store, clock: clock, logger: nil,
            activity: GrantedActivity(unwindLimit: .seconds(5), perform: system.perform()))

        let caller = Task { try await subject.accessToken() }
        var arrivals = arrived.stream.makeAsyncIterator()
        await arrivals.next()
        #expect(try !Self.lockIsFree(in: folder), "the refresh holds the lock while it waits for Spotify")

        system.expire()
        // Whichever call returns first, both return, and the lock is free once the expiry call has.
        let first = try await system.nextReturn("a call of the activity's block to return")
        let second = try await system.nextReturn("the other call of the activity's block to return")
        #expect(Set([first, second]) == [true, false], "both the granted and the expiry call returned")
        #expect(try Self.lockIsFree(in: folder), "the lock is released before the system suspends the process")
        #expect(sawCancellation.withLock { $0 }, "the token request was cancelled")
        #expect(await Self.ends(caller, "the caller of the cancelled refresh"), "the caller's refresh failed")
        // Nothing lost: the stored sign-in is the one saved, and the session still has it.
        #expect(try await store.load(testKey) == original)
        #expect(await subject.status == .signedIn)
    }

    /// The granted call holds the activity until the work ends, and no longer.
    @Test func theGrantedCallReturnsWhenTheWorkEnds() async throws {
        let system = SystemStandIn()
        let activity = GrantedActivity(perform: system.perform())
        let release = AsyncStream.makeStream(of: Void.self)
        let work = Task {
            try await activity.run("test") {
                for await _ in release.stream { break }
                return 7
            }
        }
        // The grant stays open while the work runs.
        for _ in 0..<100 { await Task.yield() }
        release.continuation.yield()
        #expect(try await work.value == 7)
        #expect(try await system.nextReturn("the granted call to return") == false)
    }

    /// A refused grant (`expired == true` on the first call) leaves the work running to its end.
    @Test func aRefusedGrantLeavesTheWorkRunning() async throws {
        let system = SystemStandIn()
        let activity = GrantedActivity(perform: system.perform(refused: true))
        #expect(try await activity.run("test") { "done" } == "done")
        #expect(try await system.nextReturn("the refusal call to return") == true)
    }

    #if os(Linux)
        /// The platform's choice: on Linux, work just runs.
        @Test func linuxRunsTheWorkWithoutAnActivity() {
            #expect(platformExpiringActivity() is NoActivity)
        }
    #endif
}
