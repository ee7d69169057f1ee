public import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI
import Synchronization

/// A clock whose time moves only when its owner says so: for tests, demos and previews that play
/// minutes or days of Spotify use in a moment and the same way every run.
///
/// Pass it wherever a ``SpotifyClock`` is taken (the client, the session, the monitors, the
/// emulator's `time: .external { clock.now }`), so every part sees the same virtual time.
///
/// In ``Mode/manual`` a sleeper waits until ``advance(by:)`` passes its deadline, so concurrent
/// code can be stepped deterministically (``waitForSleepers(_:within:)`` tells when all are parked).
/// In ``Mode/automatic`` each sleep moves time forward by its own duration and returns at once,
/// which suits sequential code such as retry loops.
public final class VirtualClock: SpotifyClock {
    /// How time moves.
    public enum Mode: Sendable {
        /// Only ``VirtualClock/advance(by:)`` moves time; sleepers wait for it.
        case manual
        /// Each sleep moves time by its own duration and returns at once.
        case automatic
    }

    private struct Sleeper {
        var id: Int
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// A task in ``waitForSleepers(_:within:)``: resumed with `true` once `count` tasks sleep.
    private struct Waiter {
        var id: Int
        var count: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
        var nextID = 0
        var totalSlept: Duration = .zero
        var sleepCount = 0
    }

    private let state: Lock<State>
    /// How time moves on this clock.
    package let mode: Mode

    /// - Parameters:
    ///   - now: the starting time; a fixed date in 2026 by default, so runs are repeatable.
    ///   - mode: whether sleepers wait for ``advance(by:)`` or move time themselves.
    public init(now: Date = Date(timeIntervalSince1970: 1_790_000_000), mode: Mode = .manual) {
        self.state = Lock(State(now: now))
        self.mode = mode
    }

    /// The virtual time now.
    public var now: Date { state.withLock { $0.now } }

    /// Every duration callers asked to sleep, added up.
    public var totalSlept: Duration { state.withLock { $0.totalSlept } }
    /// How many times callers slept.
    package var sleepCount: Int { state.withLock { $0.sleepCount } }
    /// The earliest deadline a sleeper waits for, if any.
    package var nextDeadline: Date? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Tasks parked in ``waitForSleepers(_:within:)`` now.
    package var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Sleepers waiting now (manual mode).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Sleeps until ``advance(by:)`` passes `duration` from now (manual mode), or moves time by
    /// `duration` and returns (automatic mode).
    /// - Throws: `CancellationError` when the task is cancelled while it sleeps.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        if mode == .automatic {
            state.withLock {
                $0.now = $0.now.addingTimeInterval(max(duration.seconds, 0))
                $0.totalSlept += duration
                $0.sleepCount += 1
            }
            await Task.yield()
            return
        }
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.totalSlept += duration
            state.sleepCount += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, satisfied) = state.withLock { state -> (Bool, [Waiter]) in
                    let deadline = state.now.addingTimeInterval(max(duration.seconds, 0))
                    if duration <= .zero { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let asleep = state.sleepers.count
                    let satisfied = state.waiters.filter { $0.count <= asleep }
                    state.waiters.removeAll { $0.count <= asleep }
                    return (false, satisfied)
                }
                if resumeNow { continuation.resume() }
                for waiter in satisfied { waiter.continuation.resume(returning: true) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(duration.seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time to the earliest sleeper's deadline and wakes it (and any due at the same time).
    /// Returns `false` when nobody sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) else { return false }
        advance(by: .clampedSeconds(next.timeIntervalSince(now)))
        return true
    }

    /// Waits (on the real scheduler, not on time) until at least `count` tasks sleep on this clock.
    ///
    /// The wait is woken by the sleep that makes the count, so it costs nothing while the code
    /// under test runs, however slow the machine (ThreadSanitizer on two cores).
    ///
    /// - Throws: ``WaitGaveUp`` when `limit` of real time passes first, or when the waiting task
    ///   is cancelled, saying how many tasks were asleep: a test waiting for a sleeper that never
    ///   comes fails and says so. The limit is a hang guard, not timing: five minutes, because
    ///   fifty requests reaching a cooldown's gate took more than one under ThreadSanitizer on a
    ///   loaded two-core machine (a 2026-11-29 rehearsal).
    public func waitForSleepers(_ count: Int, within limit: Duration = .seconds(300)) async throws(WaitGaveUp) {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let arrived = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.parked(id: id, count: count) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard arrived else {
            let why = Task.isCancelled ? "was cancelled" : "gave up after \(limit)"
            throw WaitGaveUp("VirtualClock.waitForSleepers(\(count)) \(why) with \(sleeperCount) task(s) asleep")
        }
    }

    /// Returns `true` once `count` tasks sleep, or `false` when the task is cancelled first.
    private func parked(id: Int, count: Int) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer = state.withLock { state -> Bool? in
                    if state.sleepers.count >= count { return true }
                    // The flag is set before the handler runs, so a cancellation is seen here or
                    // finds the waiter in the list.
                    if Task.isCancelled { return false }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }
}

extension VirtualClock {
    /// One scripted action of ``play(for:steps:isolation:)``, at an offset from its start.
    package struct Step {
        /// When the step runs, from the start of the play.
        package var at: Duration
        /// What it does.
        package var action: () async -> Void

        /// A step that runs `action` at `at`.
        package init(at: Duration, _ action: @escaping () async -> Void) {
            self.at = at
            self.action = action
        }
    }

    /// Moves time for up to `duration` from one sleeper's deadline to the next, running each step
    /// at its time (steps at zero run first), so a polling task and a scripted world take turns
    /// deterministically.
    ///
    /// Something must sleep on the clock for time to move: it stops when nobody does, or when the
    /// next deadline lies beyond `duration`.
    package func play(for duration: Duration, steps: [Step] = [], isolation: isolated (any Actor)? = #isolation) async {
        let start = now
        let end = start.addingTimeInterval(duration.seconds)
        var pending = steps.sorted { $0.at < $1.at }
        while let step = pending.first, step.at <= .zero {
            await step.action()
            pending.removeFirst()
        }
        while now < end {
            await settle()  // nobody asleep: the guard below ends the play
            guard let deadline = nextDeadline, deadline <= end else { return }
            if let step = pending.first, start.addingTimeInterval(step.at.seconds) < deadline {
                advance(by: .clampedSeconds(start.addingTimeInterval(step.at.seconds).timeIntervalSince(now)))
                await step.action()
                pending.removeFirst()
            } else {
                advanceToNextDeadline()
            }
        }
    }
}

extension VirtualClock {
    /// Turns the scheduler until a task sleeps on the clock, or for 1,000,000 turns: how ``play``
    /// tells a poller going back to sleep from one that has stopped for good (a refusal, a
    /// disconnect), which no event announces. Every 64th turn sleeps 0.1 ms.
    private func settle() async {
        var turns = 0
        while sleeperCount == 0, turns < 1_000_000 {
            turns += 1
            if turns % 64 == 0 {
                try? await Task.sleep(nanoseconds: 100_000)
            } else {
                await Task.yield()
            }
        }
    }
}

extension VirtualClock {
    /// ``VirtualClock/waitForSleepers(_:within:)`` waited for sleepers that never came.
    public struct WaitGaveUp: Error, CustomStringConvertible {
        /// What was waited for, and what was seen.
        public var description: String
        /// An error saying `description`.
        public init(_ description: String) { self.description = description }
    }
}
