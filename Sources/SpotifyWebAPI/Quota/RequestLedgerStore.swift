public import Foundation
import SpotifyLinkSupport
import Synchronization

/// A period in which no request may leave the device, learned from a 429.
public struct Cooldown: Hashable, Sendable {
    /// Which limit Spotify said was reached.
    public enum Kind: String, Hashable, Sendable {
        /// The rolling 30-second rate limit: seconds to minutes.
        case rateLimit
        /// The Development Mode request quota (`QUOTA_EXCEEDED`): hours.
        case quota
    }

    /// Which limit it is.
    public var kind: Kind
    /// When requests may be sent again.
    public var until: Date
    /// When the 429 arrived.
    public var learnedAt: Date

    /// - Parameters:
    ///   - kind: the limit reached.
    ///   - until: the end of the cooldown.
    ///   - learnedAt: when the limit was reported.
    package init(kind: Kind, until: Date, learnedAt: Date) {
        self.kind = kind
        self.until = until
        self.learnedAt = learnedAt
    }

    /// Whether the cooldown still holds at `now`.
    public func isActive(at now: Date) -> Bool { until > now }
}

/// A `QUOTA_EXCEEDED` as the ledger keeps it: when Spotify refused, how many requests the ledger
/// had counted in the 24 hours before, and the wait Spotify asked for.
///
/// Development Mode's quota is not a published number: refusals have come anywhere from about
/// 1,100 to over 2,600 requests a window. The ledger learns the developer's own from these
/// records (``LearnedQuota``).
public struct QuotaRefusal: Hashable, Sendable {
    /// When the refusal arrived.
    public var at: Date
    /// The requests counted in the 24 hours before it, the refused one left out: what Spotify let
    /// through from this ledger's clients.
    public var windowCount: Int
    /// The `Retry-After` Spotify sent, `nil` when it sent none that could be read.
    public var retryAfter: Duration?

    /// - Parameters:
    ///   - at: when the refusal arrived.
    ///   - windowCount: the requests counted in the 24 hours before, the refused one left out.
    ///   - retryAfter: the wait Spotify asked for, if it said.
    package init(at: Date, windowCount: Int, retryAfter: Duration?) {
        self.at = at
        self.windowCount = windowCount
        self.retryAfter = retryAfter
    }
}

/// One request the client sent, as the ledger keeps it.
package struct LedgerEntry: Hashable, Sendable, Codable {
    /// Names the entry, so its answer can be filled in once it arrives.
    package var id: UUID
    /// When it was sent.
    package var sentAt: Date
    /// Method and path with IDs folded, as `GET /playlists/{id}/items`.
    package var route: String
    /// The HTTP status, or `nil` while none came: a request still out, or one that ended without
    /// an answer (a transport failure, a process that ended first).
    package var status: Int?
    /// Whether background work sent it (metadata refresh, now-playing polls) rather than a person.
    package var background: Bool

    /// - Parameters:
    ///   - sentAt: when the request left.
    ///   - route: method and folded path.
    ///   - status: the HTTP status, `nil` without an answer.
    ///   - background: whether background work sent it.
    ///   - id: names the entry; a new one by default.
    package init(sentAt: Date, route: String, status: Int?, background: Bool, id: UUID = UUID()) {
        self.id = id
        self.sentAt = sentAt
        self.route = route
        self.status = status
        self.background = background
    }
}

/// What ``RequestLedgerStore/reserve(_:for:limit:windowStart:)`` did.
package enum LedgerReservation: Sendable, Hashable {
    /// The entry was counted.
    case counted
    /// The window holds `limit` entries already; nothing was counted. The window falls below the
    /// limit once the entry sent at `oldestThatMustLeave` leaves it.
    case full(oldestThatMustLeave: Date)

    /// The answer for `sentTimes`, the window's entries oldest first, under `limit`.
    package static func judging(_ sentTimes: [Date], limit: Int?) -> LedgerReservation {
        guard let limit, sentTimes.count >= limit else { return .counted }
        // A limit of zero never opens; the ledger refuses it before asking a store.
        guard limit > 0 else { return .full(oldestThatMustLeave: .distantFuture) }
        return .full(oldestThatMustLeave: sentTimes[sentTimes.count - limit])
    }

    /// The answer from the window's `limit`-th newest entry alone, if there is one (what a store
    /// reads with `ORDER BY sent DESC OFFSET limit - 1 LIMIT 1`): the same as ``judging(_:limit:)``
    /// over the whole window.
    package static func judgingNewest(_ limitThNewest: [Date], limit: Int?) -> LedgerReservation {
        guard let limit else { return .counted }
        guard limit > 0 else { return .full(oldestThatMustLeave: .distantFuture) }
        return limitThNewest.first.map { .full(oldestThatMustLeave: $0) } ?? .counted
    }
}

/// Where the limits a client learned and the requests it spent are kept.
///
/// A persistent store (`SQLiteRequestLedgerStore` in `SpotifyLinkSQLite`) shares them between every
/// process and client of the same app on a device; ``MemoryRequestLedgerStore`` shares them within
/// one process. A server could keep them in PostgreSQL behind the same protocol: every value is a
/// plain Swift type, and every call names its ``SpotifyAppKey``.
///
/// Implementations must be safe to call from many tasks and processes at once.
package protocol RequestLedgerStore: Sendable {
    /// The stored cooldown for `key`, whether or not it has ended.
    func cooldown(for key: SpotifyAppKey) async throws -> Cooldown?
    /// Keeps `cooldown` for `key` unless one that ends later is stored already.
    func extendCooldown(_ cooldown: Cooldown, for key: SpotifyAppKey) async throws
    /// Counts a request about to leave, in one step with the budget check, so that clients and
    /// processes sharing the store cannot together pass `limit`: appends `entry` unless `limit` or
    /// more entries of `key` were sent since `windowStart`. Entries older than `windowStart` may be
    /// forgotten.
    /// - Parameter limit: the most entries the window may hold; `nil` counts without a limit.
    func reserve(_ entry: LedgerEntry, for key: SpotifyAppKey, limit: Int?, windowStart: Date) async throws
        -> LedgerReservation
    /// Fills in the answer's status of the entry `id`, once it arrived.
    func settle(_ id: UUID, status: Int, for key: SpotifyAppKey) async throws
    /// The requests sent for `key` since `date`, oldest first.
    func entries(for key: SpotifyAppKey, since date: Date) async throws -> [LedgerEntry]
    /// Keeps `refusal` for `key`. Refusals older than ``LearnedQuota/memory`` may be forgotten.
    func recordQuotaRefusal(_ refusal: QuotaRefusal, for key: SpotifyAppKey) async throws
    /// The quota refusals kept for `key` since `date`, oldest first.
    func quotaRefusals(for key: SpotifyAppKey, since date: Date) async throws -> [QuotaRefusal]
}

/// A ledger kept in memory: shared by the clients of one process that are given the same instance.
package final class MemoryRequestLedgerStore: RequestLedgerStore {
    private struct State {
        var cooldowns: [SpotifyAppKey: Cooldown] = [:]
        var entries: [SpotifyAppKey: [LedgerEntry]] = [:]
        var refusals: [SpotifyAppKey: [QuotaRefusal]] = [:]
    }

    private let state = Lock(State())

    /// An empty ledger.
    package init() {}

    package func cooldown(for key: SpotifyAppKey) async throws -> Cooldown? {
        state.withLock { $0.cooldowns[key] }
    }

    package func extendCooldown(_ cooldown: Cooldown, for key: SpotifyAppKey) async throws {
        state.withLock { state in
            if let stored = state.cooldowns[key], stored.until >= cooldown.until { return }
            state.cooldowns[key] = cooldown
        }
    }

    package func reserve(_ entry: LedgerEntry, for key: SpotifyAppKey, limit: Int?, windowStart: Date) async throws
        -> LedgerReservation
    {
        state.withLock { state in
            // Taken out of the dictionary while it changes, so appending never copies it; kept in
            // the order sent, so the limit-th newest is read in place (no copy, no sort).
            var list = state.entries.removeValue(forKey: key) ?? []
            defer { state.entries[key] = list }
            if let first = list.first, first.sentAt < windowStart { list.removeAll { $0.sentAt < windowStart } }
            let limitThNewest = limit.flatMap { $0 > 0 && list.count >= $0 ? [list[list.count - $0].sentAt] : nil }
            let reservation = LedgerReservation.judgingNewest(limitThNewest ?? [], limit: limit)
            if reservation == .counted {
                let position = list.lastIndex { $0.sentAt <= entry.sentAt }.map { $0 + 1 } ?? 0
                list.insert(entry, at: position)
            }
            return reservation
        }
    }

    package func settle(_ id: UUID, status: Int, for key: SpotifyAppKey) async throws {
        state.withLock { state in
            guard let index = state.entries[key]?.lastIndex(where: { $0.id == id }) else { return }
            state.entries[key]?[index].status = status
        }
    }

    package func entries(for key: SpotifyAppKey, since date: Date) async throws -> [LedgerEntry] {
        state.withLock { $0.entries[key, default: []].filter { $0.sentAt >= date } }
    }

    package func recordQuotaRefusal(_ refusal: QuotaRefusal, for key: SpotifyAppKey) async throws {
        state.withLock { state in
            var list = state.refusals[key, default: []]
            list.removeAll { $0.at < refusal.at.addingTimeInterval(-LearnedQuota.memory) }
            list.append(refusal)
            list.sort { $0.at < $1.at }
            state.refusals[key] = list
        }
    }

    package func quotaRefusals(for key: SpotifyAppKey, since date: Date) async throws -> [QuotaRefusal] {
        state.withLock { $0.refusals[key, default: []].filter { $0.at >= date } }
    }
}
