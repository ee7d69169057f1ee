public import Foundation

/// What a ledger has learned of the developer's real request quota from Spotify's refusals.
///
/// Development Mode's quota is one window of about 24 hours for the developer's every app and
/// every user's device, and Spotify publishes no number for it: refusals have come anywhere from
/// about 1,100 to over 2,600 requests. So the ledger keeps each `QUOTA_EXCEEDED` it meets
/// (``QuotaRefusal``) and learns from them:
///
/// - the **limit** is the fewest requests a window held when Spotify refused, over the last
///   30 days, until a later window shows more: a refusal a day or more after the
///   one the limit rests on, at a higher count, or the current window, once it holds more
///   answered requests than the limit. A refusal after fewer than 50 requests
///   says the quota was spent elsewhere and sets no limit;
/// - background work then stops at three quarters of it (``backgroundBudget``): the last quarter
///   is the margin, and it is kept for what a person asks, which goes on until Spotify's own
///   refusal, as before.
///
/// The counts are this ledger's: on a device, this app's requests; in PostgreSQL, every process
/// of the server's. Requests of the developer's other apps and devices are not seen, which is why
/// the fewest seen counts, not the most.
public struct LearnedQuota: Hashable, Sendable {
    /// The requests a window held when Spotify refused: the fewest seen in 30 days, or more
    /// where a later window showed more.
    public var limit: Int
    /// The requests a day background work may send under it: three quarters of ``limit``,
    /// rounded down.
    public var backgroundBudget: Int
    /// When Spotify gave the evidence ``limit`` rests on: the refusal, or now when the current
    /// window showed more.
    public var learnedAt: Date
    /// The refusals of the last 30 days it was learned from, oldest first.
    public var refusals: [QuotaRefusal]

    /// How long a refusal is kept and learned from: 30 days. A limit older than that may no
    /// longer be the developer's (Spotify changes quotas, and downgrades apps after runaway
    /// traffic), so the app's own ``RequestLedger/dailyBudget`` applies alone again.
    package static let memory: TimeInterval = 30 * 86_400

    /// The share of the limit background work may spend: three quarters.
    static let backgroundShare = 0.75

    /// The fewest requests a refusal must follow to be learned from: 50. Spotify refusing after
    /// fewer of this ledger's requests in a day says the quota was spent elsewhere (the
    /// developer's other apps and devices, or a fault), not what this ledger may spend: such a
    /// refusal is kept, and its cooldown holds, but it sets no limit. (A device's share
    /// of a Development Mode app's quota is about 80 a day, `QuotaShare`.)
    package static let minimumEvidence = 50

    /// What `refusals` (oldest first) teach at `now`, when the current window has
    /// `answeredInWindow` requests that got an answer other than a 429; `nil` without a refusal in
    /// the last 30 days.
    package static func learning(from refusals: [QuotaRefusal], answeredInWindow: Int, now: Date) -> LearnedQuota? {
        let kept = refusals.filter { $0.at >= now.addingTimeInterval(-memory) && $0.at <= now }
        var learned: (limit: Int, at: Date)?
        for refusal in kept.sorted(by: { $0.at < $1.at }) where refusal.windowCount >= minimumEvidence {
            guard let current = learned else {
                learned = (refusal.windowCount, refusal.at)
                continue
            }
            // Fewer: the limit is lower than thought (or more of it was spent elsewhere). More, a
            // window later: the limit was raised, or the earlier window was shared more.
            if refusal.windowCount < current.limit
                || refusal.at.timeIntervalSince(current.at) >= RequestLedger.window
            {
                learned = (refusal.windowCount, refusal.at)
            }
        }
        guard var learned else { return nil }
        // The current window, wholly after the refusal, let more through than the limit.
        if now.timeIntervalSince(learned.at) >= RequestLedger.window, answeredInWindow > learned.limit {
            learned = (answeredInWindow, now)
        }
        return LearnedQuota(
            limit: learned.limit, backgroundBudget: Int((Double(learned.limit) * backgroundShare).rounded(.down)),
            learnedAt: learned.at, refusals: kept)
    }
}
