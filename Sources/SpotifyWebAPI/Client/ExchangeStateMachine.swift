import Foundation

/// The retry rules of one Web API request, as a pure state machine: told what came back, it says
/// what to do next, and never sleeps, sends or reads a clock itself (as async-http-client's request
/// state machine does). ``SpotifyClient`` is the thin shell that carries the actions out.
///
/// The rules:
/// - 2xx (and 304 when a validator was sent) succeeds.
/// - A 401 whose body is the transient "Access token missing" is retried with the same token after
///   1 s, then 2 s; any other 401 gets one refreshed token; a 401 after that fails.
/// - A 429 naming `QUOTA_EXCEEDED` fails at once and starts a cooldown; any other 429 goes to the
///   shared gate, which says how long to wait, and is retried at most `maxRateLimitRetries` times.
/// - A 5xx, and a transport failure, is retried with backoff up to `maxAttempts` tries, for GET
///   and HEAD only; a body over the size limit is never retried.
/// - Anything else fails with what the status means.
struct ExchangeStateMachine {
    /// What the shell does next.
    enum Action: Equatable {
        /// Return the response as it came.
        case succeed
        /// Return the cached body the validator stands for (a 304).
        case useCachedBody
        /// Send again at once (the gate makes the request wait its turn).
        case retry
        /// Sleep this long, then send again with the same token.
        case pauseThenRetry(Duration)
        /// Get a refreshed token in place of the refused one, then send again.
        case refreshThenRetry
        /// Back off (the `attempt`th failure), then send again.
        case backOffThenRetry(attempt: Int)
        /// Ask the shared gate what a rate limit with this `Retry-After` means, then call
        /// ``gateDecided(_:)``.
        case consultGate(retryAfter: Duration?)
        /// The Development Mode quota is spent: start a cooldown from this `Retry-After` and fail.
        case failWithQuotaCooldown(retryAfter: Duration?)
        /// The gate stays closed this long: fail with a rate-limit cooldown.
        case failRateLimited(wait: Duration)
        /// Fail with what the status and body mean.
        case failWithStatus
        /// Fail for the transport error (after the retries it was owed).
        case failTransport
        /// Fail: the body was larger than the client reads.
        case failTooLarge
    }

    /// Whether the request may be sent twice (GET and HEAD).
    let idempotent: Bool
    /// Tries for a request that fails in transport or with a 5xx, the first included.
    let maxAttempts: Int
    /// Rate-limit waits before the request fails.
    let maxRateLimitRetries: Int

    private(set) var refreshedAfter401 = false
    private(set) var transientPauses = 0
    private(set) var failures = 0
    private(set) var rateLimitWaits = 0

    /// Pauses before a transient 401 is retried with the same token: 1 s, then 2 s.
    static let transientPause: Duration = .seconds(1)
    static let maxTransientPauses = 2

    init(idempotent: Bool, maxAttempts: Int, maxRateLimitRetries: Int) {
        self.idempotent = idempotent
        self.maxAttempts = maxAttempts
        self.maxRateLimitRetries = maxRateLimitRetries
    }

    /// The exchange failed before an answer arrived.
    mutating func transportFailed(_ error: SpotifyAPIError) -> Action {
        if error.code == .responseTooLarge { return .failTooLarge }
        failures += 1
        return idempotent && failures < maxAttempts ? .backOffThenRetry(attempt: failures) : .failTransport
    }

    /// An answer arrived with `status`; `retryAfter` is its parsed `Retry-After`.
    mutating func received(status: Int, body: Data, retryAfter: Duration?, sentValidator: Bool) -> Action {
        switch status {
        case 304 where sentValidator:
            return .useCachedBody
        case 200..<300:
            return .succeed
        case 401 where Self.isTransient401(body: body) && transientPauses < Self.maxTransientPauses:
            // "Access token missing" on a good token: Spotify has not caught up with it yet.
            transientPauses += 1
            return .pauseThenRetry(Self.transientPause * transientPauses)
        case 401 where !refreshedAfter401:
            refreshedAfter401 = true
            return .refreshThenRetry
        case 429 where Self.isQuota(body: body):
            return .failWithQuotaCooldown(retryAfter: retryAfter)
        case 429:
            return .consultGate(retryAfter: retryAfter)
        case 500...599 where idempotent && failures + 1 < maxAttempts:
            failures += 1
            return .backOffThenRetry(attempt: failures)
        default:
            return .failWithStatus
        }
    }

    /// The shared gate's answer to a rate limit.
    mutating func gateDecided(_ decision: RateLimitGate.Decision) -> Action {
        switch decision {
        case .proceed:
            return .retry
        case .fail(let wait):
            return .failRateLimited(wait: wait)
        case .wait(let wait):
            rateLimitWaits += 1
            // The gate makes every caller wait its turn; the request only counts how often.
            return rateLimitWaits <= maxRateLimitRetries ? .retry : .failRateLimited(wait: wait)
        }
    }

    /// Whether a 401 is the transient "Access token missing" seen since July 2026 on tokens issued
    /// moments before, which succeed when retried after a short pause.
    static func isTransient401(body: Data) -> Bool {
        SpotifyAPIError.bodyText(body)?.lowercased() == "access token missing"
    }

    private struct QuotaEnvelope: Decodable {
        struct Body: Decodable { var reason: String? }
        var error: Body
    }

    /// Whether a 429's body names the Development Mode quota (`"reason": "QUOTA_EXCEEDED"`).
    static func isQuota(body: Data) -> Bool {
        (try? JSONDecoder().decode(QuotaEnvelope.self, from: body))?.error.reason == "QUOTA_EXCEEDED"
    }
}
