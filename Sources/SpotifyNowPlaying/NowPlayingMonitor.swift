import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI
import Synchronization

/// Follows `/me/player/currently-playing` with as few calls as the schedule allows and emits a
/// state only when it changes (progress is computed locally in between).
///
/// It stops when cancelled, when the user is signed out or Spotify refuses the call (403; no call
/// after either), and while the app is in the background. During a rate-limit or quota cooldown it
/// sends nothing and resumes when the cooldown ends. Its polls are background requests, so a
/// ledger's daily budget pauses them. Read-only scopes suffice, so Spotify Free and Premium both work.
public final class NowPlayingMonitor: Sendable {
    private let client: SpotifyClient
    private let clock: any SpotifyClock
    private let policy: NowPlayingMonitor.Polling
    private let control = Lock<Control>(Control())
    private struct Control {
        var background = false
        /// Every subscriber's loop parked while the app is in the background, by its number.
        var parked: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Loops cancelled before they parked: they must not park.
        var cancelled: Set<Int> = []
        var nextLoop = 0
        var running = 0
        var calls = 0
        var emitted = 0
    }

    /// - Parameters:
    ///   - client: the client to poll with.
    ///   - policy: how often to poll; by default ``NowPlayingMonitor/Polling/default`` (within 30 calls an
    ///     hour of listening).
    public init(client: SpotifyClient, policy: NowPlayingMonitor.Polling = .default) {
        self.client = client
        self.clock = client.clock
        self.policy = policy
    }

    /// Calls made to Spotify so far.
    package var callCount: Int { control.withLock { $0.calls } }
    /// States emitted so far.
    package var emittedCount: Int { control.withLock { $0.emitted } }
    /// Subscribers' polling loops running now (a stopped subscriber's loop ends at its next check).
    package var runningLoops: Int { control.withLock { $0.running } }

    /// Pauses polling while the app is in the background; resumes every subscriber with a poll when
    /// it returns.
    public func setBackground(_ background: Bool) {
        let resume = control.withLock { control -> [CheckedContinuation<Void, Never>] in
            control.background = background
            guard !background else { return [] }
            defer { control.parked = [:] }
            return Array(control.parked.values)
        }
        for waiter in resume { waiter.resume() }
    }

    /// The states, from a first poll on. Ends when signed out or when the consumer stops, at once
    /// even while the app is in the background.
    ///
    /// Each call is a subscriber with its own polls: any number may follow at once (give them one
    /// monitor, so going to the background pauses them all), though each costs its own calls.
    public func states() -> AsyncStream<NowPlayingState> {
        let loop = control.withLock { control in
            defer { control.nextLoop += 1 }
            return control.nextLoop
        }
        return AsyncStream { continuation in
            let task = Task { await self.run(loop, continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ loop: Int, _ continuation: AsyncStream<NowPlayingState>.Continuation) async {
        control.withLock { $0.running += 1 }
        defer { control.withLock { $0.running -= 1 } }
        var schedule = PollSchedule(policy: policy)
        var last: NowPlayingState?
        while !Task.isCancelled {
            await waitWhileInBackground(loop)
            if Task.isCancelled { break }
            let state = await poll()
            if let current = last, current.isSameMoment(as: state) {
                // Same item: keep the newest position without announcing it.
            } else {
                control.withLock { $0.emitted += 1 }
                continuation.yield(state)
            }
            last = state
            if case .unavailable(let reason) = state, reason.endsMonitoring { break }
            var remaining: Duration?
            if case .playing(let item) = state { remaining = item.remaining(at: clock.now) }
            let delay = schedule.delay(after: state, remaining: remaining, now: clock.now)
            do { try await clock.sleep(for: delay) } catch { break }
        }
        continuation.finish()
    }

    private func poll() async -> NowPlayingState {
        control.withLock { $0.calls += 1 }
        do {
            let playing = try await SpotifyClient.withOrigin(.backgroundWork) { try await client.currentlyPlaying() }
            return NowPlayingState(playing, observedAt: clock.now)
        } catch let error as SpotifyAPIError {
            switch error.code {
            case .rateLimited: return .unavailable(.rateLimited(retryAfter: error.retryAfter ?? .seconds(30)))
            case .quotaExceeded: return .unavailable(.quotaExceeded(retryAfter: error.retryAfter ?? .seconds(3600)))
            case .budgetExhausted: return .unavailable(.budgetExhausted(retryAfter: error.retryAfter ?? .seconds(3600)))
            case .missingScope: return .unavailable(.missingScope)
            case _ where error.isRefusal: return .unavailable(.refused(error.message))
            // A 401 even after a refresh does not end the sign-in: try again later.
            default: return .unavailable(.offline)
            }
        } catch {
            // The token provider failed: no sign-in (or it ended). Stop calling.
            return .unavailable(.signedOut)
        }
    }

    /// Parks loop `loop` while the app is in the background; a cancellation (the consumer stopped)
    /// unparks it at once.
    private func waitWhileInBackground(_ loop: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = control.withLock { control -> Bool in
                    if control.cancelled.remove(loop) != nil || !control.background { return true }
                    control.parked[loop] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let parked = control.withLock { control -> CheckedContinuation<Void, Never>? in
                guard let parked = control.parked.removeValue(forKey: loop) else {
                    control.cancelled.insert(loop)
                    return nil
                }
                return parked
            }
            parked?.resume()
        }
    }

    /// Subscriber loops parked in the background now (tests check that a stopped one left).
    package var parkedCount: Int { control.withLock { $0.parked.count } }
    /// Subscriber loops running now, parked or not.
    package var runningCount: Int { control.withLock { $0.running } }
}
