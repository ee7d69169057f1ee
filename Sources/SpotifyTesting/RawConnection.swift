import Foundation
import SpotifyLinkSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP connection to 127.0.0.1, for sending what no HTTP client would.
///
/// Its sends and reads block, so they run on a thread of their own, never on one of the
/// concurrency pool: a read that waits for the server to close, on the pool, held a thread of two
/// while the server, whose handlers need the pool, could not answer (a rehearsal of 2026-11-30:
/// three such tests timed out together and the whole run stalled behind them). One caller uses
/// a connection at a time.
package final class RawConnection: @unchecked Sendable {
    package let descriptor: Int32

    /// A connection to `port` on 127.0.0.1.
    package init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
        #if canImport(Darwin)
            var ignore: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &ignore, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit { close(descriptor) }

    /// Sends all bytes; `false` once the peer has closed the connection.
    @discardableResult
    package func sendIgnoringClose(_ bytes: [UInt8]) async -> Bool {
        await onThreadOfItsOwn(named: "RawConnection.send") { self.sendNow(bytes) }
    }

    /// Sends `bytes` one at a time, `every` apart (real time: a slow client, as a server's idle
    /// deadline sees it), until the peer closes the connection.
    /// - Returns: how many bytes were sent before it closed (all of them if it never did).
    package func dribble(_ bytes: [UInt8], every interval: Duration) async throws -> Int {
        var sent = 0
        for byte in bytes {
            guard await sendIgnoringClose([byte]) else { break }
            sent += 1
            try await Task.sleep(for: interval)
        }
        return sent
    }

    private func sendNow(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, MSG_NOSIGNAL_OR_ZERO)
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Reads until the peer closes or `timeout` passes (then `closed` is false).
    package func readUntilClosed(timeout: Duration) async -> (closed: Bool, text: String) {
        await onThreadOfItsOwn(named: "RawConnection.read") { self.readNow(timeout: timeout) }
    }

    private func readNow(timeout: Duration) -> (closed: Bool, text: String) {
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) {
                return (true, String(decoding: received, as: UTF8.self))
            }
            if count < 0 { return (false, String(decoding: received, as: UTF8.self)) }
            received += buffer[..<count]
        }
    }
}

#if canImport(Glibc)
    private let MSG_NOSIGNAL_OR_ZERO = Int32(MSG_NOSIGNAL)
#else
    private let MSG_NOSIGNAL_OR_ZERO: Int32 = 0
#endif
