public import Foundation
public import PlaylistLinks
public import SpotifyAuth
public import SpotifyWebAPI

/// Everything an app needs for Spotify, put together once at launch with this platform's defaults,
/// and the models its screens bind to.
///
/// The first launch after the app is installed starts signed out: Keychain items outlive an app's
/// deletion, so a reinstalled app would otherwise find the previous install's sign-in. A marker
/// file in the data folder (removed with the app) tells a new install from a relaunch or an upgrade.
/// A sign-in shared with the app's extensions through a Keychain access group is not touched.
///
/// Make it once, in the app's `@main` App (an app has no top-level code, and a global's initializer
/// cannot throw):
///
/// ```swift
/// @main struct JournalApp: App {
///     @State private var spotify = try! SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
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
        /// The folder of the app's Spotify data (links, covers, request counts): no secret in it.
        public var folder: URL
        /// Where the tokens are kept.
        public var tokenStore: any TokenStore
        /// This device's share of the developer's request quota.
        public var share: QuotaShare
        /// The transport every request uses, shared.
        public var transport: any Transport
        /// The clock of expiries, waits and polls.
        public var clock: any SpotifyClock
        /// How the models' messages are worded.
        public var text: SpotifyText

        /// The platform defaults for `clientID`, answered at `redirectURI`: live Spotify, the
        /// platform's data folder and secret store, the default quota share.
        ///
        /// - Parameters:
        ///   - clientID: the app's client ID.
        ///   - redirectURI: the registered redirect URI.
        ///   - server: the accounts service; `.live` unless testing against an emulator.
        ///   - name: the data folder's name, inside Application Support or `$XDG_DATA_HOME`; by default
        ///     ``defaultFolderName``.
        public init(
            clientID: String, redirectURI: String, server: AuthorizationServer = .live,
            name: String = Configuration.defaultFolderName
        ) {
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.server = server
            self.folder = Self.dataFolder(named: name)
            self.tokenStore = Self.platformTokenStore()
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
                let base =
                    environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
                    ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
            #endif
            return base.appendingPathComponent(name, isDirectory: true)
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
    /// - Throws: `PlaylistLinksError` when the data folder's databases cannot be opened.
    public convenience init(clientID: String, redirectURI: String) throws {
        try self.init(Configuration(clientID: clientID, redirectURI: redirectURI))
    }

    /// Spotify for the app `configuration` describes.
    /// - Throws: `PlaylistLinksError` when the data folder's databases cannot be opened.
    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        let endpoint = TokenEndpoint(
            server: configuration.server, clientID: configuration.clientID, transport: configuration.transport,
            clock: configuration.clock)
        let folder = configuration.folder
        // A new install: the Keychain still holds the sign-in of an install that was deleted. A
        // sign-in shared with extensions through an access group is left alone: each process has a
        // folder of its own here, and a widget's first launch must not sign the app out.
        let newInstall = InstallMarker.isNewInstall(folder)
        let sharedSignIn = (configuration.tokenStore as? KeychainTokenStore)?.accessGroup != nil
        session = SpotifySession(
            endpoint: endpoint, store: configuration.tokenStore, clock: configuration.clock, logger: nil,
            activity: platformExpiringActivity(), forgettingPreviousSignIn: newInstall && !sharedSignIn)
        ledger = try RequestLedger(
            key: SpotifyAppKey(issuer: configuration.server.issuer, clientID: configuration.clientID),
            file: folder.appendingPathComponent("spotify-requests.sqlite"), dailyBudget: configuration.share.dailyBudget
        )
        client = SpotifyClient(
            configuration: SpotifyClient.Configuration(apiBaseURL: configuration.server.apiBaseURL), tokens: session,
            transport: configuration.transport, clock: configuration.clock, ledger: ledger)
        links = try SQLitePlaylistLinkStore(
            location: .file(folder.appendingPathComponent("links.sqlite")), clock: configuration.clock)
        if newInstall { InstallMarker.mark(folder) }
        connection = SpotifyConnectionModel(session: session, client: client, redirectURI: configuration.redirectURI)
        text = configuration.text
    }

    /// The card of `record`'s playlist.
    public func card(for record: RecordID) -> PlaylistCardModel {
        PlaylistCardModel(record: record, store: links, connection: connection, coverTransport: configuration.transport)
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
/// folder is shared). Keychain items are not removed with the app: without this, a reinstalled app
/// would find the previous install's sign-in and be connected to that account without asking.
enum InstallMarker {
    static let name = ".spotifylink-installed"

    /// Whether `folder` holds neither the marker nor a database of an earlier version (an upgrade
    /// from a version without the marker is not a new install).
    static func isNewInstall(_ folder: URL) -> Bool {
        let manager = FileManager.default
        return
            !([name, "links.sqlite", "spotify-requests.sqlite"].contains {
                manager.fileExists(atPath: folder.appendingPathComponent($0).path)
            })
    }

    /// Leaves the marker; if it cannot be written, the next launch takes the data folder's
    /// databases for an earlier install's and keeps the sign-in.
    static func mark(_ folder: URL) {
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
    }
}
