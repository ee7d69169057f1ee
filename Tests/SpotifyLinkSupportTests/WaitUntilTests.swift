import SpotifyTesting
import Synchronization
import Testing

/// The tests' wait for a condition: it returns as soon as the condition holds, and gives up
/// loudly, naming what it waited for, when it never does.
@Suite("Waiting for a condition")
struct WaitUntilTests {
    @Test func aConditionThatComesTrueEndsTheWait() async throws {
        let turns = Atomic(0)
        try await waitUntil("the third look") { turns.add(1, ordering: .relaxed).newValue == 3 }
        #expect(turns.load(ordering: .relaxed) == 3)
    }

    @Test func aConditionThatNeverHoldsFailsNamingIt() async {
        await #expect {
            try await waitUntil("the impossible", within: .milliseconds(20)) { false }
        } throws: { error in
            "\(error)".contains("the impossible never held")
        }
    }
}
