package import Foundation
package import HTTPTypes
import SpotifyLinkSupport
@_spi(Transport) import SpotifyWebAPI
import Synchronization

/// Real HTTP to the emulator, counting every request, with gates that hold a chosen response
/// until the test releases it (to make answers arrive out of order, or late).
///
/// Patient as ``PatientTransport`` is: the answer deadline and the timeout are hang guards here,
/// not the logic under test. With every test starting at once on two cores, the concurrency pool
/// has run its work 10 s late (a rehearsal of 2026-11-30: every sign-in of the models' tests then
/// ran past Spotify's 10 s answer deadline and failed as offline).
package final class GatedTransport: Transport {
    /// One held response.
    package typealias Gate = TestGate

    private let inner = URLSessionTransport(clock: SystemClock(), answerDeadline: TestHTTP.timeout)
    /// Real HTTP over URLSession (the platform default on Apple platforms).
    package init() {}

    private let state = Lock<(count: Int, gates: [(@Sendable (HTTPRequest) -> Bool, Gate)])>((0, []))

    /// Requests sent so far, token requests included.
    package var requestCount: Int { state.withLock { $0.count } }

    /// Holds the response to the next request matching `predicate` until the gate opens.
    package func hold(where predicate: @escaping @Sendable (HTTPRequest) -> Bool) -> Gate {
        let gate = Gate()
        state.withLock { $0.gates.append((predicate, gate)) }
        return gate
    }

    package func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws -> (
        HTTPResponse, Data
    ) {
        let gate = state.withLock { state -> Gate? in
            state.count += 1
            guard let index = state.gates.firstIndex(where: { $0.0(request) }) else { return nil }
            return state.gates.remove(at: index).1
        }
        let result = try await inner.send(request, body: body, timeout: TestHTTP.timeout, maxBodyBytes: maxBodyBytes)
        await gate?.hold()
        return result
    }
}
