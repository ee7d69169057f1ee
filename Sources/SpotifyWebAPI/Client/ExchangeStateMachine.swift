import Foundation
import SpotifyLinkSupport

/// The rules of one Web API exchange, as a state machine with explicit states: told what happened,
/// it says what to do next, and never sleeps, sends or reads a clock itself (async-http-client's
/// `RequestBag` state machine is the model). ``SpotifyClient`` is the shell that carries out each
/// action and reports the outcome as the next event.
///
/// ```
/// admitting ─admission proceed→ sending ─answered 2xx→ done
///     ↑                   │ ─answered 401→ refreshing ─refreshed→ admitting
///     │                   │ ─answered 429→ reportingRateLimit ─rateLimitReported→ waiting
///     └──────woke──────── waiting ←─answered 5xx / transient 401 / transport failure─┘
///     admitting ─admission wait→ waiting;  admitting ─admission fail→ done
/// ```
///
/// The rules:
/// - The admission says whether the request may leave: now, after a wait (a 429's cooldown, or
///   pacing), or not at all (the cooldown lasts longer than a request waits). Every wait on the
///   path is the machine's `.sleep`.
/// - 2xx succeeds (a 304 never reaches the machine: the conditional-request stage answers it).
/// - A 401 whose body is the transient "Access token missing" is retried with the same token after
///   1 s, then 2 s; any other 401 gets one refreshed token; a 401 after that fails.
/// - A 429 naming `QUOTA_EXCEEDED` fails at once (the shell starts the cooldown); any other 429 is
///   reported to the shared admission, which says how long every request waits; this one sleeps
///   that long, at most `maxRateLimitRetries` times.
/// - A 5xx, and a transport failure, is retried with backoff up to `maxAttempts` tries, for GET
///   and HEAD only; a body over the size limit is never retried.
/// - Anything else fails with what the status means.
struct ExchangeStateMachine {
    /// Where the exchange is.
    enum State: Equatable {
        /// Asking the admission whether the request may leave (the cooldown and pacing).
        case admitting
        /// A request is out.
        case sending
        /// Waiting for a refreshed token in place of the refused one.
        case refreshing
        /// Telling the shared admission about a 429, to learn how long to wait.
        case reportingRateLimit
        /// Sleeping before the next try.
        case waiting
        /// Over: succeeded or failed.
        case done
    }

    /// What the shell does next: one action for each event.
    enum Action: Equatable {
        /// Ask the admission whether a request may leave, then ``admission(_:)``.
        case admit
        /// Send with the current token, then ``answered(status:body:retryAfter:jitter:)`` or
        /// ``transportFailed(_:jitter:)``.
        case send
        /// Get a refreshed token in place of the refused one, then ``refreshed()``.
        case refreshToken
        /// Report a 429 with this `Retry-After` to the admission, then ``rateLimitReported(_:)``.
        case reportRateLimit(retryAfter: Duration?)
        /// Sleep this long, then ``woke()``.
        case sleep(Duration)
        /// Return the answer.
        case succeed
        /// The Development Mode quota is spent: start a cooldown from this `Retry-After` and fail.
        case failQuota(retryAfter: Duration?)
        /// The rate limit lasts longer than a request waits: fail with this wait.
        case failRateLimited(wait: Duration)
        /// Fail with what the answer's status and body mean.
        case failStatus
        /// Fail for the transport error: after the retries it was owed, at once for a body larger
        /// than the client reads.
        case failTransport
    }

    /// Whether the request may be sent twice (GET and HEAD).
    let idempotent: Bool
    /// Tries for a request that fails in transport or with a 5xx, the first included.
    let maxAttempts: Int
    /// Rate-limit waits before the request fails.
    let maxRateLimitRetries: Int

    private(set) var state = State.admitting
    private var refreshedAfter401 = false
    private var transientPauses = 0
    private(set) var failures = 0
    private var rateLimitWaits = 0

    /// Pauses before a transient 401 is retried with the same token: 1 s, then 2 s.
    static let transientPause: Duration = .seconds(1)
    static let maxTransientPauses = 2

    init(idempotent: Bool, maxAttempts: Int, maxRateLimitRetries: Int) {
        self.idempotent = idempotent
        self.maxAttempts = maxAttempts
        self.maxRateLimitRetries = maxRateLimitRetries
    }

    /// The exchange begins.
    func start() -> Action {
        precondition(state == .admitting, "an exchange starts once")
        return .admit
    }

    /// The admission's answer: leave now, wait, or fail.
    mutating func admission(_ decision: RateLimitGate.Decision) -> Action {
        transition(from: .admitting, to: .sending)
        switch decision {
        case .proceed:
            return .send
        case .wait(let duration):
            return wait(duration)
        case .fail(let wait):
            state = .done
            return .failRateLimited(wait: wait)
        }
    }

    /// An answer arrived with `status`; `retryAfter` is its parsed `Retry-After`; `jitter` is a
    /// number in `0..<1` that spreads backoff across clients.
    mutating func answered(status: Int, body: Data, retryAfter: Duration?, jitter: Double) -> Action {
        transition(from: .sending, to: .done)
        switch status {
        case 200..<300:
            return .succeed
        case 401 where Self.isTransient401(body: body) && transientPauses < Self.maxTransientPauses:
            // "Access token missing" on a good token: Spotify has not caught up with it yet.
            transientPauses += 1
            return wait(Self.transientPause * transientPauses)
        case 401 where !refreshedAfter401:
            refreshedAfter401 = true
            state = .refreshing
            return .refreshToken
        case 429 where Self.isQuota(body: body):
            return .failQuota(retryAfter: retryAfter)
        case 429:
            state = .reportingRateLimit
            return .reportRateLimit(retryAfter: retryAfter)
        case 500...599 where idempotent && failures + 1 < maxAttempts:
            failures += 1
            return wait(Self.backoff(after: failures, jitter: jitter))
        default:
            return .failStatus
        }
    }

    /// The exchange failed before an answer arrived.
    mutating func transportFailed(_ error: SpotifyAPIError, jitter: Double) -> Action {
        transition(from: .sending, to: .done)
        // Too large a body, or nothing answering at the address: another try cannot help.
        if error.code == .responseTooLarge || error.nothingAnswered { return .failTransport }
        failures += 1
        guard idempotent, failures < maxAttempts else { return .failTransport }
        return wait(Self.backoff(after: failures, jitter: jitter))
    }

    /// A refreshed token is in hand.
    mutating func refreshed() -> Action {
        transition(from: .refreshing, to: .admitting)
        return .admit
    }

    /// The shared admission's answer to the reported 429.
    mutating func rateLimitReported(_ decision: RateLimitGate.Decision) -> Action {
        transition(from: .reportingRateLimit, to: .done)
        switch decision {
        case .proceed:
            state = .admitting
            return .admit
        case .fail(let wait):
            return .failRateLimited(wait: wait)
        case .wait(let duration):
            rateLimitWaits += 1
            guard rateLimitWaits <= maxRateLimitRetries else { return .failRateLimited(wait: duration) }
            return wait(duration)
        }
    }

    /// The sleep ended.
    mutating func woke() -> Action {
        transition(from: .waiting, to: .admitting)
        return .admit
    }

    private mutating func wait(_ duration: Duration) -> Action {
        state = .waiting
        return .sleep(duration)
    }

    private mutating func transition(from expected: State, to next: State) {
        precondition(state == expected, "event in state \(state), expected \(expected)")
        state = next
    }

    /// The backoff before the `failures`th retry: 0.5 s doubling to 8 s, ±25 % by `jitter`.
    static func backoff(after failures: Int, jitter: Double) -> Duration {
        let step = min(0.5 * Double(1 << min(failures - 1, 8)), 8)
        return .clampedSeconds(step * (0.75 + 0.5 * max(0, min(jitter, 1))))
    }

    /// Whether a 401 is the transient "Access token missing" seen since July 2026 on tokens issued
    /// moments before, which succeed when retried after a short pause.
    static func isTransient401(body: Data) -> Bool {
        SpotifyAPIError.bodyText(body)?.lowercased() == "access token missing"
    }

    /// Whether a 429's body names the Development Mode quota (`"reason": "QUOTA_EXCEEDED"`).
    static func isQuota(body: Data) -> Bool {
        SpotifyAPIError.reason(body) == "QUOTA_EXCEEDED"
    }
}
