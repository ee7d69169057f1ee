import Foundation
import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkServices
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// `SpotifyServices.capabilities()`: what the app may do, asked in at most five requests, each
/// counted, against the emulator's two kinds of client, an unlisted user and a lapsed Premium.
@MainActor
@Suite("What this app may do: the capability report")
struct CapabilityTests {
    /// An emulator whose one client was created on `created` (the default is a newer client).
    static func emulatorConfiguration(created: Date? = nil) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        var client = EmulatorConfiguration.Client(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])
        if let created { client.created = created }
        configuration.clients = [client]
        return configuration
    }

    /// Services on `emulator`, signed in through its consent page.
    static func signedIn(_ emulator: EmulatorServer, clock: VirtualClock = VirtualClock()) async throws
        -> SpotifyServices
    {
        var configuration = SpotifyServices.Configuration.emulator(url: emulator.baseURL)
        configuration.clock = clock
        let services = SpotifyServices(configuration)
        try await BrowserSignIn(redirectURI: configuration.redirectURI).run(session: services.session) { url, _ in
            try await ConsentBrowser().callback(for: url)
        }
        try #require(await services.session.status == .signedIn)
        return services
    }

    /// Requests the emulator answered on the Web API.
    static func webAPIRequests(_ emulator: EmulatorServer) async -> Int {
        await emulator.totalRequests(prefix: "GET /v1/")
    }

    @Test(arguments: [false, true])
    func aListedUsersReportNamesTheClientsKindAndNeedsNothing(older: Bool) async throws {
        let created = older ? Date(timeIntervalSince1970: 1_748_736_000) : nil  // 2025-06-01
        let emulator = try await EmulatorServer.startForTest(Self.emulatorConfiguration(created: created))
        defer { Task { await emulator.stop() } }
        let clock = VirtualClock()
        let services = try await Self.signedIn(emulator, clock: clock)
        let before = await Self.webAPIRequests(emulator)
        let report = try await services.capabilities()
        let sent = await Self.webAPIRequests(emulator) - before
        #expect(report.clientGeneration == (older ? .older : .newer))
        #expect(report.userListed == true && report.ownerPremiumActive == true)
        #expect(report.scopesMissing.isEmpty && Set(report.scopesGranted).isSuperset(of: SpotifyScope.all))
        #expect(report.playlistEntriesReadable == true)
        #expect(report.daysLeftOnSignIn == 183)
        clock.advance(by: .seconds(170 * 86_400))
        #expect(try await services.capabilities().findings == [.signInEndsSoon(days: 13)])
        #expect(report.findings.isEmpty, "\(report.findings)")
        // Every request it sent is one Spotify counted, the ledger counted, and at most five.
        #expect(sent == report.requestsSpent && sent <= SpotifyServices.capabilityRequestLimit, "sent \(sent)")
        #expect(report.requestsLast24Hours >= sent)
        // With the picker's list saved, the owned playlist to try comes from it: one request fewer.
        _ = try await services.links.replaceLibrary(
            try await services.client.myPlaylists(limit: 10).items, userID: try await services.client.currentUser().id)
        let cached = await Self.webAPIRequests(emulator)
        let again = try await services.capabilities()
        #expect(await Self.webAPIRequests(emulator) - cached == again.requestsSpent)
        #expect(again.requestsSpent == report.requestsSpent - 1 && again.playlistEntriesReadable == true)
    }

    /// A user not on the app's list: every call answers 403. One request finds it. (The finding's
    /// words, with the fix, are the UI's: `TextTests`.)
    @Test func anUnlistedUserIsFoundInOneRequestWithTheFix() async throws {
        let emulator = try await EmulatorServer.startForTest(Self.emulatorConfiguration())
        defer { Task { await emulator.stop() } }
        let services = try await Self.signedIn(emulator)
        await emulator.control("faults", ["kind": "403-not-registered", "count": "10"])
        let before = await Self.webAPIRequests(emulator)
        let report = try await services.capabilities()
        #expect(await Self.webAPIRequests(emulator) - before == 1 && report.requestsSpent == 1)
        #expect(report.userListed == false && report.clientGeneration == nil)
        #expect(report.findings == [.userNotListed])
    }

    /// The developer's Premium lapsed: Spotify stops the app for everyone, and the report says so.
    @Test func aLapsedPremiumIsFound() async throws {
        let emulator = try await EmulatorServer.startForTest(Self.emulatorConfiguration())
        defer { Task { await emulator.stop() } }
        let services = try await Self.signedIn(emulator)
        await emulator.control("faults", ["kind": "403-premium", "count": "10"])
        let report = try await services.capabilities()
        #expect(report.ownerPremiumActive == false && report.requestsSpent == 1)
        #expect(report.findings == [.ownerPremiumLapsed])
    }

    /// During a cooldown the report sends nothing (one more request would only lengthen it) and
    /// says when it can run.
    @Test func itRefusesDuringACooldownAndSendsNothing() async throws {
        let emulator = try await EmulatorServer.startForTest(Self.emulatorConfiguration())
        defer { Task { await emulator.stop() } }
        let services = try await Self.signedIn(emulator)
        await emulator.control("faults", ["kind": "429-quota", "count": "1", "retry_after": "7200"])
        await #expect(throws: SpotifyAPIError.self) { _ = try await services.client.currentUser() }
        let before = await Self.webAPIRequests(emulator)
        let error = await #expect(throws: SpotifyAPIError.self) { _ = try await services.capabilities() }
        #expect(error?.code == .quotaExceeded, "\(String(describing: error))")
        #expect(await Self.webAPIRequests(emulator) == before, "the report sent a request during the cooldown")
    }

    /// Nobody signed in: nothing to ask Spotify, and the report says to connect.
    @Test func signedOutItAsksNothing() async throws {
        let emulator = try await EmulatorServer.startForTest(Self.emulatorConfiguration())
        defer { Task { await emulator.stop() } }
        let services = SpotifyServices(.emulator(url: emulator.baseURL))
        let report = try await services.capabilities()
        #expect(report.requestsSpent == 0 && report.findings == [.signedOut])
        #expect(await Self.webAPIRequests(emulator) == 0)
    }
}
