public import Foundation
public import PlaylistLinks
public import PlaylistLinksSQLite
public import SpotifyAuth
import SpotifyLinkSupport
public import SpotifyNowPlaying
public import SpotifyWebAPI
import Synchronization

/// Everything an app needs for Spotify, put together once at launch with this platform's defaults,
/// and the models its screens bind to.
///
/// The first launch after the app is installed starts signed out: Keychain items outlive an app's
/// deletion, so a reinstalled app would otherwise find the previous install's sign-in. A marker
/// file in the data folder (removed with the app) tells a new install from a relaunch or an upgrade;
/// with an App Group it is in the group's container, so an app and its extensions agree. A sign-in
/// shared through a Keychain access group without the App Group's folder is not touched.
///
/// Make it once, in the app's `@main` App (an app has no top-level code). Making it touches no disk,
/// so it costs the launch nothing; its databases open at their first use, off the main actor:
///
/// ```swift
/// @main struct JournalApp: App {
///     @State private var spotify = SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
///     var body: some Scene { WindowGroup { ConnectRow(spotify: spotify) } }
/// }
/// ```
///
/// It builds:
/// - the sign-in's `SpotifySession`, keeping tokens in the platform's secret store: the Keychain
///   on Apple platforms (data protection keychain, readable after the first unlock), the desktop
///   keyring on Linux;
/// - the `RequestLedger`, whose daily budget for background work is this device's `QuotaShare`
///   of the developer's quota (shared by every app, user and device of the developer);
/// - the `SpotifyClient` and one shared transport (connections are reused);
/// - the link store, in Application Support (Apple platforms) or `$XDG_DATA_HOME` (Linux);
/// - the ``SpotifyConnectionModel`` the settings screen binds to, and the other models on demand.
///
/// Every part stays replaceable through ``Configuration``. Make one per process: the session is
/// what makes a refresh happen once.
@MainActor
public final class SpotifyLink {
    /// What the app is, and where its parts live.
    public struct Configuration: Sendable {
        /// The app's client ID from Spotify's developer dashboard.
        public var clientID: String
        /// The redirect URI registered there, as `myapp://spotify-callback`.
        public var redirectURI: String
        /// The accounts service: Spotify, or an emulator (`.emulator(url:)`).
        public var server: AuthorizationServer
        /// The App Group the app shares with its extensions (a widget, a Live Activity), or `nil`.
        /// Set through ``init(clientID:redirectURI:server:name:appGroup:)``, which puts the folder,
        /// the request ledger, the refresh lock and the Keychain item there.
        public private(set) var appGroup: String?
        /// The folder of the app's Spotify data (links, covers, request counts): no secret in it.
        /// Its databases are opened at their first use, off the main actor. On iOS the folder's data
        /// protection class is `completeUntilFirstUserAuthentication`, readable in the background
        /// after the first unlock as the Keychain item is; the request ledger is left out of backups.
        public var folder: URL
        /// The GRDB configuration of the folder's databases, or `nil` for GRDB's default. For a
        /// folder in an App Group container, give one with `observesSuspensionNotifications` set, and
        /// post GRDB's `Database.suspendNotification` when the app goes to the background (and
        /// `resumeNotification` when it comes back), so a suspended process never holds a lock on the
        /// shared file. The stores turn foreign keys on and add a five-second busy timeout unless
        /// the configuration has its own.
        public var database: DatabaseConfiguration?
        /// Where the tokens are kept.
        public var tokenStore: any TokenStore
        /// This device's share of the developer's request quota.
        public var share: QuotaShare
        /// The transport every request uses, shared.
        public var transport: any Transport
        /// The clock of expiries, waits and polls.
        public var clock: any SpotifyClock
        /// How long the details saved from Spotify stay: a day before a card refreshes them, 30
        /// days for a cover not shown, 90 days for details not refreshed (`RetentionPolicy`).
        public var retention = RetentionPolicy.default
        /// How the models' messages are worded.
        public var text: SpotifyText
        /// The data folder's protection class and backup exclusion (tests record them).
        package var protection = FileProtection.platform

        /// The platform defaults for `clientID`, answered at `redirectURI`: live Spotify, the
        /// platform's data folder and secret store, the default quota share.
        ///
        /// With `appGroup`, an app and its extensions share one sign-in and spend one daily budget:
        /// the data folder (links, the request ledger, the install marker) is `name` inside the App
        /// Group's container, refreshes take turns through a lock file in its `locks` subfolder, and
        /// the Keychain item is shared through the App Group as its access group. Give every target
        /// the App Groups entitlement with this identifier. On Linux the group's container is the
        /// folder of that name in `$XDG_DATA_HOME`, shared by the user's processes.
        ///
        /// - Parameters:
        ///   - clientID: the app's client ID.
        ///   - redirectURI: the registered redirect URI.
        ///   - server: the accounts service; `.live` unless testing against an emulator.
        ///   - name: the data folder's name, inside Application Support, `$XDG_DATA_HOME` or the App
        ///     Group container; by default ``defaultFolderName``.
        ///   - appGroup: the App Group identifier shared with the app's extensions, such as
        ///     `group.com.example.journal`.
        public init(
            clientID: String, redirectURI: String, server: AuthorizationServer = .live,
            name: String = Configuration.defaultFolderName, appGroup: String? = nil
        ) {
            self.init(
                clientID: clientID, redirectURI: redirectURI, server: server, name: name, appGroup: appGroup,
                environment: ProcessInfo.processInfo.environment)
        }

        /// ``init(clientID:redirectURI:server:name:appGroup:)`` with the environment given.
        package init(
            clientID: String, redirectURI: String, server: AuthorizationServer = .live,
            name: String = Configuration.defaultFolderName, appGroup: String?, environment: [String: String]
        ) {
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.server = server
            if let appGroup, let container = Self.appGroupContainer(appGroup, environment: environment) {
                self.appGroup = appGroup
                self.folder = container.appendingPathComponent(name, isDirectory: true)
                self.tokenStore = Self.platformTokenStore(
                    accessGroup: appGroup, lockDirectory: folder.appendingPathComponent("locks", isDirectory: true))
            } else {
                // No container: the entitlement is missing from this target. The app works on its
                // own folder, and the debug build stops here to say so.
                assert(
                    appGroup == nil, "App Group \(appGroup ?? "") has no container: add it to the target's App Groups")
                self.folder = Self.dataFolder(named: name, environment: environment)
                self.tokenStore = Self.platformTokenStore()
            }
            self.database = nil
            self.share = QuotaShare()
            self.transport = platformDefaultTransport()
            self.clock = SystemClock()
            self.text = SpotifyText()
        }

        /// The data folder's default name: the app's bundle identifier on macOS, where Application
        /// Support is shared by every app that is not sandboxed (two Mac apps built on this package
        /// never share links); "SpotifyLink" elsewhere (an iOS app's container is its own).
        public static var defaultFolderName: String {
            #if canImport(AppKit) && !canImport(UIKit)
                Bundle.main.bundleIdentifier ?? "SpotifyLink"
            #else
                "SpotifyLink"
            #endif
        }

        /// The folder `name` inside Application Support (Apple platforms) or `$XDG_DATA_HOME`
        /// (Linux, `~/.local/share` by default).
        public static func dataFolder(named name: String) -> URL {
            dataFolder(named: name, environment: ProcessInfo.processInfo.environment)
        }

        /// ``dataFolder(named:)`` with the environment given: as the XDG Base Directory rules say, an
        /// empty or relative `XDG_DATA_HOME` is ignored (never a folder under the working directory).
        package static func dataFolder(named name: String, environment: [String: String]) -> URL {
            #if canImport(UIKit) || canImport(AppKit)
                let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            #else
                let base = BaseDirectories.data(environment)
            #endif
            return base.appendingPathComponent(name, isDirectory: true)
        }

        /// The container of App Group `identifier`: Apple's, when the target has the entitlement; on
        /// Linux the folder of that name in `$XDG_DATA_HOME` (or `~/.local/share`).
        package static func appGroupContainer(_ identifier: String, environment: [String: String]) -> URL? {
            #if canImport(UIKit) || canImport(AppKit)
                FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier)
            #else
                dataFolder(named: identifier, environment: environment)
            #endif
        }

        /// The platform's secret store: the Keychain on Apple platforms, shared with the app's
        /// extensions through `accessGroup` (refreshes take turns through a lock file in
        /// `lockDirectory`, the App Group container); the desktop keyring on Linux.
        public static func platformTokenStore(accessGroup: String? = nil, lockDirectory: URL? = nil)
            -> any TokenStore
        {
            #if canImport(Security)
                KeychainTokenStore(accessGroup: accessGroup, lockDirectory: lockDirectory)
            #elseif os(Linux) || os(FreeBSD)
                SecretServiceTokenStore(lockDirectory: lockDirectory)
            #else
                MemoryTokenStore()
            #endif
        }
    }

    /// What it was built from.
    package let configuration: Configuration
    /// The sign-in.
    public let session: SpotifySession
    /// The request counts and cooldowns every request honours.
    public let ledger: RequestLedger
    /// The Web API client every model calls through.
    public let client: SpotifyClient
    /// The links from the app's records to playlists, with their saved details and covers.
    public let links: SQLitePlaylistLinkStore
    /// The settings screen's Connect / Disconnect.
    public let connection: SpotifyConnectionModel
    /// How the models' messages are worded: `text(card.status)`.
    public let text: SpotifyText

    /// Spotify for the app with `clientID`, signing in through `redirectURI`, with the platform's
    /// defaults.
    public convenience init(clientID: String, redirectURI: String) {
        self.init(Configuration(clientID: clientID, redirectURI: redirectURI))
    }

    /// Spotify for the app `configuration` describes.
    ///
    /// Making it touches no disk: the databases are opened (created, migrated) and the install
    /// checked at their first use, off the main actor, so it can be made as the app launches. A data
    /// folder that cannot be opened does not stop the app: the models show it as their state
    /// (``SpotifyMessage/storageUnavailable``), and the next use tries again.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        let endpoint = TokenEndpoint(
            server: configuration.server, clientID: configuration.clientID, transport: configuration.transport,
            clock: configuration.clock)
        let folder = configuration.folder
        let install = InstallMarker(folder: folder)
        // A sign-in shared with extensions through an access group but without the App Group's
        // folder is left alone: each process has a folder of its own then, and a widget's first
        // launch must not sign the app out.
        let sharedSignInOnly =
            configuration.appGroup == nil && (configuration.tokenStore as? KeychainTokenStore)?.accessGroup != nil
        session = SpotifySession(
            endpoint: endpoint, store: configuration.tokenStore, clock: configuration.clock, logger: nil,
            activity: platformExpiringActivity(), isEarlierInstall: sharedSignInOnly ? nil : install.isNewInstall)
        ledger = RequestLedger(
            key: SpotifyAppKey(issuer: configuration.server.issuer, clientID: configuration.clientID),
            store: SQLiteRequestLedgerStore(
                deferring: folder.appendingPathComponent("spotify-requests.sqlite"),
                configuration: configuration.database, protection: configuration.protection,
                beforeOpening: { _ = install.isNewInstall() }),
            dailyBudget: configuration.share.dailyBudget)
        client = SpotifyClient(
            configuration: SpotifyClient.Configuration(apiBaseURL: configuration.server.apiBaseURL), tokens: session,
            transport: configuration.transport, clock: configuration.clock, ledger: ledger)
        links = SQLitePlaylistLinkStore(
            deferring: .file(folder.appendingPathComponent("links.sqlite")), configuration: configuration.database,
            protection: configuration.protection, beforeOpening: { _ = install.isNewInstall() },
            clock: configuration.clock)
        connection = SpotifyConnectionModel(
            session: session, client: client, redirectURI: configuration.redirectURI, links: links)
        text = configuration.text
    }

    /// The card of `record`'s playlist.
    public func card(for record: RecordID) -> PlaylistCardModel {
        PlaylistCardModel(
            record: record, store: links, connection: connection, coverTransport: configuration.transport,
            retention: configuration.retention)
    }

    /// The playlist picker.
    public func picker() -> PlaylistPickerModel {
        PlaylistPickerModel(store: links, connection: connection, clock: configuration.clock)
    }

    /// The now-playing indicator, polling within the default budget unless told otherwise.
    public func nowPlaying(policy: NowPlayingMonitor.Polling = .default) -> NowPlayingIndicatorModel {
        NowPlayingIndicatorModel(connection: connection, policy: policy)
    }

    /// The song search.
    public func songSearch() -> TrackSearchModel {
        TrackSearchModel(connection: connection, clock: configuration.clock)
    }

    /// The learner's profile, saved and top songs.
    public func learner() -> LearnerModel {
        LearnerModel(connection: connection)
    }
}

/// Tells a new install of the app from a relaunch or an upgrade, by a file in the data folder, which
/// the app's deletion removes with the folder (and which an app and its extensions share when the
/// folder is in their App Group container). Keychain items are not removed with the app: without
/// this, a reinstalled app would find the previous install's sign-in and be connected to that
/// account without asking.
///
/// Asked first by whichever part reaches the disk first (a database opening, the session's first
/// look at the store), always off the main actor, and answered once per process: the marker is left
/// at the first answer, before any database is made.
final class InstallMarker: Sendable {
    static let name = ".spotifylink-installed"
    private let folder: URL
    private let protection: FileProtection
    private let answer = Lock<Bool?>(nil)

    init(folder: URL, protection: FileProtection = .platform) {
        self.folder = folder
        self.protection = protection
    }

    /// Whether this process runs the first launch since the app was installed: the folder holds
    /// neither the marker nor a database of an earlier version (an upgrade from a version without
    /// the marker is not a new install).
    @Sendable func isNewInstall() -> Bool {
        answer.withLock { answer in
            if let answer { return answer }
            let manager = FileManager.default
            let new = ![Self.name, "links.sqlite", "spotify-requests.sqlite"].contains {
                manager.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            if new { mark() }
            answer = new
            return new
        }
    }

    /// Leaves the marker; if it cannot be written, the next launch takes the data folder's
    /// databases for an earlier install's and keeps the sign-in.
    private func mark() {
        let manager = FileManager.default
        try? manager.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        protection.protect(folder)
        _ = manager.createFile(atPath: folder.appendingPathComponent(Self.name).path, contents: Data())
    }
}
