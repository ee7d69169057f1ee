import Foundation
import SpotifyLinkSupport
import Synchronization

/// Keeps the process running while work that must finish runs: a refresh and its save, a
/// sign-in's exchange and its save.
///
/// iOS suspends an app soon after it leaves the screen, and kills a suspended process that holds
/// a file lock in a shared container (`0xdead10cc`). A refresh cut off there fails on resume, and
/// the answer that held a new refresh token is lost. On iOS, iPadOS, Mac Catalyst, tvOS, watchOS
/// and visionOS the work runs inside `ProcessInfo.performExpiringActivity(withReason:using:)`
/// (Foundation; extensions too), which macOS does not have. On macOS, which does not suspend an
/// app this way, it runs inside `beginActivity(options:reason:)`, so App Nap does not stretch its
/// waits; elsewhere it just runs.
package protocol ExpiringActivity: Sendable {
    /// Runs `body` while the system is asked to keep the process running, for `reason`.
    func run<T: Sendable>(_ reason: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T
}

/// Runs work as it is: what platforms without suspension use, and tests.
package struct NoActivity: ExpiringActivity {
    package init() {}
    package func run<T: Sendable>(_ reason: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T
    {
        try await body()
    }
}

/// The logic of `performExpiringActivity`, apart from the system call that grants it, so that the
/// Linux tests run it: `perform` hands the block to the system, which calls it on a thread of its
/// own.
///
/// Apple's contract (NSProcessInfo.h): the block is called with `expired == false` when the
/// system grants the activity, which lasts until the block returns; with `true` first when it
/// cannot grant one; and a second time with `true`, while the first call is still running, when
/// the system must suspend the process anyway ("stop any in-progress tasks as quickly as
/// possible"). So:
/// - the granted call waits until the work ends;
/// - the expiry call cancels the work (the token request is cancelled, the refresh's lock is
///   released as it unwinds), waits for it to unwind for at most `unwindLimit`, and lets the granted
///   call return: nothing is left holding a lock when the process is suspended;
/// - a refused grant (`true` first) changes nothing: the work runs as it would without one.
///
/// The block must be called asynchronously, as the header documents: a synchronous `false` call
/// would block the caller's thread before the work starts.
package struct GrantedActivity: ExpiringActivity {
    /// Hands `block` to the system for `reason`.
    package typealias Perform =
        @Sendable (_ reason: String, _ block: @escaping @Sendable (_ expired: Bool) -> Void) -> Void

    private let perform: Perform
    private let unwindLimit: Duration

    /// An activity granted through `perform`; on expiry the cancelled work gets `unwindLimit` to unwind.
    package init(unwindLimit: Duration = .seconds(2), perform: @escaping Perform) {
        self.perform = perform
        self.unwindLimit = unwindLimit
    }

    package func run<T: Sendable>(_ reason: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T
    {
        let work = Task { try await body() }
        let grant = Grant(unwindLimit: unwindLimit)
        perform(reason) { expired in grant.called(expired: expired, cancel: { work.cancel() }) }
        defer { grant.workEnded() }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }

    /// One activity's calls from the system's threads, and the end of its work.
    private final class Grant: Sendable {
        /// Signalled once the work has ended (its locks released).
        private let ended = DispatchSemaphore(value: 0)
        /// Signalled when the granted call may return: the work ended, or the grant expired.
        private let released = DispatchSemaphore(value: 0)
        private let granted = Lock(false)
        private let unwindLimit: Duration

        init(unwindLimit: Duration) { self.unwindLimit = unwindLimit }

        func called(expired: Bool, cancel: () -> Void) {
            if !expired {
                granted.withLock { $0 = true }
                released.wait()
                return
            }
            // Refused from the start: the work runs on, as it would without an activity.
            guard granted.withLock({ $0 }) else { return }
            cancel()
            _ = ended.wait(timeout: .now() + .milliseconds(Int(unwindLimit / .milliseconds(1))))
            released.signal()
        }

        func workEnded() {
            ended.signal()
            released.signal()
        }
    }
}

#if canImport(AppKit) && !canImport(UIKit)
    /// macOS: no expiring activity, but an activity App Nap respects, so the work's waits and
    /// deadlines are not stretched while the app is in the background.
    struct BackgroundActivity: ExpiringActivity {
        func run<T: Sendable>(_ reason: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
            let token = ProcessInfo.processInfo.beginActivity(
                options: .userInitiatedAllowingIdleSystemSleep, reason: reason)
            defer { ProcessInfo.processInfo.endActivity(token) }
            return try await body()
        }
    }
#endif

/// This platform's way of finishing work the app started: the expiring activity on the iOS family
/// (UIKit's platforms, Mac Catalyst included), a background activity on macOS, nothing elsewhere.
package func platformExpiringActivity() -> any ExpiringActivity {
    #if canImport(UIKit)
        GrantedActivity { reason, block in
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)
        }
    #elseif canImport(AppKit)
        BackgroundActivity()
    #else
        NoActivity()
    #endif
}
