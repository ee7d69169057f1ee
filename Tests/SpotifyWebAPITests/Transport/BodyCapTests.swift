import Foundation
import HTTPTypes
import SpotifyLinkSupport
import Synchronization
import Testing

@testable import SpotifyWebAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Row 21 with the real transport (`platformDefaultTransport()`: async-http-client here) against
/// a server that would send a gigabyte. The exchange must end with `bodyTooLarge` once the cap is passed, and stop reading,
/// so the server manages to write only a small part of it.
@Suite("The platform transport's body cap, against a real socket (row 21)")
struct BodyCapTests {
    @Test(arguments: [true, false])
    func aGigabyteBodyIsCutOffAtTheCapAndNotReadOn(announced: Bool) async throws {
        let server = try EndlessBodyServer(announced: announced)
        let cap = 1 << 20
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:\(server.port)/huge")!)
        await #expect {
            try await platformDefaultTransport().send(request, body: nil, timeout: .seconds(30), maxBodyBytes: cap)
        } throws: { error in
            let error = error as? SpotifyAPIError
            return error?.code == .responseTooLarge && error?.message.contains("\(cap) bytes") == true
        }
        let written = try await server.bytesWrittenWhenClosed(timeout: .seconds(20))
        #expect(written < 64 << 20, "the server wrote \(written) bytes before the client hung up")
    }

    @Test func aBodyUnderTheCapArrivesWhole() async throws {
        let server = try EndlessBodyServer(total: 300_000)
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:\(server.port)/small")!)
        let (response, body) = try await platformDefaultTransport().send(
            request, body: nil, timeout: .seconds(30), maxBodyBytes: 1 << 20)
        #expect(response.status == .ok)
        #expect(body.count == 300_000)
    }
}

/// A one-connection HTTP server on 127.0.0.1 that answers any request with `total` bytes (a
/// gigabyte by default), counting how many it managed to write before the peer closed.
final class EndlessBodyServer: Sendable {
    let port: Int
    private final class Written: Sendable { let value = Lock<Int?>(nil) }
    private let done = Written()

    /// - Parameter announced: send `Content-Length` (or only close the connection at the end).
    init(total: Int = 1 << 30, announced: Bool = true) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [done] in
            let connection = accept(listener, nil, nil)
            close(listener)
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            let length = announced ? "Content-Length: \(total)" : "Connection: close"
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)\r\n\r\n"
            _ = head.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
            var written = 0
            while written < total {
                let sent = chunk.withUnsafeBytes {
                    send(connection, $0.baseAddress, min($0.count, total - written), Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { break }
                written += sent
            }
            close(connection)
            done.value.withLock { $0 = written }
        }
        thread.start()
    }

    /// The bytes written once the connection is over; throws when it is not over in `timeout`.
    func bytesWrittenWhenClosed(timeout: Duration) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let written = done.value.withLock({ $0 }) { return written }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw POSIXError(.ETIMEDOUT)
    }
}
