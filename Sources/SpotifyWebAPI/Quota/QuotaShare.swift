/// One device's share of the developer's daily request quota, from how many apps, users and
/// devices draw on it.
///
/// Since July 2026 a Development Mode app's requests count against one quota per *developer
/// account*: every app of the developer, every user of each app (five at most) and every device of
/// each user draw from it. Observed live, it runs out after roughly 800–1,400 requests a day, and
/// then nothing works for hours. So a device's fair share is the quota divided among all of them,
/// and background work (refreshes, now-playing polls) gets only part of that share, leaving room
/// for what people ask for:
///
/// ```
/// per device   = developerQuota / (apps × usersPerApp × devicesPerUser)
/// dailyBudget  = per device × backgroundFraction
/// ```
///
/// The defaults (800, one app, five users, one device each, half for background work) give 160
/// requests a day per device, 80 of them for background work.
public struct QuotaShare: Sendable, Hashable {
    /// The requests a day Spotify lets the developer make, all apps and users together: the low end
    /// of what is observed (800–1,400), since Spotify does not publish it.
    public var developerQuota: Int
    /// The developer's apps that use the same quota (every client ID of the developer).
    public var apps: Int
    /// The users of each app (Development Mode allows five).
    public var usersPerApp: Int
    /// The devices each user runs the app on.
    public var devicesPerUser: Int
    /// The part of a device's share background work may spend; the rest waits for people.
    public var backgroundFraction: Double

    /// A share of `developerQuota` among `apps`, `usersPerApp` and `devicesPerUser`, with
    /// `backgroundFraction` of it for background work.
    public init(
        developerQuota: Int = 800, apps: Int = 1, usersPerApp: Int = 5, devicesPerUser: Int = 1,
        backgroundFraction: Double = 0.5
    ) {
        self.developerQuota = max(developerQuota, 0)
        self.apps = max(apps, 1)
        self.usersPerApp = max(usersPerApp, 1)
        self.devicesPerUser = max(devicesPerUser, 1)
        self.backgroundFraction = min(max(backgroundFraction, 0), 1)
    }

    /// Requests a day this device may spend in all: its share of the quota.
    public var perDevice: Int { developerQuota / (apps * usersPerApp * devicesPerUser) }

    /// Requests a day background work may spend on this device: the ledger's
    /// ``RequestLedger/dailyBudget``.
    public var dailyBudget: Int { Int((Double(perDevice) * backgroundFraction).rounded(.down)) }
}
