import Foundation
import SpotifyLinkSupport
import Synchronization
import Testing

/// The places an operation waits on something outside itself (each request it sends, each read
/// and write of a store, each token store call, each sleep), numbered in the order it reaches
/// them. Seams (``TracedTransport``, ``TracedLinkStore``, ``TracedTokenStore``, ``TracedClock``)
/// report each one with ``reach(_:)`` before they suspend; only tasks of the operation under test
/// (``isTraced``, inherited by the tasks it starts) count.
///
/// ``park(at:)`` holds the operation at one point until ``release()``: the test cancels it there
/// (its task, or through the model's own cancel), then lets it go on, deterministically, as SwiftUI
/// cancels a view's task at whatever moment the view goes. ``CancellationSweep`` does it at each
/// point in turn.
package final class SuspensionPoints: Sendable {
    /// Whether the current task belongs to the operation under test.
    @TaskLocal package static var isTraced = false

    private struct State {
        var reached: [String] = []
        var parkAt: Int?
        var parkAtLabel: String?
        var parked: String?
        var released = false
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state = Lock(State())
    private let tracesReturns: Bool

    /// Points that nothing has reached yet.
    /// - Parameter returns: whether a seam's call also counts as a point where it returns (the
    ///   link store's): what lands between a read's answer and the caller's next step (a
    ///   disconnect after the saved details were read) is then swept too.
    package init(returns: Bool = false) {
        tracesReturns = returns
    }

    /// The points reached so far, in order.
    package var reached: [String] { state.withLock { $0.reached } }

    /// The point the operation is held at, once it has reached it.
    package var parked: String? { state.withLock { $0.parked } }

    /// Holds the operation at point `index` (from zero) when it reaches it, until ``release()``.
    package func park(at index: Int) {
        state.withLock { $0.parkAt = index }
    }

    /// Holds the operation at the first point labelled `label` (`"links.removeLink"`), until
    /// ``release()``: where another writer lands between an operation's steps, whichever step
    /// comes before it.
    package func park(atFirst label: String) {
        state.withLock { $0.parkAtLabel = label }
    }

    /// Lets a held operation go on (and one that reaches the point later pass at once).
    package func release() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    /// Called by a seam when its call returned: a point labelled "`label` returned" when these
    /// points trace returns, nothing otherwise.
    package func returned(_ label: String) async {
        guard tracesReturns else { return }
        await reach("\(label) returned")
    }

    /// Called by a seam before it suspends: counts the point when the operation is traced, and
    /// holds it there when it is the point ``park(at:)`` named.
    package func reach(_ label: String) async {
        guard Self.isTraced else { return }
        let holds = state.withLock { state -> Bool in
            state.reached.append(label)
            let here =
                state.parkAt == state.reached.count - 1
                || (state.parkAtLabel == label && state.reached.firstIndex(of: label) == state.reached.count - 1)
            guard here else { return false }
            state.parked = label
            return !state.released
        }
        guard holds else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.released { return true }
                state.waiting = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Runs an operation once to learn its suspension points, then once per point in a world of its
/// own: held there, cancelled, let go, and checked. The check sees where the cancel came and what
/// the operation returned, and holds the world to what a cancellation may leave: the cancelled
/// caller gets `CancellationError` or its result, nothing is half-written, no other caller sees an
/// error, no request is counted twice.
@MainActor
package enum CancellationSweep {
    /// One run of the operation.
    package struct Run: Sendable, CustomStringConvertible {
        /// The point it was cancelled at, and its number; `nil` for the run that learned them.
        package var point: (index: Int, label: String)?

        package var description: String {
            point.map { "cancelled at point \($0.index) (\($0.label))" } ?? "not cancelled"
        }
    }

    /// Sweeps `operation` over every suspension point of its first, uncancelled run.
    /// - Parameters:
    ///   - make: a new world for each run, and the points its seams report to.
    ///   - operation: what the app calls (`await card.load()`, `try await links.importJSON(…)`).
    ///   - cancel: how the app cancels it at a point: its task by default; a model's own cancel
    ///     (`cancelConnect()`) where the work runs in a task of the model's; or what else lands
    ///     there (a disconnect), run to its end before the operation goes on.
    ///   - check: what the run may leave, given the run and its result.
    /// - Returns: the points the operation passed, in order.
    @discardableResult
    package static func sweep<World>(
        make: @MainActor () async throws -> (world: World, points: SuspensionPoints),
        operation: @escaping @MainActor (World) async throws -> Void,
        cancel: @MainActor (World, Task<Void, any Error>) async -> Void = { $1.cancel() },
        check: @MainActor (World, Run, Result<Void, any Error>) async throws -> Void
    ) async throws -> [String] {
        let (world, points) = try await make()
        let first = Task { @MainActor in
            try await SuspensionPoints.$isTraced.withValue(true) { try await operation(world) }
        }
        let firstResult = await first.result
        // The points of the operation, not of what a check does after it.
        let learned = points.reached
        try await check(world, Run(point: nil), firstResult)
        for (index, label) in learned.enumerated() {
            let (world, points) = try await make()
            points.park(at: index)
            let task = Task { @MainActor in
                try await SuspensionPoints.$isTraced.withValue(true) { try await operation(world) }
            }
            let finished = Lock(false)
            let watcher = Task {
                _ = await task.result
                finished.withLock { $0 = true }
            }
            try await waitUntil("the operation reaches point \(index) (\(label)) of \(learned)") {
                points.parked != nil || finished.withLock { $0 }
            }
            guard let parked = points.parked else {
                Issue.record("the operation ended after \(points.reached) this time; it had passed \(learned)")
                continue
            }
            #expect(parked == label, "point \(index) was \(label) in the first run, \(parked) in this one")
            await cancel(world, task)
            points.release()
            await watcher.value
            try await check(world, Run(point: (index, label)), task.result)
        }
        return learned
    }
}
