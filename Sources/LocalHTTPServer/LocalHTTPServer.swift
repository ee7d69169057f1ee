package import Hummingbird
package import HummingbirdCore
package import Logging
import NIOCore
import ServiceLifecycle

/// A Hummingbird server run in process on a local address: started, told its bound port, and
/// stopped on demand. Shared by the emulator and the sign-in loopback listener.
package final class LocalHTTPServer: Sendable {
    /// The address actually bound (the port is the real one when 0 was asked for).
    package let host: String
    package let port: Int
    private let group: ServiceGroup
    private let runner: Task<Void, any Error>

    private init(host: String, port: Int, group: ServiceGroup, runner: Task<Void, any Error>) {
        self.host = host
        self.port = port
        self.group = group
        self.runner = runner
    }

    /// Binds `host:port` and serves `responder` until ``stop()``.
    ///
    /// - Returns: `nil` when the address could not be bound.
    package static func start<Responder: HTTPResponder>(
        responder: Responder, host: String, port: Int, server: HTTPServerBuilder = .http1(), serverName: String,
        logLevel: Logger.Level
    ) async -> LocalHTTPServer? where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let (addresses, continuation) = AsyncStream.makeStream(of: (String?, Int?).self)
        var logger = Logger(label: serverName)
        logger.logLevel = logLevel
        let app = Application(
            responder: responder, server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in
                continuation.yield((channel.localAddress?.ipAddress, channel.localAddress?.port))
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger)
        let runner = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = addresses.makeAsyncIterator()
        guard let (boundHost, boundPort) = await iterator.next(), let boundPort else {
            runner.cancel()
            _ = await runner.result
            return nil
        }
        return LocalHTTPServer(host: boundHost ?? host, port: boundPort, group: group, runner: runner)
    }

    /// HTTP/1 whose connections close after `idleTimeout` without a byte from the client (a
    /// request head that never completes, a dribbling one, an idle kept-alive connection), with
    /// request heads bounded (`maxHeadBytes` in all): what both local servers face from a browser
    /// or a client under test.
    package static func boundedHTTP1(idleTimeout: Duration, maxHeadBytes: Int = 16 * 1024) -> HTTPServerBuilder {
        .http1(
            configuration: HTTP1Channel.Configuration(
                idleTimeout: TimeAmount(idleTimeout),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: maxHeadBytes / 2, maxHeaderListSize: maxHeadBytes, maxHeaderFieldCount: 64)))
    }

    /// Stops accepting connections and waits until the server has shut down.
    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = await runner.result
    }
}
