import Foundation
package import NIOCore
import NIOPosix
import SpotifyLinkSupport
import Synchronization

/// Watches the event loops of NIO's singleton group, which the local servers (the emulator, the
/// sign-in listener) and the Linux transport (async-http-client) all run on, and the threads of
/// the Swift concurrency pool, which run every task: a task on each loop every 100 ms, and one on
/// the pool, record how late they ran, and a watchdog thread of its own notices a place whose task
/// is overdue while it is still held (a loop blocked by a call that never returns would never run
/// its task to say so).
///
/// A loop held back more than ``stallThreshold`` is reported on standard error when it is first
/// seen, with the loop's thread; with `SPOTLINK_LOOP_LAG_DUMP=1` in the environment, every
/// thread's stack is written beside it (`gdb -p` on this process), which names what the loop ran:
/// the blocker. Started once per process, by the test emulator.
package final class LoopLagProbe: Sendable {
    /// One loop's lateness.
    package struct Lag: Sendable, CustomStringConvertible {
        /// What was held: "event loop 0", or "the Swift concurrency pool".
        package var place: String
        /// How long past its time its task ran (or, when reported by the watchdog, has waited).
        package var late: Duration
        /// Whether the loop was still held when this was seen (the watchdog's report).
        package var ongoing: Bool

        package var description: String {
            "\(place) \(ongoing ? "has been held" : "ran its task") \(late) late"
        }
    }

    /// The name of the Swift concurrency pool's place in the reports.
    package static let concurrencyPool = "the Swift concurrency pool"

    /// A loop held back longer than this is reported, by default.
    package static let stallThreshold: Duration = .seconds(2)

    /// The probe of this process, on NIO's singleton group, started at its first use.
    package static let shared = LoopLagProbe(group: MultiThreadedEventLoopGroup.singleton)

    /// How often each loop's task runs.
    private let interval: Duration
    /// A loop held back longer than this is reported.
    private let threshold: Duration
    private let dumps: Bool

    private struct Loop {
        /// "event loop 0", or the concurrency pool.
        var place: String
        /// When the loop's task last ran, or was last due (monotonic nanoseconds).
        var lastRun: UInt64
        /// Whether the watchdog has reported the current stall.
        var reported = false
    }

    private let loops: Lock<[Loop]>
    private let stopped = Lock(false)
    private let tasks = Lock<[RepeatedTask]>([])
    private let lags = Lock<[Lag]>([])
    private let worstLate = Lock<Duration>(.zero)

    /// A probe of `group`'s loops, each checked every `interval`, reporting a loop held back
    /// `threshold` or more (tests make a group and a threshold of their own); with
    /// `watchingConcurrencyPool`, also of the Swift concurrency pool's threads, which a blocking
    /// call on them holds the same way (a task that sleeps `interval` wakes late).
    package init(
        group: any EventLoopGroup, interval: Duration = .milliseconds(100), threshold: Duration = stallThreshold,
        watchingConcurrencyPool: Bool = true,
        dumpsStacks: Bool = ProcessInfo.processInfo.environment["SPOTLINK_LOOP_LAG_DUMP"] == "1"
    ) {
        self.interval = interval
        self.threshold = threshold
        dumps = dumpsStacks
        let eventLoops = Array(group.makeIterator())
        let now = DispatchTime.now().uptimeNanoseconds
        var places = eventLoops.indices.map { "event loop \($0)" }
        if watchingConcurrencyPool { places.append(Self.concurrencyPool) }
        loops = Lock(places.map { Loop(place: $0, lastRun: now) })
        for (index, loop) in eventLoops.enumerated() { schedule(on: loop, index: index) }
        if watchingConcurrencyPool { heartbeat(index: eventLoops.count) }
        let watchdog = Thread { [self] in watch() }
        watchdog.name = "spotlink-loop-watchdog"
        watchdog.start()
    }

    /// Starts the probe (once per process).
    package static func start() { _ = shared }

    /// Every stall seen so far.
    package var stalls: [Lag] { lags.withLock { $0 } }

    /// The most any loop's task ran late so far.
    package var worst: Duration { worstLate.withLock { $0 } }

    private func schedule(on loop: any EventLoop, index: Int) {
        let interval = TimeAmount.nanoseconds(
            Int64(self.interval.components.seconds) * 1_000_000_000
                + Int64(self.interval.components.attoseconds / 1_000_000_000))
        let task = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            let now = DispatchTime.now().uptimeNanoseconds
            ran(index, at: now)
        }
        tasks.withLock { $0.append(task) }
    }

    /// A task on the concurrency pool that sleeps `interval` at a time: a pool whose threads are
    /// all blocked wakes it late.
    private func heartbeat(index: Int) {
        Task.detached { [self] in
            while !stopped.withLock({ $0 }) {
                try? await Task.sleep(for: interval)
                ran(index, at: DispatchTime.now().uptimeNanoseconds)
            }
        }
    }

    /// Place `index`'s task ran at `now`: the end of a stall when it is late (how late in all; the
    /// watchdog said when it began).
    private func ran(_ index: Int, at now: UInt64) {
        let (due, place) = loops.withLock { loops -> (UInt64, String) in
            defer { loops[index] = Loop(place: loops[index].place, lastRun: now) }
            return (loops[index].lastRun, loops[index].place)
        }
        let late = Self.elapsed(from: due, to: now) - interval
        worstLate.withLock { $0 = max($0, late) }
        if late >= threshold { report(Lag(place: place, late: late, ongoing: false)) }
    }

    /// Stops watching (before a group of the caller's own shuts down): the loops' tasks are
    /// cancelled and the watchdog ends.
    package func stop() {
        stopped.withLock { $0 = true }
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// The watchdog: every 250 ms, reports a loop whose task is overdue past the threshold, once
    /// per stall.
    private func watch() {
        while !stopped.withLock({ $0 }) {
            Thread.sleep(forTimeInterval: min(0.25, threshold.seconds / 4))
            let stalled = loops.withLock { loops -> [Lag] in
                // Read under the lock: a loop's task that ran since cannot be later than it.
                let now = DispatchTime.now().uptimeNanoseconds
                var stalled: [Lag] = []
                for index in loops.indices where !loops[index].reported {
                    let waited = Self.elapsed(from: loops[index].lastRun, to: now) - interval
                    if waited >= threshold {
                        loops[index].reported = true
                        stalled.append(Lag(place: loops[index].place, late: waited, ongoing: true))
                    }
                }
                return stalled
            }
            for lag in stalled { report(lag) }
        }
    }

    /// The time from `start` to `end` (monotonic nanoseconds), zero when `end` is not later.
    package static func elapsed(from start: UInt64, to end: UInt64) -> Duration {
        end > start ? .nanoseconds(Int64(clamping: end - start)) : .zero
    }

    private func report(_ lag: Lag) {
        lags.withLock { $0.append(lag) }
        var line = "spotlink loop-lag probe: \(lag)"
        if dumps, lag.ongoing {
            line += "; stacks in \(dumpStacks())"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes every thread's stack to a file with gdb, and returns its path (or why not).
    private func dumpStacks() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spotlink-loop-lag-\(getpid())-\(DispatchTime.now().uptimeNanoseconds).txt")
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-p", "\(getpid())", "-batch", "-ex", "thread apply all bt 40"]
        _ = FileManager.default.createFile(atPath: path.path, contents: nil)
        guard let output = try? FileHandle(forWritingTo: path) else { return "nowhere: \(path.path) not writable" }
        gdb.standardOutput = output
        gdb.standardError = output
        do {
            try gdb.run()
            gdb.waitUntilExit()
        } catch {
            return "nowhere: gdb did not start (\(error))"
        }
        return path.path
    }
}
