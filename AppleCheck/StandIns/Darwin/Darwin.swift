// Stand-in: the parts of Apple's Darwin module (the C library, as Swift imports it) that the
// package's Apple-compiled code, Foundation and the standard library's interfaces name. Each
// declaration has the type Swift gives it on Apple platforms (where `mode_t` is `UInt16` and
// `off_t` is `Int64`, unlike Linux), after the Darwin headers named beside it; all of it has been
// in iOS since 2.0 and in macOS since 10.0. Constant values are Darwin's; nothing here runs.
// As functions imported from C are, each is `@discardableResult`.

// MARK: Types (sys/_types.h, sys/_types/*.h)

/// `sys/_types/_mode_t.h`: `__uint16_t` on Darwin (Linux: `UInt32`).
public typealias mode_t = UInt16
/// `sys/_types/_uid_t.h`
public typealias uid_t = UInt32
/// `sys/_types/_gid_t.h`
public typealias gid_t = UInt32
/// `sys/_types/_off_t.h`
public typealias off_t = Int64
/// `sys/_types/_pid_t.h`
public typealias pid_t = Int32
/// `sys/_types/_dev_t.h`
public typealias dev_t = Int32
/// `sys/_types/_nlink_t.h`
public typealias nlink_t = UInt16
/// `sys/_types/_ino_t.h` (64-bit inodes)
public typealias ino_t = UInt64
/// `sys/_types/_ssize_t.h`
public typealias ssize_t = Int
/// `sys/_types/_time_t.h`
public typealias time_t = Int
/// `sys/_types/_blkcnt_t.h`
public typealias blkcnt_t = Int64
/// `sys/_types/_blksize_t.h`
public typealias blksize_t = Int32

/// `sys/_types/_timespec.h`
public struct timespec: Sendable {
    public var tv_sec: time_t
    public var tv_nsec: Int
    public init() { (tv_sec, tv_nsec) = (0, 0) }
    public init(tv_sec: time_t, tv_nsec: Int) { (self.tv_sec, self.tv_nsec) = (tv_sec, tv_nsec) }
}

/// `sys/stat.h` (`struct stat` with 64-bit inodes); the fields Swift code reads.
public struct stat {
    public var st_dev: dev_t
    public var st_mode: mode_t
    public var st_nlink: nlink_t
    public var st_ino: ino_t
    public var st_uid: uid_t
    public var st_gid: gid_t
    public var st_rdev: dev_t
    public var st_atimespec: timespec
    public var st_mtimespec: timespec
    public var st_ctimespec: timespec
    public var st_size: off_t
    public var st_blocks: blkcnt_t
    public var st_blksize: blksize_t
    public init() { fatalError("stand-in") }
}

// MARK: errno (errno.h, sys/errno.h; Swift's Darwin overlay)

/// The Darwin overlay's `errno` (`Platform.swift`): a settable global.
public var errno: Int32 {
    get { fatalError("stand-in") }
    set { fatalError("stand-in") }
}

/// The Darwin overlay's `POSIXErrorCode` (`POSIXError.swift`), every code Foundation names.
public enum POSIXErrorCode: Int32, Sendable {
    case EPERM = 1, ENOENT, ESRCH, EINTR, EIO, ENXIO, E2BIG, ENOEXEC, EBADF, ECHILD, EDEADLK, ENOMEM, EACCES
    case EFAULT, ENOTBLK, EBUSY, EEXIST, EXDEV, ENODEV, ENOTDIR, EISDIR, EINVAL, ENFILE, EMFILE, ENOTTY
    case ETXTBSY, EFBIG, ENOSPC, ESPIPE, EROFS, EMLINK, EPIPE, EDOM, ERANGE, EAGAIN, EINPROGRESS, EALREADY
    case ENOTSOCK, EDESTADDRREQ, EMSGSIZE, EPROTOTYPE, ENOPROTOOPT, EPROTONOSUPPORT, ESOCKTNOSUPPORT
    case ENOTSUP, EPFNOSUPPORT, EAFNOSUPPORT, EADDRINUSE, EADDRNOTAVAIL, ENETDOWN, ENETUNREACH, ENETRESET
    case ECONNABORTED, ECONNRESET, ENOBUFS, EISCONN, ENOTCONN, ESHUTDOWN, ETOOMANYREFS, ETIMEDOUT
    case ECONNREFUSED, ELOOP, ENAMETOOLONG, EHOSTDOWN, EHOSTUNREACH, ENOTEMPTY, EPROCLIM, EUSERS, EDQUOT
    case ESTALE, EREMOTE
    case ENOLCK = 77, ENOSYS
    case EOVERFLOW = 84
    case ECANCELED = 89, EIDRM, ENOMSG, EILSEQ
    case EBADMSG = 94, EMULTIHOP, ENODATA, ENOLINK, ENOSR, ENOSTR, EPROTO, ETIME
    case ENOTRECOVERABLE = 104, EOWNERDEAD
    /// `EWOULDBLOCK` is `EAGAIN` on Darwin.
    public static var EWOULDBLOCK: POSIXErrorCode { .EAGAIN }
}

public var EPERM: Int32 { 1 }
public var ENOENT: Int32 { 2 }
public var EINTR: Int32 { 4 }
public var EIO: Int32 { 5 }
public var EBADF: Int32 { 9 }
public var EACCES: Int32 { 13 }
public var EEXIST: Int32 { 17 }
public var ENOTDIR: Int32 { 20 }
public var EISDIR: Int32 { 21 }
public var EINVAL: Int32 { 22 }
public var ENOSPC: Int32 { 28 }
public var EROFS: Int32 { 30 }
public var EAGAIN: Int32 { 35 }
public var EWOULDBLOCK: Int32 { 35 }
public var ELOOP: Int32 { 62 }
public var ENAMETOOLONG: Int32 { 63 }
public var EDQUOT: Int32 { 69 }

/// `string.h`
public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stand-in") }

// MARK: Files (fcntl.h, unistd.h, sys/stat.h, sys/file.h, stdio.h)

public var O_RDONLY: Int32 { 0x0000 }
public var O_WRONLY: Int32 { 0x0001 }
public var O_RDWR: Int32 { 0x0002 }
public var O_APPEND: Int32 { 0x0008 }
public var O_CREAT: Int32 { 0x0200 }
public var O_TRUNC: Int32 { 0x0400 }
public var O_EXCL: Int32 { 0x0800 }
public var O_NOFOLLOW: Int32 { 0x0100 }
public var O_CLOEXEC: Int32 { 0x0100_0000 }
public var O_DIRECTORY: Int32 { 0x0010_0000 }

/// The Darwin overlay's `open` (C's is variadic): without and with a mode.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError("stand-in") }
/// The Darwin overlay's `open` with the mode of a created file.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { fatalError("stand-in") }
@discardableResult public func close(_ fd: Int32) -> Int32 { fatalError("stand-in") }
@discardableResult public func read(_ fd: Int32, _ buf: UnsafeMutableRawPointer!, _ nbyte: Int) -> ssize_t { fatalError("stand-in") }
@discardableResult public func write(_ fd: Int32, _ buf: UnsafeRawPointer!, _ nbyte: Int) -> ssize_t { fatalError("stand-in") }
@discardableResult public func fsync(_ fd: Int32) -> Int32 { fatalError("stand-in") }
@discardableResult public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func link(_ existing: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func mkdir(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { fatalError("stand-in") }
@discardableResult public func rmdir(_ path: UnsafePointer<CChar>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { fatalError("stand-in") }
@discardableResult public func chmod(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { fatalError("stand-in") }
@discardableResult public func umask(_ mask: mode_t) -> mode_t { fatalError("stand-in") }
@discardableResult public func lstat(_ path: UnsafePointer<CChar>!, _ buf: UnsafeMutablePointer<stat>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func fstat(_ fd: Int32, _ buf: UnsafeMutablePointer<stat>!) -> Int32 { fatalError("stand-in") }
public func geteuid() -> uid_t { fatalError("stand-in") }
public func getuid() -> uid_t { fatalError("stand-in") }
public func getpid() -> pid_t { fatalError("stand-in") }

public var S_IFMT: mode_t { 0o170000 }
public var S_IFDIR: mode_t { 0o040000 }
public var S_IFREG: mode_t { 0o100000 }
public var S_IFLNK: mode_t { 0o120000 }
public var S_IFCHR: mode_t { 0o020000 }
public var S_IFBLK: mode_t { 0o060000 }
public var S_IFIFO: mode_t { 0o010000 }
public var S_IFSOCK: mode_t { 0o140000 }

public var LOCK_SH: Int32 { 1 }
public var LOCK_EX: Int32 { 2 }
public var LOCK_NB: Int32 { 4 }
public var LOCK_UN: Int32 { 8 }
/// `sys/file.h`
@discardableResult public func flock(_ fd: Int32, _ operation: Int32) -> Int32 { fatalError("stand-in") }

// MARK: Threads (pthread.h)

/// `sys/_pthread/_pthread_types.h`: an opaque struct Swift imports with a zero initializer.
public struct pthread_mutex_t {
    public init() {}
}
/// `sys/_pthread/_pthread_types.h`
public struct pthread_mutexattr_t {
    public init() {}
}
public func pthread_mutex_init(
    _ mutex: UnsafeMutablePointer<pthread_mutex_t>!, _ attr: UnsafePointer<pthread_mutexattr_t>!
) -> Int32 { fatalError("stand-in") }
@discardableResult public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError("stand-in") }
@discardableResult public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError("stand-in") }
