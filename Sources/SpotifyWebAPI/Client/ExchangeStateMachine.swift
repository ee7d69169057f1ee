import Foundation
import HTTPTypes
import SpotifyLinkSupport

/// The rules of one Web API exchange, as a state machine with explicit states: told what happened,
/// it says what to do next, and never sleeps, sends or reads a clock itself (async-http-client's
/// `RequestBag` state machine is the model). ``SpotifyClient`` is the shell that carries out each
/// action and reports the outcome as the next event.
///
/// Each state holds what the request owns at that point: the token it sends (once it has one),
/// the tries it has had, and at the end the answer or the error, handed to the shell in the action.
///
/// ```
/// initialized ─start→ admitting ─admission proceed→ (authorizing ─tokenFetched→) sending ─answered 2xx→ finished
///                         ↑                 │ ─answered 401→ refreshing ─refreshed→ admitting
///                         │                 │ ─answered 429→ reportingRateLimit ─rateLimitReported→ waiting
///                         └──────woke────── waiting ←─answered 5xx / transient 401 / transport failure─┘
///     initialized ─start, insecure destination→ finished;  admitting ─admission wait→ waiting;
///     admitting ─admission fail or quota cooldown→ finished;  sending ─the ledger's budget refusal→ finished
/// ```
///
/// The rules:
/// - A bearer token goes only over https, or plain http to this machine (an emulator): any other
///   destination is refused before anything else.
/// - The admission says whether the request may leave: now, after a wait (a 429's cooldown, or
///   pacing), or not at all (the cooldown lasts longer than a request waits, or the quota is
///   cooling down). Every wait on the path is the machine's `.sleep`.
/// - 2xx succeeds (a 304 never reaches the machine: the conditional-request stage answers it).
/// - A 401 whose body is the transient "Access token missing" is retried with the same token after
///   1 s, then 2 s; any other 401 gets one refreshed token; a 401 after that fails.
/// - A 429 naming `QUOTA_EXCEEDED` fails at once (the shell starts the cooldown); any other 429 is
///   reported to the shared admission, which says how long every request waits; this one sleeps
///   that long, at most `maxRateLimitRetries` times.
/// - A 5xx, and a transport failure, is retried with backoff up to `maxAttempts` tries, for GET
///   and HEAD only; a body over the size limit is never retried.
/// - The ledger's refusal past the daily budget ends the exchange: nothing was sent.
/// - Anything else fails with what the status means.
///
/// An event the current state cannot receive is a bug of the shell: it traps.
struct ExchangeStateMachine {
    /// The tries a request has had, which bound the next ones.
    struct Tries: Equatable {
        /// Whether a 401 has already been answered with a refreshed token.
        var refreshedAfter401 = false
        /// Pauses taken for the transient "Access token missing" 401.
        var transientPauses = 0
        /// Tries that failed in transport or with a 5xx.
        var failures = 0
        /// Waits the rate limit imposed.
        var rateLimitWaits = 0
    }

    /// Where the exchange is, with what the request owns there.
    enum State: Equatable {
        /// Not begun.
        case initialized
        /// Asking the admission whether the request may leave; `token` is the one an earlier try
        /// sent, or `nil` before the first.
        case admitting(token: AccessToken?, Tries)
        /// Asking the token provider for the token of the first try.
        case authorizing(Tries)
        /// A request is out with `token`.
        case sending(token: AccessToken, Tries)
        /// Waiting for a token in place of `refused`.
        case refreshing(refused: AccessToken, Tries)
        /// Telling the shared admission about a 429, to learn how long to wait.
        case reportingRateLimit(token: AccessToken, Tries)
        /// Sleeping before the next try, which sends `token` again (or asks for one).
        case waiting(token: AccessToken?, Tries)
        /// Over: the action that ended it carried the answer or the error.
        case finished
    }

    /// What the shell does next: one action for each event.
    enum Action: Equatable {
        /// Ask the admission whether a request may leave, then ``admission(_:)``.
        case admit
        /// Ask the token provider for the token, then ``tokenFetched(_:)``.
        case fetchToken
        /// Send with `token`, then ``answered(_:body:retryAfter:jitter:)`` or
        /// ``transportFailed(_:jitter:)``.
        case send(AccessToken)
        /// Get a token in place of the refused one, then ``refreshed(_:)``.
        case refreshToken(replacing: AccessToken)
        /// Report a 429 with this `Retry-After` to the admission, then ``rateLimitReported(_:)``.
        case reportRateLimit(retryAfter: Duration?)
        /// Sleep this long, then ``woke()``.
        case sleep(Duration)
        /// Return this answer.
        case succeed(HTTPResponse, Data)
        /// The Development Mode quota is spent: start a cooldown from this `Retry-After` and fail.
        case failQuota(retryAfter: Duration?)
        /// The rate limit lasts longer than a request waits: fail with this wait.
        case failRateLimited(wait: Duration)
        /// Fail with what this answer's status and body mean.
        case failAnswer(HTTPResponse, Data)
        /// Fail for this transport error: after the retries it was owed, at once for a body larger
        /// than the client reads or for an address where nothing answers.
        case failTransport(SpotifyAPIError)
        /// Fail with this error before anything was sent: an insecure destination, a quota
        /// cooldown, or the ledger's refusal past the daily budget.
        case refuse(SpotifyAPIError)
    }

    /// Whether the request may be sent twice (GET and HEAD).
    let idempotent: Bool
    /// Tries for a request that fails in transport or with a 5xx, the first included.
    let maxAttempts: Int
    /// Rate-limit waits before the request fails.
    let maxRateLimitRetries: Int

    private(set) var state = State.initialized

    /// Pauses before a transient 401 is retried with the same token: 1 s, then 2 s.
    static let transientPause: Duration = .seconds(1)
    static let maxTransientPauses = 2

    init(idempotent: Bool, maxAttempts: Int, maxRateLimitRetries: Int) {
        self.idempotent = idempotent
        self.maxAttempts = maxAttempts
        self.maxRateLimitRetries = maxRateLimitRetries
    }

    /// The exchange begins, toward `destination`.
    mutating func start(destination: URL) -> Action {
        guard case .initialized = state else { impossible("start") }
        if let refusal = Self.insecure(destination) {
            state = .finished
            return .refuse(refusal)
        }
        state = .admitting(token: nil, Tries())
        return .admit
    }

    /// The admission's answer: leave now, wait, or fail; or its refusal to send during a quota
    /// cooldown.
    mutating func admission(_ answer: Result<RateLimitGate.Decision, SpotifyAPIError>) -> Action {
        guard case .admitting(let token, let tries) = state else { impossible("admission") }
        switch answer {
        case .success(.proceed):
            guard let token else {
                state = .authorizing(tries)
                return .fetchToken
            }
            state = .sending(token: token, tries)
            return .send(token)
        case .success(.wait(let duration)):
            state = .waiting(token: token, tries)
            return .sleep(duration)
        case .success(.fail(let wait)):
            state = .finished
            return .failRateLimited(wait: wait)
        case .failure(let cooldown):
            state = .finished
            return .refuse(cooldown)
        }
    }

    /// The token provider's token for the first try.
    mutating func tokenFetched(_ token: AccessToken) -> Action {
        guard case .authorizing(let tries) = state else { impossible("tokenFetched") }
        state = .sending(token: token, tries)
        return .send(token)
    }

    /// An answer arrived; `retryAfter` is its parsed `Retry-After`; `jitter` is a number in `0..<1`
    /// that spreads backoff across clients.
    mutating func answered(_ response: HTTPResponse, body: Data, retryAfter: Duration?, jitter: Double) -> Action {
        guard case .sending(let token, var tries) = state else { impossible("answered") }
        state = .finished
        switch response.status.code {
        case 200..<300:
            return .succeed(response, body)
        case 401 where Self.isTransient401(body: body) && tries.transientPauses < Self.maxTransientPauses:
            // "Access token missing" on a good token: Spotify has not caught up with it yet.
            tries.transientPauses += 1
            state = .waiting(token: token, tries)
            return .sleep(Self.transientPause * tries.transientPauses)
        case 401 where !tries.refreshedAfter401:
            tries.refreshedAfter401 = true
            state = .refreshing(refused: token, tries)
            return .refreshToken(replacing: token)
        case 429 where Self.isQuota(body: body):
            return .failQuota(retryAfter: retryAfter)
        case 429:
            state = .reportingRateLimit(token: token, tries)
            return .reportRateLimit(retryAfter: retryAfter)
        case 500...599 where idempotent && tries.failures + 1 < maxAttempts:
            tries.failures += 1
            state = .waiting(token: token, tries)
            return .sleep(Self.backoff(after: tries.failures, jitter: jitter))
        default:
            return .failAnswer(response, body)
        }
    }

    /// The exchange failed before an answer arrived (or the ledger refused to let it leave).
    mutating func transportFailed(_ error: SpotifyAPIError, jitter: Double) -> Action {
        guard case .sending(let token, var tries) = state else { impossible("transportFailed") }
        state = .finished
        // The daily budget is spent: nothing was sent, and nothing will be today.
        if error.code == .budgetExhausted { return .refuse(error) }
        // The ledger could not count it: nothing was sent, and another try would not be counted either.
        if error.code == .ledgerUnavailable { return .refuse(error) }
        // Too large a body, or nothing answering at the address: another try cannot help.
        if error.code == .responseTooLarge || error.nothingAnswered { return .failTransport(error) }
        tries.failures += 1
        guard idempotent, tries.failures < maxAttempts else { return .failTransport(error) }
        state = .waiting(token: token, tries)
        return .sleep(Self.backoff(after: tries.failures, jitter: jitter))
    }

    /// A token is in hand in place of the refused one.
    mutating func refreshed(_ token: AccessToken) -> Action {
        guard case .refreshing(_, let tries) = state else { impossible("refreshed") }
        state = .admitting(token: token, tries)
        return .admit
    }

    /// The shared admission's answer to the reported 429.
    mutating func rateLimitReported(_ decision: RateLimitGate.Decision) -> Action {
        guard case .reportingRateLimit(let token, var tries) = state else { impossible("rateLimitReported") }
        state = .finished
        switch decision {
        case .proceed:
            state = .admitting(token: token, tries)
            return .admit
        case .fail(let wait):
            return .failRateLimited(wait: wait)
        case .wait(let duration):
            tries.rateLimitWaits += 1
            guard tries.rateLimitWaits <= maxRateLimitRetries else { return .failRateLimited(wait: duration) }
            state = .waiting(token: token, tries)
            return .sleep(duration)
        }
    }

    /// The sleep ended.
    mutating func woke() -> Action {
        guard case .waiting(let token, let tries) = state else { impossible("woke") }
        state = .admitting(token: token, tries)
        return .admit
    }

    /// An event the state cannot receive: the shell broke the machine's protocol.
    private func impossible(_ event: String) -> Never {
        preconditionFailure("ExchangeStateMachine: \(event) in state \(state)")
    }

    /// Why a bearer token may not go to `url`: anything but https, or plain http to this machine
    /// (an emulator). Whether the tokens belong to this API is the token provider's answer.
    static func insecure(_ url: URL) -> SpotifyAPIError? {
        let host = (url.host ?? "").lowercased()
        let loopback = host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
        guard url.scheme == "https" || (url.scheme == "http" && loopback) else {
            return SpotifyAPIError.invalid(
                "apiBaseURL",
                "An access token is sent only over https (or plain http to this machine, for an emulator); "
                    + "\(url.scheme ?? "?")://\(host) was refused. Fix the API base URL.")
        }
        return nil
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
