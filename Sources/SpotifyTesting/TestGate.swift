import SpotifyLinkSupport
import Synchronization

/// A gate a test opens by hand: tasks that ``hold()`` wait until ``open()``; once open it stays open.
///
/// Hold a scripted or real answer with it to make answers arrive late or out of order.
package final class TestGate: Sendable {
    private let state = Lock<(arrived: Bool, open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        (false, false, []))

    /// A closed gate.
    package init() {}

    /// Lets every holder through, now and later.
    package func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Whether something has reached the gate.
    package var hasArrived: Bool { state.withLock { $0.arrived } }

    /// Waits until the gate is open.
    package func hold() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.arrived = true
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
