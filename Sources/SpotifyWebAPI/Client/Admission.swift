import Foundation
import SpotifyLinkSupport

/// The one authority over "may this request leave now": the short rate-limit window (the gate
/// every request of the client shares) and the cooldowns kept in the ledger (learned by any client
/// or process of the app) as one state, read once per request and kept by the ledger's store.
///
/// A 429 closes the gate for every request and is written to the ledger, so other clients and
/// processes wait too; a quota 429 starts a cooldown of hours, during which nothing is sent; a
/// cooldown another process learned closes the gate here when a request asks. (The daily budget is
/// the ledger's: `LedgerStage` counts each request as it leaves, and refuses a background one past
/// the budget in the same step.)
actor Admission {
    private var gate: RateLimitGate
    let ledger: RequestLedger
    private let clock: any SpotifyClock
    private let jitter: @Sendable () -> Double
    /// 429s this client has met so far, for paging to slow down on.
    private(set) var rateLimitCount = 0

    init(
        policy: SpotifyClient.Configuration.RateLimit, ledger: RequestLedger, clock: any SpotifyClock,
        jitter: @escaping @Sendable () -> Double
    ) {
        self.gate = RateLimitGate(policy: policy)
        self.ledger = ledger
        self.clock = clock
        self.jitter = jitter
    }

    /// Waits until a request may leave, or throws ``SpotifyAPIError``: during a quota cooldown
    /// (whatever the wait: sending lengthens it), or when the rate limit lasts longer than a
    /// request waits.
    func admit() async throws {
        let now = clock.now
        if let learned = await ledger.activeCooldown(at: now) {
            if learned.kind == .quota { throw SpotifyAPIError.cooldown(learned, now: now) }
            gate.close(until: learned.until)
        }
        while true {
            let now = clock.now
            switch gate.admit(now: now) {
            case .proceed: return
            case .wait(let duration): try await clock.sleep(for: duration)
            case .fail(let wait): throw SpotifyAPIError.rateLimitedFor(wait, now: now)
            }
        }
    }

    /// A 429 of the rate limit: the gate closes for every request, and the ledger keeps the
    /// cooldown for the app's other clients and processes.
    /// - Returns: how long this request waits, or that it fails.
    func rateLimited(retryAfter: Duration?) async -> RateLimitGate.Decision {
        rateLimitCount += 1
        let now = clock.now
        let decision = gate.recordRateLimited(
            retryAfter: retryAfter.map { min($0, RequestLedger.maximumCooldown) }, now: now, jitter: jitter())
        if let until = gate.closedUntil, until > now {
            await ledger.learn(Cooldown(kind: .rateLimit, until: until, learnedAt: now))
        }
        return decision
    }

    /// A 429 of the Development Mode quota: the cooldown (its `Retry-After`, at most a day; an hour
    /// when unreadable) is kept in the ledger and closes the gate.
    /// - Returns: the error to throw.
    func quotaExceeded(retryAfter: Duration?) async -> SpotifyAPIError {
        let now = clock.now
        let asked = retryAfter.flatMap { $0 > .zero ? $0 : nil } ?? RequestLedger.quotaCooldownWithoutRetryAfter
        let cooldown = Cooldown(
            kind: .quota, until: now.addingTimeInterval(min(asked, RequestLedger.maximumCooldown).seconds),
            learnedAt: now)
        await ledger.learn(cooldown)
        gate.close(until: cooldown.until)
        return SpotifyAPIError.cooldown(cooldown, now: now)
    }

    /// An answer arrived without a 429: the backoff exponent starts over.
    func succeeded() { gate.recordSuccess() }

    /// The cooldown in force now, wherever it was learned: the ledger's (any client or process of
    /// the app), or this client's gate; the later-ending one, a quota before a rate limit.
    func cooldown() async -> Cooldown? {
        let now = clock.now
        let learned = await ledger.activeCooldown(at: now)
        if learned?.kind == .quota { return learned }
        guard let closed = gate.closedUntil, closed > now else { return learned }
        if let learned, learned.until >= closed { return learned }
        return Cooldown(kind: .rateLimit, until: closed, learnedAt: learned?.learnedAt ?? now)
    }
}
