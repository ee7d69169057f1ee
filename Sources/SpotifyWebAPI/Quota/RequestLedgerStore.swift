public import Foundation
import SpotifyLinkSupport
import Synchronization

/// The Spotify app whose requests are counted together on this device: an accounts service and a
/// client ID.
///
/// Spotify counts its quota per *developer account*, across all of that developer's client IDs; a
/// device only sees its own app, so this is the finest key it can share.
public struct QuotaKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The accounts service, as `https://accounts.spotify.com`.
    public var issuer: String
    /// The app's client ID.
    public var clientID: String

    /// - Parameters:
    ///   - issuer: the accounts service the tokens come from.
    ///   - clientID: the Spotify app's client ID.
    public init(issuer: String, clientID: String) {
        self.issuer = issuer
        self.clientID = clientID
    }

    public var description: String { "\(clientID) at \(issuer)" }
}

/// A period in which no request may leave the device, learned from a 429.
public struct Cooldown: Hashable, Sendable, Codable {
    /// Which limit Spotify said was reached.
    public enum Kind: String, Hashable, Sendable, Codable {
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
    public init(kind: Kind, until: Date, learnedAt: Date) {
        self.kind = kind
        self.until = until
        self.learnedAt = learnedAt
    }

    /// Whether the cooldown still holds at `now`.
    public func isActive(at now: Date) -> Bool { until > now }
}

/// One request the client sent, as the ledger keeps it.
package struct LedgerEntry: Hashable, Sendable, Codable {
    /// When it was sent.
    package var sentAt: Date
    /// Method and path with IDs folded, as `GET /playlists/{id}/items`.
    package var endpoint: String
    /// The HTTP status, or `nil` when no answer came (a transport failure).
    package var status: Int?
    /// Whether background work sent it (metadata refresh, now-playing polls) rather than a person.
    package var background: Bool

    /// - Parameters:
    ///   - sentAt: when the request left.
    ///   - endpoint: method and folded path.
    ///   - status: the HTTP status, `nil` without an answer.
    ///   - background: whether background work sent it.
    package init(sentAt: Date, endpoint: String, status: Int?, background: Bool) {
        self.sentAt = sentAt
        self.endpoint = endpoint
        self.status = status
        self.background = background
    }
}

/// Where the limits a client learned and the requests it spent are kept.
///
/// A persistent store (`SQLiteRequestLedgerStore` in `PlaylistLinks`) shares them between every
/// process and client of the same app on a device; ``MemoryRequestLedgerStore`` shares them within
/// one process. A server could keep them in PostgreSQL behind the same protocol: every value is a
/// plain Swift type, and every call names its ``QuotaKey``.
///
/// Implementations must be safe to call from many tasks and processes at once.
package protocol RequestLedgerStore: Sendable {
    /// The stored cooldown for `key`, whether or not it has ended.
    func cooldown(for key: QuotaKey) async throws -> Cooldown?
    /// Keeps `cooldown` for `key` unless one that ends later is stored already.
    func extendCooldown(_ cooldown: Cooldown, for key: QuotaKey) async throws
    /// Appends a sent request, and may forget entries older than `olderThan`.
    func record(_ entry: LedgerEntry, for key: QuotaKey, forgettingBefore olderThan: Date) async throws
    /// The requests sent for `key` since `date`, oldest first.
    func entries(for key: QuotaKey, since date: Date) async throws -> [LedgerEntry]
}

/// A ledger kept in memory: shared by the clients of one process that are given the same instance.
package final class MemoryRequestLedgerStore: RequestLedgerStore {
    private struct State {
        var cooldowns: [QuotaKey: Cooldown] = [:]
        var entries: [QuotaKey: [LedgerEntry]] = [:]
    }

    private let state = Lock(State())

    /// An empty ledger.
    package init() {}

    package func cooldown(for key: QuotaKey) async throws -> Cooldown? {
        state.withLock { $0.cooldowns[key] }
    }

    package func extendCooldown(_ cooldown: Cooldown, for key: QuotaKey) async throws {
        state.withLock { state in
            if let stored = state.cooldowns[key], stored.until >= cooldown.until { return }
            state.cooldowns[key] = cooldown
        }
    }

    package func record(_ entry: LedgerEntry, for key: QuotaKey, forgettingBefore olderThan: Date) async throws {
        state.withLock { state in
            var list = state.entries[key, default: []]
            if let first = list.first, first.sentAt < olderThan { list.removeAll { $0.sentAt < olderThan } }
            list.append(entry)
            state.entries[key] = list
        }
    }

    package func entries(for key: QuotaKey, since date: Date) async throws -> [LedgerEntry] {
        state.withLock { $0.entries[key, default: []].filter { $0.sentAt >= date } }
    }
}
