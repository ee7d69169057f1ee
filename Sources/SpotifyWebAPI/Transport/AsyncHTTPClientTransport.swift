#if os(Linux) && canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    public import Foundation
    public import HTTPTypes
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    /// The transport on Linux: async-http-client on SwiftNIO.
    ///
    /// Bodies are read with backpressure and the exchange ends the moment the size cap is passed,
    /// so a hostile or broken server can neither make the client hold an unbounded body nor keep it
    /// reading one. (FoundationNetworking's `URLSession` on Linux reads ahead into memory without
    /// backpressure: a 1 GiB answer took the process to 1.2 GB even though the cap was 1 MiB.)
    /// Redirects are not followed: a redirect would carry the bearer token elsewhere.
    @_spi(Transport)
    public final class AsyncHTTPClientTransport: Transport {
        /// One client for the process, as async-http-client recommends; it lives until exit, so it
        /// is never shut down.
        private static let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: {
                var configuration = HTTPClient.Configuration(
                    redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)), decompression: .disabled)
                // A refused connection fails its request at once: the pool would otherwise try again
                // with backoff until the connect timeout (10 s a request, 30 s with the client's
                // retries). The client decides what to try again.
                configuration.connectionPool.retryConnectionEstablishment = false
                configuration.connectionPool.idleTimeout = TimeAmount(idleTimeout)
                return configuration
            }())

        /// How long a kept-alive connection waits unused before the client closes it: shorter than
        /// the servers' own idle timeouts (the emulator's 10 s, proxies' 15 s and more), so the
        /// client closes first. A server that closes an idle connection as a request goes out on it
        /// loses that request, and a POST (a token exchange, a refresh) is never sent twice. With
        /// the pool's default, 60 s, a process held back past the emulator's 10 s lost sign-ins
        /// that way under ThreadSanitizer.
        package static let idleTimeout: Duration = .seconds(5)

        /// The process's transport: what ``platformDefaultTransport()`` returns on Linux.
        public static let shared = AsyncHTTPClientTransport()

        private let clock: any SpotifyClock
        private let answerDeadline: Duration

        /// A transport on the process-wide client.
        public convenience init() {
            self.init(clock: SystemClock())
        }

        /// A transport whose deadlines run on `clock` (tests step a virtual one), giving up on a
        /// request whose answer has not begun within `answerDeadline`.
        package init(clock: any SpotifyClock, answerDeadline: Duration = AnswerDeadline.default) {
            self.clock = clock
            self.answerDeadline = answerDeadline
        }

        public func send(
            _ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int
        ) async throws -> (HTTPResponse, Data) {
            let (clock, answerDeadline) = (clock, answerDeadline)
            return try await withDeadline(timeout, on: clock) {
                try await Self.exchange(
                    request, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes,
                    answerDeadline: answerDeadline, clock: clock)
            }
        }

        private static func exchange(
            _ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int, answerDeadline: Duration,
            clock: any SpotifyClock
        ) async throws -> (HTTPResponse, Data) {
            guard let url = request.url else { throw SpotifyAPIError.transport("the URL is not valid") }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
            for field in request.headerFields { outgoing.headers.add(name: field.name.rawName, value: field.value) }
            if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
            let ready = outgoing
            // The real-time deadline backs up the one on the transport's clock.
            let deadline = NIODeadline.now() + max(.nanoseconds(1), TimeAmount(timeout))
            do {
                let idempotent = request.method.maySendTwice
                // The answer's head within the answer deadline; its body within the whole timeout.
                let response =
                    answerDeadline < timeout
                    ? try await withDeadline(answerDeadline, on: clock, expired: .notAnswering(within: answerDeadline))
                    {
                        try await execute(ready, deadline: deadline, idempotent: idempotent)
                    } : try await execute(ready, deadline: deadline, idempotent: idempotent)
                if let announced = response.headers.first(name: "content-length").flatMap(Int.init),
                    announced > maxBodyBytes
                {
                    throw SpotifyAPIError.responseTooLarge(limit: maxBodyBytes)
                }
                var data = Data()
                for try await chunk in response.body {
                    guard data.count + chunk.readableBytes <= maxBodyBytes else {
                        throw SpotifyAPIError.responseTooLarge(limit: maxBodyBytes)
                    }
                    data.append(contentsOf: chunk.readableBytesView)
                }
                var fields = HTTPFields()
                for header in response.headers {
                    if let name = HTTPField.Name(header.name) {
                        fields.append(HTTPField(name: name, value: header.value))
                    }
                }
                return (HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields), data)
            } catch let error as SpotifyAPIError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw transportError(error)
            }
        }

        /// Sends `request`; an idempotent one that a kept-alive connection lost before any answer
        /// is sent once more, on a new connection.
        ///
        /// A server may close an idle connection at the moment the pool hands it to the next
        /// request; async-http-client reports that as a lost connection and does not retry
        /// (swift-server/async-http-client#715). RFC 9112 §9.3.1 asks a client to retry an
        /// idempotent request then, once. The request never reached the server's handler, so it
        /// is not a second request to Spotify; it stays one request in the ledger. (A reset can
        /// also end a connection whose server failed while answering; the request is idempotent,
        /// so sending it again is safe, and the ledger still counts it once.)
        private static func execute(
            _ request: HTTPClientRequest, deadline: NIODeadline, idempotent: Bool
        ) async throws -> HTTPClientResponse {
            do {
                return try await client.execute(request, deadline: deadline)
            } catch  where idempotent && isLostBeforeAnswer(error) {
                return try await client.execute(request, deadline: deadline)
            }
        }

        /// The connection closed before any of the answer arrived: an end of stream, or a reset
        /// (the server closed with the request unread, so its kernel reset the connection; a
        /// write into that reset fails with a broken pipe).
        static func isLostBeforeAnswer(_ error: any Error) -> Bool {
            if let error = error as? HTTPClientError { return error == .remoteConnectionClosed }
            if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
            if let error = error as? ChannelError {
                switch error {
                case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed: return true
                default: return false
                }
            }
            return false
        }

        /// Nothing answered at the address: the connection refused, or the name unknown.
        static func refusal(_ error: any Error) -> SpotifyAPIError? {
            if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
                return .refused("nothing answered at that address (the connection was refused)")
            }
            if let error = error as? NIOConnectionError {
                if error.dnsAAAAError != nil || error.dnsAError != nil, error.connectionErrors.isEmpty {
                    return .refused("the server's name is not known here")
                }
                let refusals = error.connectionErrors.filter { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
                if !error.connectionErrors.isEmpty, refusals.count == error.connectionErrors.count {
                    return .refused("nothing answered at that address (the connection was refused)")
                }
            }
            return nil
        }

        private static func transportError(_ error: any Error) -> any Error {
            if let error = error as? HTTPClientError {
                switch error {
                case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return SpotifyAPIError.timedOut
                case .cancelled: return CancellationError()
                case .remoteConnectionClosed, .bodyLengthMismatch:
                    return SpotifyAPIError.transport("the connection was lost (\(String(describing: error)))")
                default: return SpotifyAPIError.transport(String(describing: error))
                }
            }
            if let refusal = refusal(error) { return refusal }
            // What stopped the connection is named ("socket(): Too many open files", a connect
            // timeout): "could not connect" alone once left a red run with nothing to go on.
            if let error = error as? NIOConnectionError {
                let causes = error.connectionErrors.map { "\($0.target): \(cause($0.error))" }
                let named = causes.isEmpty ? "no address to try" : causes.joined(separator: "; ")
                return SpotifyAPIError.transport("could not connect (\(named))")
            }
            if let error = error as? ChannelError {
                return SpotifyAPIError.transport("could not connect (\(cause(error)))")
            }
            if let error = error as? IOError {
                // The system call and its errno ("Too many open files"): what to look at next.
                return SpotifyAPIError.transport("the system refused it (\(error.description))")
            }
            return SpotifyAPIError.transport(String(describing: type(of: error)))
        }

        /// A connection failure's own words: the system call and its errno, or NIO's case.
        private static func cause(_ error: any Error) -> String {
            if let error = error as? IOError { return error.description }
            if let error = error as? ChannelError { return String(describing: error) }
            return String(describing: type(of: error))
        }
    }

#endif
