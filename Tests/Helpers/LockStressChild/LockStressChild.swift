import Dispatch
import Foundation
import SpotifyLinkSupport
import Synchronization

/// Test helper for the lock that ThreadSanitizer can follow: threads hammer one shared state
/// behind a lock until every thread has done its share, then the process prints the total.
///
/// Usage: `LockStressChild lock|mutex ROUNDS`. `lock` guards the state with the package's `Lock`;
/// `mutex` with a raw `Synchronization.Mutex`, whose contended hand-over ThreadSanitizer cannot
/// see (the control: in a ThreadSanitizer build it must report a race, or the test proves nothing).
@main
struct LockStressChild {
    static let threads = 4

    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let rounds = Int(arguments[2]), ["lock", "mutex"].contains(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: LockStressChild lock|mutex ROUNDS\n".utf8))
            exit(2)
        }
        let total: Int
        if arguments[1] == "lock" {
            let state = Lock(Shared())
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for round in 0..<rounds { state.withLock { $0.step(round) } }
            }
            total = state.withLock { $0.count }
        } else {
            let state = Mutex(Shared())
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for round in 0..<rounds { state.withLock { $0.step(round) } }
            }
            total = state.withLock { $0.count }
        }
        print("total \(total)")
        exit(total == threads * rounds ? 0 : 1)
    }
}

/// A state whose every step reads and writes several fields and a heap buffer, so a critical
/// section lasts long enough for the other threads to queue behind it.
struct Shared: Sendable {
    var count = 0
    var recent: [Int] = []

    mutating func step(_ round: Int) {
        count += 1
        recent.append(round &* 31 &+ count)
        if recent.count > 16 { recent.removeFirst(8) }
    }
}
