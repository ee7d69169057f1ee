import Foundation
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkUI
import SpotifyTesting
import Testing

/// An app that kept its users' Spotify sign-in in `UserDefaults` before it used SpotifyLink keeps
/// them connected across the upgrade: the earlier refresh token is checked with one refresh, saved
/// in the package's store, and removed from `UserDefaults`.
@MainActor
@Suite("An earlier sign-in adopted at the upgrade")
struct SignInAdoptionTests {
    static let tokenKey = "spotify_refresh_token"
    static let otherKeys = ["spotify_access_token", "spotify_token_expiry"]

    /// Defaults of their own for one test, as the app's `.standard` holds its keys.
    static func defaults(refreshToken: String?) -> UserDefaults {
        let suite = "dev.spotifylink.adoption.\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defaults.set(refreshToken, forKey: tokenKey)
        defaults.set("SENTINEL_AT_earlier", forKey: otherKeys[0])
        defaults.set(Date(timeIntervalSince1970: 1_800_000_000), forKey: otherKeys[1])
        defaults.set("dark", forKey: "theme")
        return defaults
    }

    /// A user who connected in the app before its upgrade: the emulator knows the refresh token,
    /// the package's store holds nothing.
    static func upgradedApp() async throws -> (UIHarness, earlier: String) {
        let harness = try await UIHarness.connected()
        let earlier = try #require(try await harness.session.tokens()?.refreshToken?.unredactedValue)
        try await harness.session.signOut()
        try await waitUntil("the connection follows the sign-out") { !harness.connection.isConnected }
        return (harness, earlier)
    }

    func adopt(_ harness: UIHarness, _ defaults: UserDefaults) async -> SignInAdoption? {
        await harness.connection.adoptEarlierSignIn(
            from: defaults, refreshTokenKey: Self.tokenKey, scopes: SpotifyScope.all, removing: Self.otherKeys)
    }

    /// One refresh, and the user is connected: the tokens are in the package's store, the earlier
    /// keys are gone (the app's own keys stay), and the next launch sends nothing for it.
    @Test func anEarlierSignInIsAdoptedWithOneRefresh() async throws {
        let (harness, earlier) = try await Self.upgradedApp()
        let defaults = Self.defaults(refreshToken: earlier)
        let sent = harness.transport.requestCount
        #expect(await adopt(harness, defaults) == .adopted)
        #expect(harness.transport.requestCount == sent + 1, "one refresh, nothing else")
        #expect(harness.connection.isConnected)
        let stored = try #require(try await harness.session.tokens())
        #expect(stored.refreshToken != nil && stored.scopes == SpotifyScope.all)
        let saved = try await harness.session.store.load(harness.session.key)
        #expect(saved == stored, "in the store, not only in memory")
        #expect(defaults.string(forKey: Self.tokenKey) == nil)
        #expect(Self.otherKeys.allSatisfy { defaults.object(forKey: $0) == nil })
        #expect(defaults.string(forKey: "theme") == "dark", "only the earlier sign-in's keys are removed")
        // The adopted access token works with no other refresh.
        _ = try await harness.client.currentUser()
        #expect(harness.transport.requestCount == sent + 2)
        // The next launch: no key, nothing sent. A key written again: the store's sign-in stays.
        #expect(await adopt(harness, defaults) == nil)
        defaults.set(earlier, forKey: Self.tokenKey)
        #expect(await adopt(harness, defaults) == .alreadySignedIn)
        #expect(harness.transport.requestCount == sent + 2, "nothing sent once the package holds a sign-in")
        #expect(defaults.string(forKey: Self.tokenKey) == nil)
        #expect(try await harness.session.tokens() == stored)
        await harness.stop()
    }

    /// A refresh token Spotify refuses (revoked, or older than six months): the earlier keys are
    /// removed all the same, nothing is stored, and the settings row says why to connect again.
    @Test func aRefusedEarlierSignInIsRemovedAndSaysWhy() async throws {
        let harness = try await UIHarness()
        let defaults = Self.defaults(refreshToken: "SENTINEL_RT_never_issued")
        #expect(await adopt(harness, defaults) == nil)
        #expect(harness.transport.requestCount == 1)
        #expect(defaults.string(forKey: Self.tokenKey) == nil && defaults.object(forKey: Self.otherKeys[0]) == nil)
        #expect(try await harness.session.tokens() == nil)
        try await waitUntil("the connection says why") { harness.connection.phase == .needsSignIn(.revoked) }
        #expect(!"\(harness.connection.phase)".contains("SENTINEL"))
        await harness.stop()
    }

    /// Spotify could not be reached: the earlier keys stay for the next launch, nothing is stored,
    /// and the row says what failed.
    @Test func anUnreachedSpotifyKeepsTheEarlierSignIn() async throws {
        let (harness, earlier) = try await Self.upgradedApp()
        let defaults = Self.defaults(refreshToken: earlier)
        await harness.emulator.stop()
        #expect(await adopt(harness, defaults) == nil)
        #expect(defaults.string(forKey: Self.tokenKey) == earlier && defaults.object(forKey: Self.otherKeys[0]) != nil)
        #expect(try await harness.session.tokens() == nil)
        #expect(harness.connection.phase == .failed(.offline))
    }

    /// Cancelled at any point (a view's task that went), it adopts or it leaves everything as it
    /// was: the earlier keys stay until the package's store holds the sign-in.
    @Test func cancelledAtEachPoint() async throws {
        let passed = try await CancellationSweep.sweep {
            let (world, points) = try await CancellationSweepTests.world()
            let earlier = try #require(try await world.session.tokens()?.refreshToken?.unredactedValue)
            try await world.session.signOut()
            try await waitUntil("the connection follows the sign-out") { !world.connection.isConnected }
            return ((world, Self.defaults(refreshToken: earlier)), points)
        } operation: { world in
            _ = await adopt(world.0, world.1)
            try Task.checkCancellation()
        } check: { world, run, result in
            let (harness, defaults) = world
            let stored = try await harness.session.tokens()
            if stored == nil {
                #expect(defaults.string(forKey: Self.tokenKey) != nil, "\(run): the earlier sign-in is lost")
            } else {
                #expect(defaults.string(forKey: Self.tokenKey) == nil, "\(run): adopted, and the earlier key stayed")
                #expect(harness.connection.isConnected, "\(run)")
            }
            if case .success = result { #expect(stored != nil, "\(run): done, and nothing adopted") }
            await harness.stop()
        }
        #expect(passed.contains { $0.hasPrefix("POST /api/token") }, "\(passed)")
    }

    /// The user disconnects while the adoption waits at any point: no sign-in outlives the
    /// disconnect, and the row says disconnected.
    @Test func aDisconnectAtEachPoint() async throws {
        @MainActor final class Disconnecting { var task: Task<Void, Never>? }
        try await CancellationSweep.sweep {
            let (world, points) = try await CancellationSweepTests.world()
            let earlier = try #require(try await world.session.tokens()?.refreshToken?.unredactedValue)
            try await world.session.signOut()
            try await waitUntil("the connection follows the sign-out") { !world.connection.isConnected }
            return ((world, Self.defaults(refreshToken: earlier), Disconnecting()), points)
        } operation: { world in
            _ = await adopt(world.0, world.1)
        } cancel: { world, _ in
            let (harness, _, disconnecting) = world
            disconnecting.task = Task { await harness.connection.disconnect() }
            // The disconnect waits for the adoption's turn at the store, or is done.
            do {
                try await waitUntil("the disconnect waits for the store or is done") {
                    await harness.session.storeTurnsWaiting >= 1 || harness.connection.lastDisconnectMessage != nil
                }
            } catch {
                Issue.record(error)
            }
        } check: { world, run, _ in
            let (harness, _, disconnecting) = world
            await disconnecting.task?.value
            let tokens = try await harness.session.tokens()
            if run.point != nil {
                #expect(tokens == nil, "\(run): a sign-in outlived the disconnect")
                #expect(harness.connection.phase == .disconnected, "\(run): \(harness.connection.phase)")
            }
            await harness.stop()
        }
    }
}
