import Foundation
package import NIOCore
import NIOPosix
import SpotifyLinkSupport
import Synchronization

/// Watches the event loops of NIO's singleton group, which the local servers (the emulator, the
/// sign-in listener) and the Linux transport (async-http-client) all run on: a task on each loop
/// every 100 ms records how late it ran, and a watchdog thread of its own notices a loop whose
/// task is overdue while it is still held (a loop blocked by a call that never returns would never
/// run its task to say so).
///
/// A loop held back more than ``stallThreshold`` is reported on standard error when it is first
/// seen, with the loop's thread; with `SPOTLINK_LOOP_LAG_DUMP=1` in the environment, every
/// thread's stack is written beside it (`gdb -p` on this process), which names what the loop ran:
/// the blocker. Started once per process, by the test emulator.
package final class LoopLagProbe: Sendable {
    /// One loop's lateness.
    package struct Lag: Sendable, CustomStringConvertible {
        /// The loop's index in the group.
        package var loop: Int
        /// How long past its time its task ran (or, when reported by the watchdog, has waited).
        package var late: Duration
        /// Whether the loop was still held when this was seen (the watchdog's report).
        package var ongoing: Bool

        package var description: String {
            "event loop \(loop) \(ongoing ? "has been held" : "ran its task") \(late) late"
        }
    }

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
    /// `threshold` or more (tests make a group and a threshold of their own).
    package init(
        group: any EventLoopGroup, interval: Duration = .milliseconds(100), threshold: Duration = stallThreshold,
        dumpsStacks: Bool = ProcessInfo.processInfo.environment["SPOTLINK_LOOP_LAG_DUMP"] == "1"
    ) {
        self.interval = interval
        self.threshold = threshold
        dumps = dumpsStacks
        let eventLoops = Array(group.makeIterator())
        let now = DispatchTime.now().uptimeNanoseconds
        loops = Lock(eventLoops.map { _ in Loop(lastRun: now) })
        for (index, loop) in eventLoops.enumerated() { schedule(on: loop, index: index) }
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
            // The stall's end: how late the task ran in all (the watchdog said when it began).
            let due = loops.withLock { loops -> UInt64 in
                defer { loops[index] = Loop(lastRun: now) }
                return loops[index].lastRun
            }
            let late = Duration.nanoseconds(Int64(now &- due)) - self.interval
            worstLate.withLock { $0 = max($0, late) }
            if late >= threshold { report(Lag(loop: index, late: late, ongoing: false)) }
        }
        tasks.withLock { $0.append(task) }
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
            let now = DispatchTime.now().uptimeNanoseconds
            let stalled = loops.withLock { loops -> [Lag] in
                var stalled: [Lag] = []
                for index in loops.indices where !loops[index].reported {
                    let waited = Duration.nanoseconds(Int64(now &- loops[index].lastRun)) - interval
                    if waited >= threshold {
                        loops[index].reported = true
                        stalled.append(Lag(loop: index, late: waited, ongoing: true))
                    }
                }
                return stalled
            }
            for lag in stalled { report(lag) }
        }
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
