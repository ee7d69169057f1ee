public import Foundation
public import Logging
@_spi(Storage) public import PlaylistLinks
public import SpotifyAuth
public import SpotifyLinkExtensions
@_spi(Storage) public import SpotifyLinkSQLite
import SpotifyLinkSupport
public import SpotifyWebAPI
import Synchronization

/// The one place a process puts its Spotify parts together: the sign-in, the request ledger, the
/// client and the link store, from one ``Configuration``, with the same file names everywhere.
///
/// An app meets it through `SpotifyLink` (`SpotifyLinkUI`), which adds the models; the command
/// line, the bench and the tests build from it directly:
///
/// ```swift
/// let spotify = SpotifyServices(.emulator(url: emulator.baseURL))          // tests, `spotlink --emulator`
/// let device = SpotifyServices(.init(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback"))
/// ```
///
/// For a device it builds:
/// - the sign-in's `SpotifySession`, keeping tokens in the platform's secret store: the Keychain
///   on Apple platforms (data protection keychain, readable after the first unlock), the desktop
///   keyring on Linux;
/// - the `RequestLedger`, whose daily budget for background work is this device's `QuotaShare`
///   of the developer's quota (shared by every app, user and device of the developer);
/// - the `SpotifyClient` and one shared transport (connections are reused);
/// - the link store, in Application Support (Apple platforms) or `$XDG_DATA_HOME` (Linux).
///
/// The first launch after the app is installed starts signed out: Keychain items outlive an app's
/// deletion, so a reinstalled app would otherwise find the previous install's sign-in. A marker
/// file in the data folder (removed with the app) tells a new install from a relaunch or an
/// upgrade; with an App Group it is in the group's container, so an app and its extensions agree. A
/// sign-in shared through a Keychain access group without the App Group's folder is not touched.
///
/// Making it touches no disk: the databases are opened (created, migrated) and the install checked
/// at their first use, off the caller's actor. Make one per process: the session is what makes a
/// refresh happen once.
public final class SpotifyServices: Sendable {
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
        /// What every way to the links goes through, around the SQLite store: tests put a traced
        /// seam there (`TracedLinkStore`); `nil`, the store itself.
        package var linkSeam: (@Sendable (any PlaylistLinkStore) -> any PlaylistLinkStore)?
        /// How long the details saved from Spotify stay: a day before a card refreshes them, 30
        /// days for a cover not shown, 90 days for details not refreshed (`RetentionPolicy`).
        public var retention = RetentionPolicy.default
        /// Where the data lives: in ``folder`` (an app, the command line), or in memory alone (the
        /// emulator's tests, previews), when nothing touches the disk.
        public var storage = Storage.folder
        /// Screenshot mode, for App Store screenshots, which must not show album art: a card's
        /// cover is a plain grey placeholder of the cover's size; names, counts and durations stay.
        /// ``SpotifyServices/preview()`` is always in it. Images an app loads from a URL itself
        /// (album art in now playing, search results) come from where the URL points: take
        /// screenshots against the preview, or the emulator started with `--placeholder-images`.
        public var screenshotMode = false
        /// Debug-level request logs; nothing is logged without one. Tokens are never logged.
        public var logger: Logger?
        /// The check an adult passes before the sign-in sheet opens, before any link out to
        /// Spotify, and before the picker lists the account's playlists: ``ParentalGate/question``
        /// for an app in the Kids Category; `nil` (the default), nothing is asked.
        public var parentalGate: ParentalGate?
        /// Song search before the user connects, through the developer's search service
        /// (`spotlink-search`): `SignedOutSearch(service:proof:)`, proven by App Attest (or the
        /// development key on a simulator). The song search then works signed out and signed in
        /// with the same code; `nil` (the default), it asks the user to connect first.
        public var signedOutSearch: SignedOutSearch?
        /// The data folder's protection class and backup exclusion (tests record them).
        package var protection = FileProtection.platform
        /// Whether a new install of the app starts signed out (an app's Keychain item outlives its
        /// deletion); the command line, whose sign-in is its own file, keeps it.
        package var startsSignedOutAfterReinstall = true
        /// The longest a request waits out a rate limit before it fails with the time to wait.
        package var maxRateLimitWait: Duration?
        /// Whether background requests stop at ``share``'s daily budget; the command line, whose
        /// every request a person asked for, has none.
        package var limitsBackgroundWork = true

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
            name: String = Configuration.defaultFolderName, appGroup: String?, environment: [String: String],
            tokenStore: (any TokenStore)? = nil
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
                self.tokenStore = tokenStore ?? Self.platformTokenStore()
            }
            self.database = nil
            self.share = QuotaShare()
            self.transport = platformDefaultTransport()
            self.clock = SystemClock()
        }

        /// Where the data lives.
        public enum Storage: Sendable, Equatable {
            /// The databases `links.sqlite` and `spotify-requests.sqlite` in ``folder``, kept across
            /// launches.
            case folder
            /// In memory, gone with the process: nothing is written to disk.
            case memory
        }

        /// The configuration of a process that talks to the Spotify emulator at `url`: the
        /// emulator's demo client, the sign-in in memory, and the data in memory unless `storage`
        /// says otherwise. The tests, the bench and `spotlink --emulator` start from it.
        /// - Parameters:
        ///   - url: the emulator's address, such as `http://127.0.0.1:8080`.
        ///   - clientID: a client ID the emulator knows; its demo client by default.
        ///   - redirectURI: a redirect URI registered for that client.
        ///   - clock: the clock of expiries and waits; the emulator's tests give their virtual one.
        ///   - transport: the transport every request uses.
        public static func emulator(
            url: URL, clientID: String = "spotlink-demo", redirectURI: String = "myapp://spotify-callback",
            clock: any SpotifyClock = SystemClock(), transport: any Transport = platformDefaultTransport()
        ) -> Configuration {
            var configuration = Configuration(
                clientID: clientID, redirectURI: redirectURI, server: .emulator(url: url), appGroup: nil,
                environment: [:], tokenStore: MemoryTokenStore())
            configuration.storage = .memory
            configuration.clock = clock
            configuration.transport = transport
            return configuration
        }

        /// The launch environment variable that points an app at the Spotify emulator for a UI
        /// test run: `SPOTIFYLINK_EMULATOR_URL`, an `http` address on this machine (the simulator
        /// shares the Mac's `127.0.0.1`).
        public static let emulatorEnvironmentKey = "SPOTIFYLINK_EMULATOR_URL"

        /// This configuration, or, when a UI test launched the app with
        /// ``emulatorEnvironmentKey`` set to the address of a `spotify-emulator` on this machine,
        /// the emulator's: the same client ID, redirect URI, gate, retention and screenshot mode,
        /// with the sign-in and the data in memory, so every launch starts signed out and empty.
        /// An address that is not `http` on `127.0.0.1`, `::1` or `localhost` is ignored: a launch
        /// environment can never send the app's sign-in anywhere else.
        ///
        /// ```swift
        /// @State private var spotify = SpotifyLink(
        ///     SpotifyLink.Configuration(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback").forUITests())
        /// ```
        public func forUITests(environment: [String: String] = ProcessInfo.processInfo.environment) -> Configuration {
            guard let text = environment[Self.emulatorEnvironmentKey], let url = URL(string: text),
                url.scheme == "http", let host = url.host, ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host)
            else { return self }
            var emulated = Configuration.emulator(
                url: url, clientID: clientID, redirectURI: redirectURI, clock: clock, transport: transport)
            emulated.retention = retention
            emulated.screenshotMode = screenshotMode
            emulated.parentalGate = parentalGate
            emulated.logger = logger
            return emulated
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
        package static func dataFolder(named name: String) -> URL {
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
    public let configuration: Configuration
    /// The sign-in.
    public let session: SpotifySession
    /// The request counts and cooldowns every request honours.
    public let ledger: RequestLedger
    /// The Web API client every caller goes through.
    public let client: SpotifyClient
    /// The links from the app's records to playlists, with their saved details and covers.
    public let links: LinkedPlaylists
    /// The SQLite store behind ``links``: its GRDB writer, for an app keeping its own tables in
    /// the same file (one connection pool per file).
    @_spi(Storage) public let linkStore: SQLitePlaylistLinkStore

    /// The snapshot the app's extensions read (a widget, a Live Activity), in the data folder beside
    /// the databases (the App Group container's, with `appGroup`); `nil` with in-memory storage. The
    /// disconnect forgets it with the details; `SpotifyLink.showInExtensions(_:)` writes it.
    public let extensionSnapshot: ExtensionSnapshotFile?

    /// The clock of expiries, waits and polls.
    public var clock: any SpotifyClock { configuration.clock }

    /// Disconnects as Spotify's Developer Policy asks: the sign-in goes, and unless `keepingDetails`
    /// every detail saved from Spotify (names, owners, counts, durations, covers, the picker's list)
    /// goes with it; the app's links stay, naming their playlists. What `SpotifyConnectionModel`'s
    /// disconnect does, for a tool or a server.
    public func disconnect(keepingDetails: Bool = false) async throws {
        try await Self.disconnect(
            session: session, links: links, extensionSnapshot: extensionSnapshot, keepingDetails: keepingDetails)
    }

    /// The one disconnect, which ``disconnect(keepingDetails:)`` and the connection model of
    /// `SpotifyLinkUI` both run: the sign-in goes first, so no refresh starts after it (none gets a
    /// token), then, unless `keepingDetails`, `links` forgets what Spotify said, which also refuses
    /// every answer asked for before it (the forget epoch), in this process or another sharing the
    /// file, and the extensions' snapshot is forgotten the same way (a snapshot gathered before it
    /// is neither written nor shown).
    /// Once begun it runs to its end, also when the caller's task is cancelled (a view that goes
    /// away as the user taps Disconnect): a sign-out without the forget would keep the details of
    /// an account that is no longer connected. `signedOut` hears the session's status change (in
    /// its order of changes), on the caller's actor; a forget that fails leaves the sign-out done.
    package static func disconnect(
        session: SpotifySession, links: LinkedPlaylists?, extensionSnapshot: ExtensionSnapshotFile? = nil,
        keepingDetails: Bool, isolation: isolated (any Actor)? = #isolation,
        signedOut: (SpotifySession.StatusChange) -> Void = { _ in }
    ) async throws {
        // An unstructured task: the caller's cancellation does not reach it, and awaiting its
        // value waits for its end.
        let (change, forgetting) = try await Task {
            () async throws -> (SpotifySession.StatusChange, Result<Void, any Error>) in
            let change = try await session.signedOut()
            guard !keepingDetails else { return (change, .success(())) }
            do {
                try await links?.forgetSpotifyDetails()
                try extensionSnapshot?.forget()
                return (change, .success(()))
            } catch {
                // The snapshot is forgotten also when the links' forget failed: no detail stays for
                // the extensions.
                try? extensionSnapshot?.forget()
                return (change, .failure(error))
            }
        }.value
        signedOut(change)
        try forgetting.get()
    }

    /// The parts `configuration` describes.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        let endpoint = TokenEndpoint(
            server: configuration.server, clientID: configuration.clientID, transport: configuration.transport,
            clock: configuration.clock)
        let folder = configuration.folder
        let onDisk = configuration.storage == .folder
        let install = InstallMarker(folder: folder, protection: configuration.protection)
        // A sign-in shared with extensions through an access group but without the App Group's
        // folder is left alone: each process has a folder of its own then, and a widget's first
        // launch must not sign the app out.
        let sharedSignInOnly =
            configuration.appGroup == nil && (configuration.tokenStore as? KeychainTokenStore)?.accessGroup != nil
        // The marker is left whenever a database opens; only the sign-out depends on the access group.
        let marksInstall = onDisk && configuration.startsSignedOutAfterReinstall
        session = SpotifySession(
            endpoint: endpoint, store: configuration.tokenStore, clock: configuration.clock,
            logger: configuration.logger, activity: platformExpiringActivity(),
            isEarlierInstall: marksInstall && !sharedSignInOnly ? install.isNewInstall : nil)
        let key = SpotifyAppKey(issuer: configuration.server.issuer, clientID: configuration.clientID)
        let budget = configuration.limitsBackgroundWork ? configuration.share.dailyBudget : nil
        let beforeOpening: @Sendable () -> Void = { if marksInstall { _ = install.isNewInstall() } }
        ledger =
            onDisk
            ? RequestLedger(
                key: key,
                store: SQLiteRequestLedgerStore(
                    deferring: folder.appendingPathComponent(Self.ledgerFile),
                    configuration: configuration.database, protection: configuration.protection,
                    beforeOpening: beforeOpening),
                dailyBudget: budget,
                mirror: CooldownMirror(besideLedger: folder.appendingPathComponent(Self.ledgerFile)))
            : RequestLedger(key: key, dailyBudget: budget)
        var api = SpotifyClient.Configuration(apiBaseURL: configuration.server.apiBaseURL)
        if let wait = configuration.maxRateLimitWait { api.maxRateLimitWait = wait }
        client = SpotifyClient(
            configuration: api, tokens: session, transport: configuration.transport, clock: configuration.clock,
            logger: configuration.logger, ledger: ledger)
        linkStore = SQLitePlaylistLinkStore(
            deferring: onDisk ? .file(folder.appendingPathComponent(Self.linksFile)) : .inMemory,
            configuration: configuration.database, protection: configuration.protection,
            beforeOpening: beforeOpening, clock: configuration.clock)
        links = LinkedPlaylists(configuration.linkSeam?(linkStore) ?? linkStore)
        extensionSnapshot = onDisk ? ExtensionSnapshotFile(folder: folder) : nil
    }

    /// The link store's file in the data folder: the links, the details saved from Spotify, the
    /// covers (and, for the command line, its session journal).
    public static let linksFile = "links.sqlite"
    /// The request ledger's file in the data folder.
    public static let ledgerFile = "spotify-requests.sqlite"
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
            let new = ![Self.name, SpotifyServices.linksFile, SpotifyServices.ledgerFile].contains {
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
        try? PrivateFiles.createFolder(folder)
        protection.protect(folder)
        _ = manager.createFile(atPath: folder.appendingPathComponent(Self.name).path, contents: Data())
    }
}
