import SpotifyWebAPI
public import VirtualTime

/// Waits, turning the scheduler (not the clock), until `condition` holds.
///
/// The limit is a hang guard, not timing: a condition that holds returns at once, and the give-up
/// is measured in real time because a count of turns is not. Under ThreadSanitizer on a loaded
/// two-core CI machine, 200,000 turns (about 20 s on a quiet one) once ran out before four
/// now-playing subscribers had parked (a 2026-11-27 rehearsal), though nothing hung.
///
/// - Parameters:
///   - what: what is waited for, named in the error.
///   - limit: how long to keep turning before giving up (every 64th turn sleeps 0.1 ms).
///   - isolation: the caller's actor, where `condition` runs (a main-actor test reads its models).
///   - condition: checked before each turn.
/// - Throws: `VirtualClock.WaitGaveUp` naming `what` when the condition never held, so the test fails loudly.
public func waitUntil(
    _ what: String = "the condition", within limit: Duration = .seconds(120),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async throws(VirtualClock.WaitGaveUp) {
    let deadline = ContinuousClock.now + limit
    var turn = 0
    while ContinuousClock.now < deadline {
        if await condition() { return }
        if turn % 64 == 0 { try? await Task.sleep(nanoseconds: 100_000) } else { await Task.yield() }
        turn += 1
    }
    if await condition() { return }
    throw VirtualClock.WaitGaveUp("waitUntil gave up after \(limit) (\(turn) turns): \(what) never held")
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
