/// One run of a piece of work however many callers need it, also when it fails: a caller joins
/// the run in flight, and a caller who asked before a run failed gets that failure rather than
/// starting another.
///
/// "Asked before" is a ``ticket``, taken when the caller first asked: a caller that then waited
/// (for the store, say) while a run ended in failure still gets the failure. It lives in the
/// actor it serves and runs on that actor's executor (`isolation`), so its state needs no lock.
/// ``SpotifySession`` refreshes tokens through it.
final class SingleFlight<Value: Sendable> {
    private var inFlight: Task<Value, any Error>?
    private var ended = 0
    private var lastFailure: (ended: Int, error: any Error)?

    /// Callers waiting for the run in flight, its starter included (tests wait for them all).
    private(set) var waiting = 0

    /// The moment a caller asks, to hand to ``joined(askedAt:isolation:)`` and
    /// ``start(isolation:_:)``: how many runs had ended.
    var ticket: Int { ended }

    /// The value of the run in flight; else the failure of a run that ended after `ticket` was
    /// taken, thrown; else `nil`: the caller may start a run.
    func joined(askedAt ticket: Int, isolation: isolated any Actor = #isolation) async throws -> Value? {
        if let inFlight { return try await join(inFlight) }
        if let lastFailure, lastFailure.ended > ticket { throw lastFailure.error }
        return nil
    }

    /// Starts `work` as the run in flight, which later callers join, and waits for it. Call it
    /// only when ``joined(askedAt:isolation:)`` answered `nil` with no suspension since.
    func start(isolation: isolated any Actor = #isolation, _ work: @escaping @Sendable () async throws -> Value)
        async throws -> Value
    {
        precondition(inFlight == nil, "a run is already in flight: join it")
        let task = Task {
            _ = isolation  // the run's bookkeeping happens on the actor, before any caller resumes
            defer {
                inFlight = nil
                ended += 1
            }
            do {
                return try await work()
            } catch {
                lastFailure = (ended + 1, error)
                throw error
            }
        }
        inFlight = task
        return try await join(task)
    }

    /// Waits for `run`; a waiter's cancellation does not reach the run others wait for.
    private func join(_ run: Task<Value, any Error>, isolation: isolated any Actor = #isolation) async throws -> Value {
        waiting += 1
        defer { waiting -= 1 }
        return try await run.value
    }
}
