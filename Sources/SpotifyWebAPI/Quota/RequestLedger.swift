public import Foundation

/// Who asked for a request: a person, right now, or work the app does on its own. It decides the
/// daily budget, not the order of requests.
///
/// Past a ledger's ``RequestLedger/dailyBudget`` background work fails before it is sent, while
/// requests a person asked for go on until Spotify's own quota. Set it for a stretch of work with
/// ``SpotifyClient/withOrigin(_:_:isolation:)``; requests come from a ``person`` unless told
/// otherwise.
public enum RequestOrigin: String, Sendable, Hashable {
    /// A person is waiting for the answer.
    case person
    /// Metadata refresh, now-playing polls and other work nobody asked for this moment.
    case backgroundWork
}

/// The requests spent in a window, as ``RequestLedger/usage(at:)`` reports them.
public struct RequestUsage: Sendable, Hashable {
    /// Requests to one route.
    public struct RouteCount: Sendable, Hashable {
        /// The route: method and folded path, as `GET /playlists/{id}`.
        public var route: String
        /// Requests in the last 24 hours.
        public var count: Int
    }

    /// Requests sent in the last hour.
    public var lastHour: Int
    /// Requests sent in the last 24 hours.
    public var last24Hours: Int
    /// Of those, sent by background work.
    public var background24Hours: Int
    /// Requests of the last 24 hours by route (`GET /playlists/{id}`), most used first.
    public var byRoute: [RouteCount]
    /// Requests of the last 24 hours that got an answer, by its HTTP status.
    public var byStatus: [Int: Int]
    /// Requests of the last 24 hours that got no answer: the connection failed, the time ran
    /// out, or the process ended first.
    public var unanswered: Int
}

/// What one Spotify app on this device has learned about Spotify's limits and spent of its quota.
///
/// Every ``SpotifyClient`` given a ledger with the same ``key`` and a shared file honours the
/// same cooldown: after a 429 no request for that app leaves the device until the cooldown ends,
/// in this process or any other, across restarts when the ledger is kept in a file (`RequestLedger(key:file:dailyBudget:)`, in PlaylistLinks). Every request sent
/// is counted over a rolling 24 hours, and an optional ``dailyBudget`` keeps background work from
/// spending the quota a person needs.
///
/// ```swift
/// let ledger = try RequestLedger(  // the file form is in PlaylistLinks
///     key: SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: clientID),
///     file: appSupport.appendingPathComponent("spotify-requests.sqlite"),
///     dailyBudget: QuotaShare(apps: 1, usersPerApp: 5, devicesPerUser: 2).dailyBudget)
/// let client = SpotifyClient(configuration: .live, tokens: session, ledger: ledger)
/// ```
public struct RequestLedger: Sendable {
    /// The app whose requests are counted.
    public let key: SpotifyAppKey
    /// Where cooldowns and counts are kept.
    package let store: any RequestLedgerStore
    /// The second copy of the cooldowns, which a failure of ``store`` cannot erase.
    package let mirror: CooldownMirror
    /// Requests per rolling 24 hours after which background requests fail with
    /// ``SpotifyAPIError/Code-swift.struct/budgetExhausted``; `nil` for no budget.
    public var dailyBudget: Int?
    /// The longest cooldown accepted from a `Retry-After` (24 hours): a hostile or broken value
    /// cannot lock an app out for longer than Spotify's quota window.
    package static let maximumCooldown: Duration = .seconds(86_400)
    /// The cooldown assumed after a `QUOTA_EXCEEDED` without a readable `Retry-After`.
    package static let quotaCooldownWithoutRetryAfter: Duration = .seconds(3_600)
    static let window: TimeInterval = 86_400

    /// A ledger kept in this process's memory: the clients given this value share its cooldowns and
    /// counts. To share them with the app's other processes and keep them across launches, open one
    /// on a file with `RequestLedger(key:file:dailyBudget:)` (in `PlaylistLinks`).
    /// - Parameters:
    ///   - key: the app whose requests are counted together.
    ///   - dailyBudget: requests per 24 hours after which background work stops.
    public init(key: SpotifyAppKey, dailyBudget: Int? = nil) {
        self.init(key: key, store: MemoryRequestLedgerStore(), dailyBudget: dailyBudget)
    }

    /// A ledger kept in `store`: a persistent one shares the cooldown between processes.
    /// - Parameter mirror: where the cooldowns are kept besides `store`, so a failure of the
    ///   store cannot erase them: this process's memory by default.
    package init(
        key: SpotifyAppKey, store: any RequestLedgerStore, dailyBudget: Int? = nil,
        mirror: CooldownMirror = CooldownMirror(file: nil)
    ) {
        self.key = key
        self.store = store
        self.dailyBudget = dailyBudget
        self.mirror = mirror
    }

    /// A ledger for one client alone, in memory: what a client without a ledger uses.
    public static func inMemory() -> RequestLedger {
        RequestLedger(key: SpotifyAppKey(issuer: "memory", clientID: UUID().uuidString))
    }

    /// The cooldown in force at `now`, if any: the store's, or the mirror's when that one holds
    /// longer (it is then copied back into the store: a ledger made afresh after a damaged one was
    /// moved aside learns it again).
    ///
    /// A ledger that cannot be read fails closed: the requests wait, with the mirror's cooldown
    /// when it holds one, else with the storage's error. Sending blind could pass the quota the
    /// app's processes share, or send during a cooldown, which Spotify answers by lengthening it.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code-swift.struct/ledgerUnavailable``
    ///   when the store cannot be read and the mirror holds no cooldown.
    package func activeCooldown(at now: Date) async throws(SpotifyAPIError) -> Cooldown? {
        let stored: Cooldown?
        do {
            stored = try await store.cooldown(for: key)
        } catch {
            if let kept = mirror.cooldown(for: key, at: now, readingFile: true), kept.isActive(at: now) { return kept }
            throw .ledgerUnavailable(error)
        }
        let kept = mirror.cooldown(for: key, at: now, readingFile: false)
        if let kept, kept.isActive(at: now), (stored?.until ?? .distantPast) < kept.until {
            // Best effort: the mirror holds it for this process whatever the store says.
            try? await store.extendCooldown(kept, for: key)
        }
        guard let cooldown = CooldownMirror.stronger(stored, kept, now: now), cooldown.isActive(at: now) else {
            return nil
        }
        return cooldown
    }

    /// The requests spent up to `now`.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code-swift.struct/ledgerUnavailable``
    ///   when the ledger's storage cannot be read.
    public func usage(at now: Date) async throws(SpotifyAPIError) -> RequestUsage {
        let entries: [LedgerEntry]
        do {
            entries = try await store.entries(for: key, since: now.addingTimeInterval(-Self.window))
        } catch {
            throw .ledgerUnavailable(error)
        }
        var routes: [String: Int] = [:]
        var statuses: [Int: Int] = [:]
        for entry in entries {
            routes[entry.route, default: 0] += 1
            if let status = entry.status { statuses[status, default: 0] += 1 }
        }
        let hourAgo = now.addingTimeInterval(-3600)
        return RequestUsage(
            lastHour: entries.count { $0.sentAt >= hourAgo },
            last24Hours: entries.count,
            background24Hours: entries.count { $0.background },
            byRoute: routes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                RequestUsage.RouteCount(route: $0.key, count: $0.value)
            },
            byStatus: statuses, unanswered: entries.count { $0.status == nil })
    }

    /// Counts a request for `route` leaving at `now`, in one step with the daily budget: a
    /// background request past it is refused instead, with the time the budget reopens. Every
    /// client and process sharing the store shares the count, so together they never pass the
    /// budget.
    ///
    /// When the store cannot be written the request does not leave: a request the ledger cannot
    /// count could take the app's processes past the quota they share.
    /// - Returns: the entry's ID, to ``settle(_:status:)`` once the answer arrives.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code-swift.struct/budgetExhausted``
    ///   past the budget, ``SpotifyAPIError/Code-swift.struct/ledgerUnavailable`` when the store
    ///   cannot count it.
    package func reserve(route: String, background: Bool, at now: Date) async throws(SpotifyAPIError) -> UUID {
        let limit = background ? await backgroundBudget(at: now) : nil
        if let limit, limit <= 0 {
            throw SpotifyAPIError.budgetExhausted(budget: limit, reopens: now.addingTimeInterval(Self.window), now: now)
        }
        let entry = LedgerEntry(sentAt: now, route: route, status: nil, background: background)
        let windowStart = now.addingTimeInterval(-Self.window)
        let reservation: LedgerReservation
        do {
            reservation = try await store.reserve(entry, for: key, limit: limit, windowStart: windowStart)
        } catch {
            throw .ledgerUnavailable(error)
        }
        switch reservation {
        case .counted: return entry.id
        case .full(let oldest):
            throw SpotifyAPIError.budgetExhausted(
                budget: limit ?? 0, reopens: oldest.addingTimeInterval(Self.window), now: now)
        }
    }

    /// Fills in the status of the request counted as `id`.
    package func settle(_ id: UUID, status: Int) async {
        try? await store.settle(id, status: status, for: key)
    }

    /// Keeps `cooldown` in the store and the mirror. It holds in this process whatever fails.
    /// - Returns: what could not keep it, for the client's log: `nil` when both did.
    func learn(_ cooldown: Cooldown) async -> SpotifyAPIError? {
        var failure: SpotifyAPIError?
        do {
            try mirror.keep(cooldown, for: key)
        } catch {
            failure = .ledgerUnavailable(error)
        }
        do {
            try await store.extendCooldown(cooldown, for: key)
        } catch {
            failure = .ledgerUnavailable(error)
        }
        return failure
    }

    /// What this ledger has learned of the developer's quota from Spotify's refusals of the last
    /// 30 days, at `now`; `nil` when Spotify has not refused for the quota in that time.
    ///
    /// One read of the ledger when there is no refusal to learn from; a second, of the current
    /// window, when one followed 50 requests or more.
    /// - Throws: ``SpotifyAPIError`` with code ``SpotifyAPIError/Code-swift.struct/ledgerUnavailable``
    ///   when the ledger's storage cannot be read.
    public func learnedQuota(at now: Date) async throws(SpotifyAPIError) -> LearnedQuota? {
        let refusals: [QuotaRefusal]
        let window: [LedgerEntry]
        do {
            refusals = try await store.quotaRefusals(for: key, since: now.addingTimeInterval(-LearnedQuota.memory))
            guard refusals.contains(where: { $0.windowCount >= LearnedQuota.minimumEvidence }) else { return nil }
            window = try await store.entries(for: key, since: now.addingTimeInterval(-Self.window))
        } catch {
            throw .ledgerUnavailable(error)
        }
        let answered = window.count { $0.status.map { $0 != 429 } ?? false }
        return LearnedQuota.learning(from: refusals, answeredInWindow: answered, now: now)
    }

    /// The requests a day background work may send at `now`: the app's ``dailyBudget``, or what
    /// the ledger learned (``LearnedQuota/backgroundBudget``) when that is lower; `nil` for no
    /// budget. A ledger that cannot be read leaves the app's budget alone.
    public func backgroundBudget(at now: Date) async -> Int? {
        guard let learned = try? await learnedQuota(at: now) else { return dailyBudget }
        return min(dailyBudget ?? .max, learned.backgroundBudget)
    }

    /// Keeps Spotify's `QUOTA_EXCEEDED` at `now`, with the requests counted in the window before
    /// it (the refused one left out) and the `Retry-After` it sent: what ``learnedQuota(at:)``
    /// learns from. A ledger that cannot be written loses the record, never the request's error
    /// (the cooldown is kept apart, by ``learn(_:)``).
    /// - Returns: the storage's error when the record was lost, for the client's log.
    func recordQuotaRefusal(at now: Date, retryAfter: Duration?) async -> SpotifyAPIError? {
        do {
            let window = try await store.entries(for: key, since: now.addingTimeInterval(-Self.window))
            let refusal = QuotaRefusal(at: now, windowCount: max(window.count - 1, 0), retryAfter: retryAfter)
            try await store.recordQuotaRefusal(refusal, for: key)
            return nil
        } catch {
            return .ledgerUnavailable(error)
        }
    }
}
