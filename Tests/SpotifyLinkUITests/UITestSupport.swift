import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
@_spi(Storage) import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Synchronization
import Testing

/// Everything the models need, built as an app builds it (`SpotifyLink` over the emulator's
/// `SpotifyServices`), wired to one emulator and one manual test clock.
@MainActor
final class UIHarness {
    let clock = VirtualClock()
    let transport = GatedTransport()
    /// The traced seam around ``transport`` when the harness reports to suspension points.
    let traced: TracedTransport?
    let emulator: EmulatorServer
    let spotify: SpotifyLink
    var session: SpotifySession { spotify.session }
    var client: SpotifyClient { spotify.client }
    var links: LinkedPlaylists { spotify.links }
    /// The SQLite store behind ``links``, for what only a store offers (its writer, a metadata save).
    var linkStore: SQLitePlaylistLinkStore { spotify.services.linkStore }
    var connection: SpotifyConnectionModel { spotify.connection }
    let signIns = Counter()
    /// The system's sign-in sheet, as the test plays it: counts each opening, then does what the
    /// harness was told the user does (agrees on Spotify's page by default).
    let browser: BrowserSignIn.Browser

    /// The app's registered redirect: a custom scheme, as an iOS app's.
    static let redirect = "myapp://spotify-callback"

    /// - Parameters:
    ///   - user: what the user does in the sheet; agrees on Spotify's page by default.
    ///   - clientCreated: when the app's client ID was created (after Spotify's February 2026
    ///     restrictions by default).
    ///   - screenshotMode: the app's screenshot mode (the emulator's images stay striped).
    ///   - folder: a data folder to keep the databases in, as an app does (in memory by default),
    ///     opened with `database`.
    ///   - points: the suspension points a cancellation sweep holds the models at: when given,
    ///     every request, token store call, link store call and sleep of the app reports to them.
    init(
        user: BrowserSignIn.Browser? = nil, clientCreated: Date? = nil, screenshotMode: Bool = false,
        folder: URL? = nil, database: DatabaseConfiguration? = nil, points: SuspensionPoints? = nil,
        parentalGate: ParentalGate? = nil
    ) async throws {
        var configuration = EmulatorConfiguration()
        let clock = clock
        configuration.time = .external { clock.now }
        var app = EmulatorConfiguration.Client(id: "spotlink-demo", redirectURIs: [Self.redirect])
        if let clientCreated { app.created = clientCreated }
        configuration.clients = [app]
        emulator = try await EmulatorServer.startForTest(configuration)
        var services = SpotifyServices.Configuration.emulator(
            url: emulator.baseURL, redirectURI: Self.redirect, clock: clock, transport: transport)
        if let points {
            let traced = TracedTransport(transport, points: points)
            self.traced = traced
            services.transport = traced
            services.clock = TracedClock(clock, points: points)
            services.tokenStore = TracedTokenStore(services.tokenStore, points: points)
            services.linkSeam = { TracedLinkStore($0, points: points) }
        } else {
            traced = nil
        }
        services.screenshotMode = screenshotMode
        if let folder {
            services.storage = .folder
            services.folder = folder
        }
        services.database = database
        services.parentalGate = parentalGate
        spotify = SpotifyLink(services)
        let signIns = signIns
        let user = user ?? { url, _ in try await ConsentBrowser().callback(for: url) }
        browser = { url, scheme in
            signIns.increment()
            return try await user(url, scheme)
        }
    }

    /// A harness whose user has connected.
    static func connected(screenshotMode: Bool = false) async throws -> UIHarness {
        let harness = try await UIHarness(screenshotMode: screenshotMode)
        try await harness.connect()
        return harness
    }

    func connect() async throws {
        connection.connect(using: browser)
        await connection.waitForConnect()
        guard connection.isConnected else { throw HarnessError("not connected: \(connection.phase)") }
    }

    func stop() async { await emulator.stop() }

    /// Lets `card`'s refresh against a stopped emulator end: its retries back off on the test
    /// clock, which is moved along until they give up.
    func letTheFailingRefreshEnd(_ card: PlaylistCardModel) async throws {
        while card.isRefreshing {
            try await waitUntil("a retry waits or the refresh ends") {
                self.clock.sleeperCount > 0 || !card.isRefreshing
            }
            clock.advanceToNextDeadline()
        }
    }

    /// A test that throws before ``stop()`` still shuts its emulator down (stopping twice is harmless).
    deinit {
        let emulator = emulator
        Task { await emulator.stop() }
    }

    /// Links the emulator's "Deep Work" playlist to session `id`.
    func linkDeepWork(to id: String) async throws -> (RecordID, SpotifyID) {
        let record = RecordID(namespace: "session", id: id)
        let deep = try await playlistID("Deep Work")
        try await links.link(record, to: deep)
        return (record, deep)
    }

    func playlistID(_ name: String) async throws -> SpotifyID {
        try SpotifyID(try #require(await emulator.playlists().first { $0.name == name }).id)
    }
}

final class Counter: Sendable {
    private let count = Lock(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
