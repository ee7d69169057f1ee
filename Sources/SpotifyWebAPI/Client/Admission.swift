import Foundation
import Logging
import SpotifyLinkSupport

/// The one authority over "may this request leave now", holding the one cooldown value.
///
/// The cooldown (when requests may leave again after a 429) is ``current``, a single
/// ``Cooldown``: learned from this client's 429s, or read from the ledger, where every client and
/// process of the app keeps what it learned. It is read from the ledger once per request and
/// written there when a 429 changes it. ``RateLimitGate`` adds what is this client's own: the
/// backoff of 429s in a row, and pacing.
///
/// The admission never sleeps: it says how long to wait, and the request's state machine waits.
/// A 429 closes the way for every request; a quota 429 starts a cooldown of hours, during which
/// nothing is sent; a cooldown another process learned holds here from the next request on. (The
/// daily budget is the ledger's: `LedgerStage` counts each request as it leaves, and refuses a
/// background one past the budget in the same step.)
actor Admission {
    private var gate: RateLimitGate
    /// The cooldown known here: this client's latest, or the ledger's when that one holds longer.
    private var current: Cooldown?
    let ledger: RequestLedger
    private let clock: any SpotifyClock
    private let jitter: @Sendable () -> Double
    /// Where a cooldown the ledger could not keep is reported.
    private let logger: Logger?
    /// 429s this client has met so far, for paging to slow down on.
    private(set) var rateLimitCount = 0

    init(
        policy: SpotifyClient.Configuration.RateLimit, ledger: RequestLedger, clock: any SpotifyClock,
        jitter: @escaping @Sendable () -> Double, logger: Logger? = nil
    ) {
        self.logger = logger
        self.gate = RateLimitGate(policy: policy)
        self.ledger = ledger
        self.clock = clock
        self.jitter = jitter
    }

    /// Whether a request may leave now: `.proceed`; `.wait` that long and ask again; or `.fail`,
    /// the rate limit lasting longer than a request waits. During a quota cooldown, whatever the
    /// wait, the refusal to send (sending would lengthen it), for the exchange machine to end with.
    /// A ledger that cannot be read refuses too (``RequestLedger/activeCooldown(at:)`` fails
    /// closed), unless this client knows a cooldown already.
    func admit() async -> Result<RateLimitGate.Decision, SpotifyAPIError> {
        let now = clock.now
        do {
            adopt(try await ledger.activeCooldown(at: now), now: now)
        } catch {
            if let current, current.isActive(at: now), current.kind == .quota {
                return .failure(SpotifyAPIError.coolingDown(current, now: now))
            }
            return .failure(error)
        }
        if let current, let waiting = gate.waiting(until: current.until, now: now) {
            if current.kind == .quota { return .failure(SpotifyAPIError.coolingDown(current, now: now)) }
            return .success(waiting)
        }
        return .success(gate.pace(now: now))
    }

    /// A 429 of the rate limit: the way closes for every request, and the ledger keeps the
    /// cooldown for the app's other clients and processes.
    /// - Returns: how long this request waits, or that it fails.
    func rateLimited(retryAfter: Duration?) async -> RateLimitGate.Decision {
        rateLimitCount += 1
        let now = clock.now
        let wait = gate.recordRateLimited(
            retryAfter: retryAfter.map { min($0, RequestLedger.maximumCooldown) }, jitter: jitter())
        await learn(Cooldown(kind: .rateLimit, until: now.addingTimeInterval(wait.seconds), learnedAt: now), now: now)
        return gate.decision(for: wait)
    }

    /// A 429 of the Development Mode quota: the cooldown (its `Retry-After`, at most a day; an hour
    /// when unreadable) is kept here and in the ledger.
    /// - Returns: the error to throw.
    func quotaExceeded(retryAfter: Duration?) async -> SpotifyAPIError {
        let now = clock.now
        let asked = retryAfter.flatMap { $0 > .zero ? $0 : nil } ?? RequestLedger.quotaCooldownWithoutRetryAfter
        let cooldown = Cooldown(
            kind: .quota, until: now.addingTimeInterval(min(asked, RequestLedger.maximumCooldown).seconds),
            learnedAt: now)
        await learn(cooldown, now: now)
        if let lost = await ledger.recordQuotaRefusal(at: now, retryAfter: retryAfter) {
            logger?.warning(
                "The request ledger could not keep Spotify's quota refusal, so it learns less of the quota",
                metadata: ["error": "\(lost.message)"])
        }
        return SpotifyAPIError.coolingDown(cooldown, now: now)
    }

    /// An answer arrived without a 429: the backoff exponent starts over.
    func succeeded() { gate.recordSuccess() }

    /// The cooldown in force now, wherever it was learned: this client's, or the ledger's (any
    /// client or process of the app).
    func cooldown() async -> Cooldown? {
        let now = clock.now
        // A ledger that cannot be read shows what this client knows; its next request says why
        // it cannot leave.
        adopt(try? await ledger.activeCooldown(at: now), now: now)
        guard let current, current.isActive(at: now) else { return nil }
        return current
    }

    /// Keeps `cooldown` here and in the ledger, where it holds unless a longer one is kept.
    private func learn(_ cooldown: Cooldown, now: Date) async {
        adopt(cooldown, now: now)
        if let failure = await ledger.learn(cooldown) {
            // Never silent: the app's other processes may not know the cooldown.
            logger?.warning(
                "The request ledger could not keep a \(cooldown.kind.rawValue) cooldown; this process keeps it",
                metadata: ["until": "\(cooldown.until)", "error": "\(failure.message)"])
        }
    }

    /// Takes `learned` as the cooldown unless the one held ends later, or is a quota cooldown
    /// still in force against a rate limit (nothing is sent during a quota cooldown, so its end
    /// is what a person waits for).
    private func adopt(_ learned: Cooldown?, now: Date) {
        guard let learned else { return }
        if let current, current.isActive(at: now) {
            if current.kind == .quota && learned.kind == .rateLimit { return }
            if learned.kind == current.kind && current.until >= learned.until { return }
        }
        current = learned
    }
}
