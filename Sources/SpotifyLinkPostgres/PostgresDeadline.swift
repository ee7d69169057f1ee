import Foundation
import SpotifyLinkSupport
import SpotifyWebAPI
import Synchronization

/// How long one call of a PostgreSQL store (a read, a transaction, a lock) may take before it
/// ends with an error that names it, whatever PostgreSQL does.
///
/// PostgresNIO 1.33.2 may never end a call whose connection a server restart closed, even when
/// the call's task is cancelled; without a deadline, a request handler would wait for ever. The
/// call is cancelled and left behind: its transaction either committed whole or not at all.
public enum PostgresDeadline {
    /// The limit when a store is given none: 15 s, long enough for a loaded server, short enough
    /// that a user waiting on a request is told something; or the whole seconds in the environment
    /// variable `SPOTLINK_POSTGRES_DEADLINE`, for an environment known to be slow (the test suite under
    /// ThreadSanitizer sets 120).
    public static let `default`: Duration = fromEnvironment(ProcessInfo.processInfo.environment) ?? .seconds(15)

    /// `SPOTLINK_POSTGRES_DEADLINE`: the default deadline in whole seconds.
    package static let environmentVariable = "SPOTLINK_POSTGRES_DEADLINE"

    /// The deadline `environment` sets, or `nil` when it sets none or not a positive whole number.
    package static func fromEnvironment(_ environment: [String: String]) -> Duration? {
        .wholeSeconds(in: environment, environmentVariable)
    }

    /// Runs `body`, returning its result, or throwing `expired()` once `limit` has passed on
    /// `clock` without one. It does not wait for a `body` that never ends: that task is cancelled
    /// and abandoned.
    static func run<T: Sendable>(
        within limit: Duration, clock: any SpotifyClock, expired: @escaping @Sendable () -> any Error,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                race.start(continuation)
                let work = Task {
                    do {
                        race.finish(.success(try await body()))
                    } catch {
                        race.finish(.failure(error))
                    }
                }
                let timer = Task {
                    try? await clock.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    if race.finish(.failure(expired())) { work.cancel() }
                }
                race.onFinish {
                    timer.cancel()
                    work.cancel()
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// Who ends first: the work, the deadline or the caller's cancellation. The continuation is
    /// resumed once, by the first.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var early: Result<T, any Error>?
            var cleanUp: (@Sendable () -> Void)?
            var done = false
        }
        private let state = Lock(State())

        func start(_ continuation: CheckedContinuation<T, any Error>) {
            let early = state.withLock { state -> Result<T, any Error>? in
                guard let early = state.early else {
                    state.continuation = continuation
                    return nil
                }
                return early
            }
            if let early { continuation.resume(with: early) }
        }

        /// Cancels the other side once the race is decided (or at once, when it already is).
        func onFinish(_ cleanUp: @escaping @Sendable () -> Void) {
            let now = state.withLock { state -> Bool in
                guard !state.done else { return true }
                state.cleanUp = cleanUp
                return false
            }
            if now { cleanUp() }
        }

        /// Ends the race with `result` if nothing ended it yet; says whether this did.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let (won, continuation, cleanUp) = state.withLock {
                state -> (Bool, CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
                guard !state.done else { return (false, nil, nil) }
                state.done = true
                if state.continuation == nil { state.early = result }
                defer {
                    state.continuation = nil
                    state.cleanUp = nil
                }
                return (true, state.continuation, state.cleanUp)
            }
            continuation?.resume(with: result)
            cleanUp?()
            return won
        }
    }
}
