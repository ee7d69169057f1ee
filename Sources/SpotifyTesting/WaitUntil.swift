import SpotifyWebAPI
public import VirtualTime

/// Waits, turning the scheduler (not the clock), until `condition` holds.
///
/// - Parameters:
///   - what: what is waited for, named in the error.
///   - maxTurns: how many turns to try (every 64th sleeps 0.1 ms: about 20 s of real time at the default).
///   - isolation: the caller's actor, where `condition` runs (a main-actor test reads its models).
///   - condition: checked before each turn.
/// - Throws: `VirtualClock.WaitGaveUp` naming `what` when the condition never held, so the test fails loudly.
public func waitUntil(
    _ what: String = "the condition", maxTurns: Int = 200_000, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async -> Bool
) async throws(VirtualClock.WaitGaveUp) {
    for turn in 0..<maxTurns {
        if await condition() { return }
        if turn % 64 == 0 { try? await Task.sleep(nanoseconds: 100_000) } else { await Task.yield() }
    }
    throw VirtualClock.WaitGaveUp("waitUntil gave up after \(maxTurns) turns: \(what) never held")
}

/// The next element of `stream`, waiting at most `limit` of real time for it: for tests that wait
/// on another thread or process to arrive (a system callback, a held follower), not for timing.
/// The limit only says when to give up: an element that arrives returns at once. It is a minute
/// because a ThreadSanitizer run on a loaded two-core CI machine once held a main-actor follower
/// back for more than 10 s.
///
/// - Throws: `VirtualClock.WaitGaveUp` naming `what` when nothing arrived in time, or the stream
///   ended, so the test fails loudly instead of hanging.
package func nextElement<Element: Sendable>(
    of stream: AsyncStream<Element>, within limit: Duration = .seconds(60), _ what: String
) async throws(VirtualClock.WaitGaveUp) -> Element {
    let element = await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard let element else { throw VirtualClock.WaitGaveUp("gave up after \(limit) waiting for \(what)") }
    return element
}
