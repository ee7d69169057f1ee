// The one lock type of the package: every target guards shared state with `Lock`, never with a raw
// `Mutex`, so that ThreadSanitizer can follow every hand-over of the state, and so that the package
// runs where `Mutex` does not exist.
//
// Why two builds:
// - `Synchronization.Mutex` is iOS 18 / macOS 15, above the package's deployment targets (iOS 17,
//   macOS 14), and a type cannot be chosen by `if #available`. On Apple platforms `Lock` is therefore
//   a pthread mutex, which every release has.
// - The toolchain's `Mutex` on Linux takes its fast path with atomics inlined into the caller
//   (ThreadSanitizer sees them), but its contended path (`_lockSlow` / `_unlockSlow` over futexes)
//   lives in the uninstrumented runtime. When a lock is contended, ThreadSanitizer never sees the
//   release and the acquire that order two critical sections, and reports a race that is not there.
//   A ThreadSanitizer build (`scripts/tsan.sh` passes `-DSPOTLINK_TSAN`) takes the pthread mutex
//   too, which ThreadSanitizer intercepts.
//
// So the pthread lock is the Apple platforms' lock and the one every ThreadSanitizer run on Linux
// exercises; in every other Linux build `Lock` *is* `Mutex` (a type alias, no cost of its own). Both
// offer `init(_:)` and `withLock(_:)` with the same call shape, which is all the package uses.

#if SPOTLINK_TSAN || !os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A value guarded by a pthread mutex: the lock of Apple platforms below iOS 18 and macOS 15, and
    /// of ThreadSanitizer builds, which intercept it.
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

    /// A value guarded by a lock: exactly `Synchronization.Mutex` in Linux builds outside ThreadSanitizer.
    package typealias Lock<Value: ~Copyable> = Mutex<Value>
#endif
