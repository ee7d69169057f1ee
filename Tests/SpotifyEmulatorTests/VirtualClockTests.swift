import SpotifyTesting
import Testing

@testable import VirtualTime

@Suite("VirtualClock: waiting for sleepers")
struct VirtualClockWaitTests {
    /// The wait ends when the sleep that makes the count begins, not at a poll.
    @Test func theSleepThatMakesTheCountEndsTheWait() async throws {
        let clock = VirtualClock()
        let waiting = Task { try await clock.waitForSleepers(2) }
        try await waitUntil("the wait to park") { clock.waiterCount == 1 }
        let sleepers = (0..<2).map { _ in Task { try await clock.sleep(for: .seconds(5)) } }
        try await waiting.value
        #expect(clock.sleeperCount == 2)
        #expect(clock.waiterCount == 0)
        clock.advance(by: .seconds(5))
        for sleeper in sleepers { try await sleeper.value }
        // A count already reached returns at once.
        let third = Task { try await clock.sleep(for: .seconds(1)) }
        try await clock.waitForSleepers(1)
        third.cancel()
        await #expect(throws: CancellationError.self) { try await third.value }
    }

    /// A wait for sleepers that never come fails, saying how many there were.
    @Test func aWaitForSleepersThatNeverComeGivesUpAndSaysSo() async throws {
        let clock = VirtualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.waitForSleepers(1)
        let error = try await #require(throws: VirtualClock.WaitGaveUp.self) {
            try await clock.waitForSleepers(2, within: .milliseconds(50))
        }
        #expect(error.description.contains("waitForSleepers(2) gave up after"), "\(error)")
        #expect(error.description.contains("with 1 task(s) asleep"), "\(error)")
        sleeper.cancel()
    }

    /// A cancelled wait ends at once (its default limit is a minute) and says it was cancelled.
    @Test(.timeLimit(.minutes(1))) func aCancelledWaitEndsAtOnce() async throws {
        let clock = VirtualClock()
        let entered = AsyncStream.makeStream(of: Void.self)
        let waiting = Task {
            entered.continuation.yield()
            try await clock.waitForSleepers(1)
        }
        for await _ in entered.stream { break }
        waiting.cancel()
        let error = try await #require(throws: VirtualClock.WaitGaveUp.self) { try await waiting.value }
        #expect(error.description.contains("was cancelled with 0 task(s) asleep"), "\(error)")
    }
}
