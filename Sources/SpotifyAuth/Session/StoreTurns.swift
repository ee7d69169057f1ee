/// Turns at the token store for the work of one actor: each body runs with the store to itself,
/// in the order the calls came, while the actor serves other calls as the store answers.
///
/// It lives in the actor it serves and runs on that actor's executor (`isolation`), so its state
/// needs no lock. ``SpotifySession`` runs everything that reads and then writes the store through
/// it: a sign-out that arrives while a refresh waits for Spotify takes effect after it.
final class StoreTurns {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Calls waiting for their turn (tests check that one has parked).
    var waiting: Int { waiters.count }

    /// Runs `body` when the calls before it are done, and hands the turn to the next call when
    /// it ends, returned or thrown.
    func run<T>(isolation: isolated any Actor = #isolation, _ body: () async throws -> T) async throws -> T {
        while busy { await withCheckedContinuation { waiters.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiters.isEmpty { waiters.removeFirst().resume() }
        }
        return try await body()
    }
}
