import Foundation
import LocalHTTPServer
import NIOCore
import NIOPosix
import SpotifyTesting
import Testing

/// The probe that names what holds an event loop back: it sees a loop held by a blocking call
/// while the call still holds it (its watchdog thread), and once the loop is free, how late its
/// task ran. Real time is what it measures; the loop is held five times its threshold, so a loaded
/// machine only makes the hold longer. (That a free loop is not reported cannot be a test: on a
/// loaded machine any loop runs late.)
@Suite("The event-loop lag probe")
struct LoopLagProbeTests {
    @Test func aLoopHeldByABlockingCallIsReportedWhileHeldAndAfter() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let probe = LoopLagProbe(
            group: group, interval: .milliseconds(20), threshold: .milliseconds(200), watchingConcurrencyPool: false,
            dumpsStacks: false)
        #expect(probe.stalls.isEmpty)
        let released = group.next().submit { Thread.sleep(forTimeInterval: 1.0) }
        try await waitUntil("the watchdog reports the loop held") { probe.stalls.contains { $0.ongoing } }
        try await released.get()
        try await waitUntil("the loop's task reports how late it ran") { probe.stalls.contains { !$0.ongoing } }
        let late = try #require(probe.stalls.first { !$0.ongoing })
        #expect(late.place == "event loop 0" && late.late >= .milliseconds(200), "\(late)")
        #expect(probe.worst >= .milliseconds(200))
        probe.stop()
        try await group.shutdownGracefully()
    }
}

@Suite("The lag probe's arithmetic")
struct LoopLagProbeArithmeticTests {
    /// A loop's task may note a run after the watchdog read the time: the difference is then
    /// zero, never a wrapped number (which trapped the first ThreadSanitizer run of the probe).
    @Test func timeReadBeforeALaterRunIsNoTimeAtAll() {
        #expect(LoopLagProbe.elapsed(from: 2_000, to: 1_000) == .zero)
        #expect(LoopLagProbe.elapsed(from: 1_000, to: 2_000) == .nanoseconds(1_000))
        #expect(LoopLagProbe.elapsed(from: 0, to: .max) == .nanoseconds(Int64.max))
    }
}
