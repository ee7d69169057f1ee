// The one lock type of the package: every target guards shared state with `Lock`, never with a raw
// `Mutex`, so that ThreadSanitizer can follow every hand-over of the state.
//
// Why two builds: the toolchain's `Synchronization.Mutex` on Linux takes its fast path with atomics
// inlined into the caller (ThreadSanitizer sees them), but its contended path (`_lockSlow` /
// `_unlockSlow` over futexes) lives in the uninstrumented runtime. When a lock is contended,
// ThreadSanitizer never sees the release and the acquire that order two critical sections, and
// reports a race that is not there; and a real race elsewhere would be lost among such reports.
//
// - In every ordinary build `Lock` *is* `Mutex`: a type alias, so no cost and no behaviour of its own.
// - In a ThreadSanitizer build (`scripts/tsan.sh` passes `-DSPOTLINK_TSAN`) it is a pthread mutex,
//   which ThreadSanitizer intercepts: each acquire and release is visible to it, contended or not.
//
// Both offer `init(_:)` and `withLock(_:)` with the same call shape, which is all the package uses.

#if SPOTLINK_TSAN
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A value guarded by a pthread mutex that ThreadSanitizer intercepts (ThreadSanitizer builds only).
    package final class Lock<Value>: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private var value: Value

        /// A lock guarding `initialValue`.
        package init(_ initialValue: Value) {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
            value = initialValue
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` with the value to itself, as `Mutex.withLock` does.
        package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
#else
    package import Synchronization

    /// A value guarded by a lock: exactly `Synchronization.Mutex` outside ThreadSanitizer builds.
    package typealias Lock<Value: ~Copyable> = Mutex<Value>
#endif
