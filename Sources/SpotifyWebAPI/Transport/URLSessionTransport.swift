public import Foundation
public import HTTPTypes
import HTTPTypesFoundation
import SpotifyLinkSupport
import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The real transport on Apple platforms: `URLSession` (FoundationNetworking on Linux, where its
/// tests run too).
///
/// One session serves every request of a transport, so connections are reused: use ``shared``
/// (what ``platformDefaultTransport()`` returns on Apple platforms) rather than a transport per
/// model or call. The whole exchange, from start to last byte, ends at its `timeout` on the
/// transport's clock (`URLRequest.timeoutInterval` alone is only an idle timeout). Bodies stream
/// through a delegate that stops reading as soon as the size cap is passed, so a hostile or broken
/// server cannot make the client hold an unbounded body. Redirects are not followed: the Web API
/// never redirects, and a redirect would carry the bearer token elsewhere.
@_spi(Transport)
public final class URLSessionTransport: Transport {
    /// The process's transport on an ephemeral session: no cookies, no cache on disk.
    public static let shared = URLSessionTransport()

    private let session: URLSession
    private let delegate: Delegate
    private let clock: any SpotifyClock
    private let answerDeadline: Duration

    /// A transport on a new session with a copy of `configuration` (ephemeral by default), without
    /// cookies or cache. Background configurations (`background(withIdentifier:)`) do not serve
    /// delegate data tasks and are refused.
    public convenience init(configuration: URLSessionConfiguration = .ephemeral) {
        self.init(configuration: configuration, clock: SystemClock())
    }

    /// A transport whose deadlines run on `clock` (tests step a virtual one), giving up on a
    /// request whose answer has not begun within `answerDeadline`.
    package init(
        configuration: URLSessionConfiguration = .ephemeral, clock: any SpotifyClock,
        answerDeadline: Duration = AnswerDeadline.default
    ) {
        precondition(
            configuration.identifier == nil, "URLSessionTransport does not support background session configurations")
        // A copy: the caller's configuration object is left as it was.
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = Delegate()
        self.delegate = delegate
        self.clock = clock
        self.answerDeadline = answerDeadline
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(
        _ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int
    ) async throws -> (HTTPResponse, Data) {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw SpotifyAPIError.transport("the URL is not valid")
        }
        urlRequest.httpBody = body
        // The idle timeout backs up the deadline below, which bounds the whole exchange.
        urlRequest.timeoutInterval = max(timeout.seconds, 0.001)
        let task = session.dataTask(with: urlRequest)
        let (delegate, clock, answerDeadline) = (delegate, clock, answerDeadline)
        // The answer's head within the answer deadline; its body within the whole timeout.
        let watchdog: Task<Void, Never>? =
            answerDeadline < timeout
            ? Task {
                guard (try? await clock.sleep(for: answerDeadline)) != nil else { return }
                delegate.expireUnanswered(task, within: answerDeadline)
            } : nil
        defer { watchdog?.cancel() }
        return try await withDeadline(timeout, on: clock) {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Registered and resumed under the delegate's lock, so a cancellation that came
                    // first (even before this task started) ends the exchange at once.
                    delegate.start(task, limit: maxBodyBytes, watchdog: watchdog, continuation: continuation)
                }
            } onCancel: {
                delegate.cancel(task)
            }
        }
    }

    private struct Exchange {
        var limit: Int
        /// The answer deadline's timer, stopped when the answer's head arrives.
        var watchdog: Task<Void, Never>?
        var continuation: CheckedContinuation<(HTTPResponse, Data), any Error>
        var response: HTTPResponse?
        var data = Data()
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private struct Table {
            var exchanges: [Int: Exchange] = [:]
            /// Tasks cancelled before they were started.
            var cancelled: Set<Int> = []
        }

        private let table = Lock(Table())

        func start(
            _ task: URLSessionTask, limit: Int, watchdog: Task<Void, Never>?,
            continuation: CheckedContinuation<(HTTPResponse, Data), any Error>
        ) {
            let cancelledFirst = table.withLock { table -> Bool in
                if table.cancelled.remove(task.taskIdentifier) != nil { return true }
                table.exchanges[task.taskIdentifier] = Exchange(
                    limit: limit, watchdog: watchdog, continuation: continuation)
                return false
            }
            if cancelledFirst {
                continuation.resume(throwing: CancellationError())
            } else {
                task.resume()
            }
        }

        /// The answer deadline passed: an exchange with no answer's head yet ends with
        /// ``SpotifyAPIError/notAnswering(within:)``, and its task is stopped.
        func expireUnanswered(_ task: URLSessionTask, within limit: Duration) {
            let unanswered = table.withLock { table -> Exchange? in
                guard let exchange = table.exchanges[task.taskIdentifier], exchange.response == nil else { return nil }
                return table.exchanges.removeValue(forKey: task.taskIdentifier)
            }
            guard let unanswered else { return }
            task.cancel()
            unanswered.continuation.resume(throwing: SpotifyAPIError.notAnswering(within: limit))
        }

        /// The Swift task was cancelled: the exchange ends with `CancellationError` now, whatever
        /// URLSession reports later.
        func cancel(_ task: URLSessionTask) {
            let exchange = table.withLock { table -> Exchange? in
                guard let exchange = table.exchanges.removeValue(forKey: task.taskIdentifier) else {
                    table.cancelled.insert(task.taskIdentifier)
                    return nil
                }
                return exchange
            }
            task.cancel()
            exchange?.continuation.resume(throwing: CancellationError())
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let httpResponse = (response as? HTTPURLResponse)?.httpResponse
            let (tooLarge, watchdog) = table.withLock { table -> (Exchange?, Task<Void, Never>?) in
                let id = dataTask.taskIdentifier
                guard let exchange = table.exchanges[id] else { return (nil, nil) }
                if response.expectedContentLength > Int64(exchange.limit) {
                    return (table.exchanges.removeValue(forKey: id), exchange.watchdog)
                }
                table.exchanges[id]?.response = httpResponse
                return (nil, exchange.watchdog)
            }
            // The answer has begun: only the whole exchange's deadline is left.
            watchdog?.cancel()
            completionHandler(tooLarge == nil ? .allow : .cancel)
            if let tooLarge {
                tooLarge.continuation.resume(throwing: SpotifyAPIError.responseTooLarge(limit: tooLarge.limit))
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let tooLarge = table.withLock { table -> Exchange? in
                let id = dataTask.taskIdentifier
                guard let exchange = table.exchanges[id] else { return nil }
                if exchange.data.count + data.count > exchange.limit { return table.exchanges.removeValue(forKey: id) }
                // In place: a copy of the exchange would copy the body on every chunk.
                table.exchanges[id]?.data.append(data)
                return nil
            }
            // The caller hears at once; the task is stopped, whatever URLSession still reads.
            guard let tooLarge else { return }
            dataTask.cancel()
            tooLarge.continuation.resume(throwing: SpotifyAPIError.responseTooLarge(limit: tooLarge.limit))
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let exchange = table.withLock({ $0.exchanges.removeValue(forKey: task.taskIdentifier) }) else {
                return
            }
            if let error {
                exchange.continuation.resume(throwing: Self.transportError(error))
            } else if let response = exchange.response {
                exchange.continuation.resume(returning: (response, exchange.data))
            } else {
                exchange.continuation.resume(throwing: SpotifyAPIError.transport("no HTTP response"))
            }
        }

        /// A URL loading error as the client's transport error. A cancellation reaching here did
        /// not come from the Swift task (that one ended the exchange already): the system or the
        /// session stopped it, and the caller hears so.
        private static func transportError(_ error: any Error) -> any Error {
            let nsError = error as NSError
            guard nsError.domain == NSURLErrorDomain else {
                return SpotifyAPIError.transport(nsError.localizedDescription)
            }
            switch nsError.code {
            case NSURLErrorTimedOut: return SpotifyAPIError.timedOut
            case NSURLErrorCancelled: return SpotifyAPIError.transport("the request was stopped by the system")
            case NSURLErrorCannotConnectToHost:
                return SpotifyAPIError.refused("nothing answered at that address (the connection was refused)")
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
                return SpotifyAPIError.refused("the server's name is not known here")
            case NSURLErrorNotConnectedToInternet:
                return SpotifyAPIError.refused("this device is offline")
            case NSURLErrorNetworkConnectionLost, NSURLErrorBadServerResponse:
                return SpotifyAPIError.transport("the connection was lost (\(nsError.localizedDescription))")
            case -1022:  // NSURLErrorAppTransportSecurityRequiresSecureConnection
                return SpotifyAPIError.transport(
                    "App Transport Security refused plain http (an emulator on this machine needs NSAllowsLocalNetworking)"
                )
            case -1020:  // NSURLErrorDataNotAllowed
                return SpotifyAPIError.transport("mobile data is turned off for this app")
            default: return SpotifyAPIError.transport(nsError.localizedDescription)
            }
        }
    }
}

/// Runs `operation`, and ends it with `expired` (``SpotifyAPIError/timedOut`` unless said) once
/// `timeout` has passed on `clock`: the whole-exchange deadline both transports promise.
package func withDeadline<T: Sendable>(
    _ timeout: Duration, on clock: any SpotifyClock, expired: SpotifyAPIError = .timedOut,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw expired }
        return value
    }
}
