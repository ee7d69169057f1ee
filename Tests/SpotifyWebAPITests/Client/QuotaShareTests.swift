import Foundation
import Testing

@testable import SpotifyWebAPI

/// A device's share of the developer's quota, as the README and `SpotifyLink` set it.
@Suite("A device's share of the shared quota")
struct QuotaShareTests {
    @Test func theDefaultsLeaveEachOfFiveUsersAFifth() {
        let share = QuotaShare()
        #expect(share.perDevice == 160)
        #expect(share.dailyBudget == 80)
    }

    @Test(arguments: [
        (QuotaShare(apps: 3, usersPerApp: 5), 53, 26),
        (QuotaShare(developerQuota: 1000, apps: 1, usersPerApp: 2, devicesPerUser: 2), 250, 125),
        (QuotaShare(apps: 1, usersPerApp: 1, backgroundFraction: 1), 800, 800),
        (QuotaShare(apps: 0, usersPerApp: -1, devicesPerUser: 0, backgroundFraction: 7), 800, 800),
    ])
    func everyAppUserAndDeviceDrawsFromOneQuota(share: QuotaShare, perDevice: Int, budget: Int) {
        #expect(share.perDevice == perDevice)
        #expect(share.dailyBudget == budget)
    }

    /// Two apps share the quota: this device's background work stops after its 40th request of
    /// the day, while a request a person asked for still goes.
    @Test func aLedgerWithAShareStopsBackgroundWorkThere() async throws {
        let ledger = RequestLedger(
            key: SpotifyAppKey(issuer: "i", clientID: "c"), dailyBudget: QuotaShare(apps: 2).dailyBudget)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        for request in 0..<40 {
            let sent = start.addingTimeInterval(Double(request) * 60)
            _ = try await ledger.reserve(route: "GET /me", background: true, at: sent)
        }
        await #expect {
            try await ledger.reserve(route: "GET /me", background: true, at: start.addingTimeInterval(3_600))
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .budgetExhausted
        }
        _ = try await ledger.reserve(route: "GET /me", background: false, at: start.addingTimeInterval(3_600))
        #expect(try await ledger.usage(at: start.addingTimeInterval(3_600)).last24Hours == 41)
    }
}
