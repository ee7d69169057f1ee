import Foundation

/// Runs `work` on a thread of its own and returns what it returns, holding no thread of the Swift
/// concurrency pool while it runs.
///
/// For work that computes for seconds without a suspension point (the emulator's generated
/// catalog, a test's thousands of decodings): on the pool it holds one of its threads, two on a
/// two-core machine, and every other task of the process waits behind it. Under ThreadSanitizer
/// such work held the whole pool for tens of seconds, and requests in flight timed out.
package func onThreadOfItsOwn<Value: Sendable>(
    named name: String, _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = name
        thread.start()
    }
}

/// ``onThreadOfItsOwn(named:_:)`` for work that does not throw.
package func onThreadOfItsOwn<Value: Sendable>(
    named name: String, _ work: @escaping @Sendable () -> Value
) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = name
        thread.start()
    }
}
