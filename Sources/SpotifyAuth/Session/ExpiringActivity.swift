import Foundation

/// Keeps the process running while work that must finish runs: a refresh and its save.
///
/// iOS suspends an app soon after it leaves the screen, and kills a suspended process that holds
/// a file lock in a shared container (`0xdead10cc`). A refresh cut off there fails on resume, and
/// the answer that held a new refresh token is lost. On Apple platforms the work runs inside
/// `ProcessInfo.performExpiringActivity(withReason:using:)` (Foundation; extensions too); elsewhere
/// a process is not suspended under it and the work just runs.
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

#if canImport(Darwin)
    /// The Apple adapter: `performExpiringActivity` calls its block on a thread of its own, first
    /// with `expired == false` (the activity is granted until the block returns), and again with
    /// `true` when the system must suspend anyway. The granted call waits for the work to end.
    struct ProcessExpiringActivity: ExpiringActivity {
        func run<T: Sendable>(_ reason: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
            let finished = DispatchSemaphore(value: 0)
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                if !expired { finished.wait() }
            }
            defer { finished.signal() }
            return try await body()
        }
    }
#endif

/// This platform's way of finishing work the app started: the expiring activity on Apple
/// platforms, nothing elsewhere.
package func platformExpiringActivity() -> any ExpiringActivity {
    #if canImport(Darwin)
        ProcessExpiringActivity()
    #else
        NoActivity()
    #endif
}
