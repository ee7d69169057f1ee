import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-connection HTTP server on 127.0.0.1 built on plain sockets, for the answers no proper
/// server gives: a gigabyte, a body that trickles forever, a redirect, silence.
final class SocketServer: Sendable {
    enum Behaviour: Sendable {
        /// A 200 with `total` bytes, announced with `Content-Length` or ended by closing.
        case body(total: Int, announced: Bool)
        /// A 200 announcing a megabyte, then one byte every 50 ms until the client hangs up.
        case trickle
        /// A 302 to `location`, nothing more.
        case redirect(to: String)
        /// Reads the request and never answers.
        case silence
        /// Answers the first request and keeps the connection; closes it without answering the
        /// second request on it, as a server does when it closes an idle connection just as the
        /// client reuses it; then answers each request on a new connection. With `reset`, the
        /// server closes with the request unread, so its kernel answers the client with a reset
        /// (`ECONNRESET`) instead of an end of stream.
        case losesKeptConnection(reset: Bool)
    }

    let port: Int
    private struct Progress {
        var requests = 0
        var connections = 0
        var written = 0
        var closed = false
        var keptClosedByClient = false
    }
    private let progress = Lock(Progress())

    init(_ behaviour: Behaviour) throws {
        let listener = socket(AF_INET, Self.stream, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        if case .losesKeptConnection(let reset) = behaviour {
            Thread { [self] in serveLosingKeptConnection(listener, reset: reset) }.start()
            return
        }
        Thread { [self] in
            let connection = accept(listener, nil, nil)
            progress.withLock { $0.connections += 1 }
            close(listener)
            Self.ignoreSIGPIPE(connection)
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            progress.withLock { $0.requests += 1 }
            serve(behaviour, on: connection)
            close(connection)
            progress.withLock { $0.closed = true }
        }.start()
    }

    private func serveLosingKeptConnection(_ listener: Int32, reset: Bool) {
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        var buffer = [UInt8](repeating: 0, count: 4096)
        let kept = accept(listener, nil, nil)
        Self.ignoreSIGPIPE(kept)
        progress.withLock { $0.connections += 1 }
        guard recv(kept, &buffer, buffer.count, 0) > 0 else {
            close(kept)
            close(listener)
            return
        }
        progress.withLock { $0.requests += 1 }
        _ = write(ok, kept)
        // The second request, or the client's own close of the idle connection. With `reset`, the
        // request is only looked at and left unread: closing a socket with unread data sends a
        // reset. (Two minutes: a loaded machine may hold the client back for tens of seconds.)
        var arriving = pollfd(fd: kept, events: Int16(POLLIN), revents: 0)
        if poll(&arriving, 1, 120_000) == 1 {
            let read = recv(kept, &buffer, buffer.count, reset ? Int32(MSG_PEEK) : 0)
            progress.withLock {
                if read > 0 { $0.requests += 1 } else { $0.keptClosedByClient = true }
            }
        }
        close(kept)
        // One more connection, for a retry; none comes within two minutes for a request not
        // retried (the test has its answer by then: the thread outlives it, holding the port).
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        defer {
            close(listener)
            progress.withLock { $0.closed = true }
        }
        guard poll(&waiting, 1, 120_000) == 1 else { return }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        Self.ignoreSIGPIPE(connection)
        progress.withLock { $0.connections += 1 }
        if recv(connection, &buffer, buffer.count, 0) > 0 {
            progress.withLock { $0.requests += 1 }
            _ = write(ok, connection)
        }
        close(connection)
    }

    private func serve(_ behaviour: Behaviour, on connection: Int32) {
        switch behaviour {
        case .losesKeptConnection: return
        case .body(let total, let announced):
            let length = announced ? "Content-Length: \(total)" : "Connection: close"
            guard write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)\r\n\r\n", connection) else {
                return
            }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
            var written = 0
            while written < total {
                let sent = chunk.withUnsafeBytes {
                    sendWithoutSignal(connection, $0.baseAddress, min($0.count, total - written))
                }
                if sent <= 0 { break }
                written += sent
                progress.withLock { $0.written = written }
            }
        case .trickle:
            guard write("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n", connection) else { return }
            while Self.send([UInt8(ascii: " ")], connection) > 0 {
                progress.withLock { $0.written += 1 }
                usleep(50_000)
            }
        case .redirect(let location):
            _ = write("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n", connection)
            // Stay until the client hangs up, so a second request on this connection would be seen.
            var buffer = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &buffer, buffer.count, 0) > 0 { progress.withLock { $0.requests += 1 } }
        case .silence:
            var buffer = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
        }
    }

    var requests: Int { progress.withLock { $0.requests } }
    var connections: Int { progress.withLock { $0.connections } }
    /// Whether the client closed the kept connection before sending a second request on it.
    var keptClosedByClient: Bool { progress.withLock { $0.keptClosedByClient } }
    var written: Int { progress.withLock { $0.written } }

    /// Waits (real time: a peer's I/O, never a timing rule) until `condition` holds; throws after
    /// `limit` so a test that waits in vain says so. Only time this waiter was awake counts: when
    /// the whole pool stalled (a loaded machine), the stall is not charged to the peer, which may
    /// have been stalled as well.
    func wait(
        _ what: String = "the server", until condition: @escaping @Sendable (SocketServer) -> Bool,
        limit: Duration = .seconds(20)
    ) async throws {
        var waited = Duration.zero
        var last = ContinuousClock.now
        while !condition(self) {
            guard waited < limit else {
                throw VirtualClock.WaitGaveUp(
                    "\(what) did not get there in \(limit): \(requests) request(s), \(written) byte(s) written")
            }
            try await Task.sleep(for: .milliseconds(10))
            let now = ContinuousClock.now
            waited += min(now - last, .milliseconds(100))
            last = now
        }
    }

    /// The bytes written once the connection is over; throws when it is not over in `limit`.
    func bytesWrittenWhenClosed(limit: Duration) async throws -> Int {
        try await wait("the connection's end", until: { $0.progress.withLock { $0.closed } }, limit: limit)
        return written
    }

    private func write(_ text: String, _ connection: Int32) -> Bool {
        Self.send(Array(text.utf8), connection) > 0
    }

    private static func send(_ bytes: [UInt8], _ connection: Int32) -> Int {
        bytes.withUnsafeBytes { sendWithoutSignal(connection, $0.baseAddress, $0.count) }
    }

    #if canImport(Glibc)
        private static let stream = Int32(SOCK_STREAM.rawValue)
        private static func ignoreSIGPIPE(_ connection: Int32) {}
    #else
        private static let stream = SOCK_STREAM
        private static func ignoreSIGPIPE(_ connection: Int32) {
            var on: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    #endif
}

/// `send(2)` without SIGPIPE on a closed peer: `MSG_NOSIGNAL` exists on Linux only (Darwin sets
/// `SO_NOSIGPIPE` on the socket instead).
private func sendWithoutSignal(_ socket: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(socket, buffer, count, Int32(MSG_NOSIGNAL))
    #else
        send(socket, buffer, count, 0)
    #endif
}
