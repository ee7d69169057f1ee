public import Foundation
public import HTTPTypes
import HTTPTypesFoundation
import SpotifyLinkSupport
import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The real transport: `URLSession` (FoundationNetworking on Linux).
///
/// Bodies stream through a delegate that stops reading as soon as the size cap is passed, so a
/// hostile or broken server cannot make the client hold an unbounded body. Redirects are not
/// followed: the Web API never redirects, and a redirect would carry the bearer token elsewhere.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate: Delegate

    /// A transport on a session with `configuration` (ephemeral: no cookies, no cache on disk).
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let delegate = Delegate()
        self.delegate = delegate
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
        urlRequest.timeoutInterval = max(timeout.seconds, 0.001)
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(task: task, limit: maxBodyBytes, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    private struct Exchange {
        var limit: Int
        var continuation: CheckedContinuation<(HTTPResponse, Data), any Error>
        var response: HTTPResponse?
        var data = Data()
        var failure: SpotifyAPIError?
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = Lock<[Int: Exchange]>([:])

        func register(
            task: URLSessionTask, limit: Int, continuation: CheckedContinuation<(HTTPResponse, Data), any Error>
        ) {
            exchanges.withLock { $0[task.taskIdentifier] = Exchange(limit: limit, continuation: continuation) }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let httpResponse = (response as? HTTPURLResponse)?.httpResponse
            let disposition: URLSession.ResponseDisposition = exchanges.withLock { table in
                guard var exchange = table[dataTask.taskIdentifier] else { return .cancel }
                exchange.response = httpResponse
                if response.expectedContentLength > Int64(exchange.limit) {
                    exchange.failure = .responseTooLarge(limit: exchange.limit)
                }
                table[dataTask.taskIdentifier] = exchange
                return exchange.failure == nil ? .allow : .cancel
            }
            completionHandler(disposition)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let tooLarge = exchanges.withLock { table -> Bool in
                guard var exchange = table[dataTask.taskIdentifier] else { return false }
                if exchange.data.count + data.count > exchange.limit {
                    exchange.failure = .responseTooLarge(limit: exchange.limit)
                    exchange.data = Data()
                } else {
                    exchange.data.append(data)
                }
                table[dataTask.taskIdentifier] = exchange
                return exchange.failure != nil
            }
            if tooLarge { dataTask.cancel() }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let failure = exchange.failure {
                exchange.continuation.resume(throwing: failure)
            } else if let error {
                exchange.continuation.resume(throwing: Self.transportError(error))
            } else if let response = exchange.response {
                exchange.continuation.resume(returning: (response, exchange.data))
            } else {
                exchange.continuation.resume(throwing: SpotifyAPIError.transport("no HTTP response"))
            }
        }

        private static func transportError(_ error: any Error) -> any Error {
            let nsError = error as NSError
            guard nsError.domain == NSURLErrorDomain else {
                return SpotifyAPIError.transport(nsError.localizedDescription)
            }
            switch nsError.code {
            case NSURLErrorCancelled: return CancellationError()
            case NSURLErrorTimedOut: return SpotifyAPIError.timedOut
            case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorNotConnectedToInternet,
                NSURLErrorDNSLookupFailed:
                return SpotifyAPIError.transport("could not connect (\(nsError.localizedDescription))")
            case NSURLErrorNetworkConnectionLost, NSURLErrorBadServerResponse:
                return SpotifyAPIError.transport("the connection was lost (\(nsError.localizedDescription))")
            default: return SpotifyAPIError.transport(nsError.localizedDescription)
            }
        }
    }
}
