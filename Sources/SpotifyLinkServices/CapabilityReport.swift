import Foundation
import PlaylistLinks
public import SpotifyAuth
import SpotifyLinkSQLite
public import SpotifyWebAPI

/// What this app may do with Spotify, for this user, now: asked once, in at most five requests.
///
/// Development Mode meets apps one 403 at a time: a user missing from the app's user list, the
/// developer's lapsed Premium, a scope never granted, a playlist whose songs are hidden, a quota
/// spent. ``SpotifyServices/capabilities(needing:)`` asks for all of it at once and says, for each
/// thing that needs someone to act, what to do (``findings``). A settings or diagnostics screen
/// shows it; `spotlink doctor --online` prints it.
public struct CapabilityReport: Sendable, Hashable {
    /// Something that needs someone to act, with the values its sentence needs. `SpotifyLinkUI`'s
    /// `SpotifyMessage(_:)` words each in English or Japanese, with the fix.
    public enum Finding: Sendable, Hashable {
        /// The signed-in account is not on the app's user list: the developer adds the account's
        /// email under User Management in Spotify's dashboard.
        case userNotListed
        /// Spotify stopped the app for everyone: the developer's Premium lapsed.
        case ownerPremiumLapsed
        /// The sign-in lacks this scope, which the app's features need; signing in again asks for it.
        case scopeMissing(String)
        /// Spotify ends the sign-in in this many days; signing in again before then keeps it.
        case signInEndsSoon(days: Int)
        /// Nobody is signed in: the report could not ask Spotify anything.
        case signedOut
        /// The songs of the user's own playlist could not be read.
        case playlistEntriesHidden
        /// This device has spent most of its share of the day's requests.
        case quotaMostlySpent(spent: Int, share: Int)
    }

    /// Which of Spotify's 2026 rules apply to the client ID; `nil` when it could not be asked.
    public var clientGeneration: ClientGeneration?
    /// Whether the signed-in account is on the app's user list; `nil` when not asked.
    public var userListed: Bool?
    /// Whether the developer's Premium is active (Development Mode stops every app without it);
    /// `nil` when not asked.
    public var ownerPremiumActive: Bool?
    /// The scopes the sign-in holds.
    public var scopesGranted: [String]
    /// The scopes the app's features need that the sign-in lacks.
    public var scopesMissing: [String]
    /// Whether the songs of a playlist the user owns or collaborates on can be read; `nil` when
    /// the user has none to try (followed playlists never show their songs in Development Mode).
    public var playlistEntriesReadable: Bool?
    /// The days left before Spotify ends the sign-in (six months after it began); `nil` when
    /// nobody is signed in.
    public var daysLeftOnSignIn: Int?
    /// Requests this app sent from this device in the last 24 hours, the report's own included.
    public var requestsLast24Hours: Int
    /// This device's share of the developer's daily quota (`QuotaShare.perDevice`).
    public var dailyShare: Int
    /// The requests the report itself sent (at most five).
    public var requestsSpent: Int
    /// What needs someone to act, most serious first; empty when all is well.
    public var findings: [Finding]
}

extension SpotifyServices {
    /// The most requests ``capabilities(needing:)`` sends.
    package static let capabilityRequestLimit = 5

    /// Asks Spotify what this app may do for the signed-in user: the client's kind, whether the
    /// user is listed, whether the developer's Premium is active, the scopes, whether a playlist's
    /// songs can be read, the sign-in's days left and today's requests.
    ///
    /// Sends at most five requests (three when the picker's list is saved,
    /// one when the account is refused), each counted in the ledger. It never starts during a
    /// cooldown: one more request then would only lengthen it.
    /// - Parameter scopes: the scopes the app's features need (SpotifyLink's own by default).
    /// - Throws: `SpotifyAPIError` with code `.rateLimited` or `.quotaExceeded` during a cooldown
    ///   (its message says when the report can run), or when Spotify cannot be reached.
    public func capabilities(needing scopes: [String] = SpotifyScope.all) async throws -> CapabilityReport {
        let now = clock.now
        if let cooldown = await client.cooldown() { throw SpotifyAPIError.coolingDown(cooldown, now: now) }
        let tokens = try await session.tokens()
        var report = CapabilityReport(
            scopesGranted: tokens?.scopes ?? [], scopesMissing: [], requestsLast24Hours: 0,
            dailyShare: configuration.share.perDevice, requestsSpent: 0, findings: [])
        if let tokens {
            report.scopesMissing = scopes.filter { !tokens.scopes.contains($0) }
            report.daysLeftOnSignIn = max(0, Int(tokens.signInExpiresAt.timeIntervalSince(now) / 86_400))
            try await ask(&report)
        } else {
            report.findings.append(.signedOut)
        }
        report.findings += report.scopesMissing.map(CapabilityReport.Finding.scopeMissing)
        if let days = try await session.daysUntilSignInEnds() { report.findings.append(.signInEndsSoon(days: days)) }
        report.requestsLast24Hours = try await client.requestUsage().last24Hours
        if report.requestsLast24Hours * 5 >= report.dailyShare * 4 {
            report.findings.append(.quotaMostlySpent(spent: report.requestsLast24Hours, share: report.dailyShare))
        }
        return report
    }

    /// The report's requests: the account, the client's kind, then a playlist's songs. Sent once
    /// each, never retried, so the report keeps to its five and says what it sent (a retried 5xx
    /// used to make six requests of a report that said three).
    private func ask(_ report: inout CapabilityReport) async throws {
        var once = client.configuration
        once.maxAttempts = 1
        once.maxRateLimitRetries = 0
        let client = SpotifyClient(
            configuration: once, tokens: session, transport: configuration.transport, clock: configuration.clock,
            logger: configuration.logger, ledger: self.client.ledger)
        let user: CurrentUser
        do {
            report.requestsSpent += 1
            user = try await client.currentUser()
            report.userListed = true
            report.ownerPremiumActive = true
        } catch let error as SpotifyAPIError where error.code == .userNotRegistered {
            report.userListed = false
            report.findings.append(.userNotListed)
            return
        } catch let error as SpotifyAPIError where error.code == .ownerPremiumRequired {
            report.ownerPremiumActive = false
            report.findings.append(.ownerPremiumLapsed)
            return
        }
        report.requestsSpent += 1
        report.clientGeneration = try await client.clientGeneration()
        // Without the scope, listing playlists would only be refused.
        guard report.scopesGranted.contains("playlist-read-private") else { return }
        var own = try await links.library().first { $0.access == .complete }?.id
        if own == nil {
            report.requestsSpent += 1
            own = try await client.myPlaylists(limit: 10).items
                .first { PlaylistAccess($0, userID: user.id) == .complete }?.id
        }
        guard let own else { return }
        do {
            report.requestsSpent += 1
            _ = try await client.playlistEntries(own, limit: 1)
            report.playlistEntriesReadable = true
        } catch let error as SpotifyAPIError where error.code == .forbidden || error.code == .playlistNotOwned {
            report.playlistEntriesReadable = false
            report.findings.append(.playlistEntriesHidden)
        }
    }
}
