import ArgumentParser
import Foundation
import Logging
@_spi(Storage) import PlaylistLinks
import SpotLinkSystem
@_spi(Storage) import SpotifyAuth
@_spi(Storage) import SpotifyLinkSQLite
@_spi(Storage) import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyWebAPI
import Synchronization

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Where spotlink keeps its data (default: XDG data and config folders).")
    var dataDir: String?
    @Option(help: "Use a Spotify emulator at this URL instead of Spotify (client ID defaults to spotlink-demo).")
    var emulator: String?
    @Option(name: .customLong("client-id"), help: "The Spotify app's client ID (or SPOTIFY_CLIENT_ID).")
    var clientID: String?
    @Flag(help: "Print JSON instead of text.")
    var json = false
    @Flag(help: "Log requests to stderr (tokens are never logged).")
    var verbose = false
    @Option(
        help: """
            Seconds a command that talks to Spotify may take in all, 1 to 86400 (default:             SPOTLINK_COMMAND_DEADLINE, else 120).
            """)
    var deadline: Int?

    /// The emulator's address, checked before any command runs.
    var emulatorURL: URL? {
        emulator.flatMap(URL.init(string:)).flatMap { url in
            (url.scheme == "http" || url.scheme == "https") && url.host != nil ? url : nil
        }
    }

    func validate() throws {
        if emulator != nil, emulatorURL == nil {
            throw ValidationError("--emulator needs a URL such as http://127.0.0.1:8080.")
        }
        if let deadline, !(1...Self.longestDeadline).contains(deadline) {
            throw ValidationError("--deadline takes seconds from 1 to \(Self.longestDeadline), as 120")
        }
    }
}

/// The token stores a user can choose.
enum StoreChoice: String, ExpressibleByArgument, CaseIterable, Codable {
    case keychain, secretService = "secret-service", file, memory
    /// A server's PostgreSQL database, sealed (`SPOTLINK_POSTGRES_URL`, `SPOTLINK_TOKEN_KEYS`).
    case postgres

    /// The platform's secret store: the Keychain on Apple systems, the Secret Service elsewhere.
    static var platformDefault: StoreChoice {
        #if canImport(Security)
            .keychain
        #else
            .secretService
        #endif
    }
}

/// The system clock moved by a fixed offset.
struct OffsetClock: SpotifyClock {
    var offset: TimeInterval
    var now: Date { Date().addingTimeInterval(offset) }
    func sleep(for duration: Duration) async throws { try await SystemClock().sleep(for: duration) }
}

/// Everything a command needs, built from the global options and the environment.
struct Context {
    let options: GlobalOptions
    /// The command's one `SpotifyServices`, once built.
    private let root = Root()
    let dataDirectory: URL
    let configDirectory: URL
    let server: AuthorizationServer
    let clientID: String

    init(_ options: GlobalOptions, requireClientID: Bool = true) throws {
        self.options = options
        let environment = ProcessInfo.processInfo.environment
        if let dataDir = options.dataDir {
            dataDirectory = URL(fileURLWithPath: dataDir)
            configDirectory = dataDirectory.appendingPathComponent("config")
        } else {
            (dataDirectory, configDirectory) = SpotLinkFolders.standard(environment)
        }
        try options.validate()
        // The clock offset is a test hook of emulator runs (a later process "hours later"): against
        // Spotify it would send while every other process honours a cooldown, so it is refused.
        if options.emulator == nil, Self.clockOffset(environment) != 0 {
            throw CLIFailure(
                "SPOTLINK_CLOCK_OFFSET_SECONDS moves spotlink's clock for tests against an emulator (--emulator). "
                    + "Against Spotify it would send requests during a quota cooldown, so it is refused: unset it.",
                exitCode: 2)
        }
        server = options.emulatorURL.map { .emulator(url: $0) } ?? .live
        let id =
            options.clientID ?? environment["SPOTIFY_CLIENT_ID"] ?? (options.emulator != nil ? "spotlink-demo" : nil)
        guard let id = id ?? (requireClientID ? nil : ""), !id.isEmpty || !requireClientID else {
            throw CLIFailure(
                "No Spotify client ID: pass --client-id or set SPOTIFY_CLIENT_ID (create an app in Spotify's developer dashboard).",
                exitCode: 2)
        }
        clientID = id
        try moveEarlierDatabase()
    }

    // MARK: - Tokens

    var configFile: URL { configDirectory.appendingPathComponent("settings.json") }

    struct Settings: Codable { var store: StoreChoice }

    /// The store chosen at login (the file store before any login: nothing is signed in anywhere).
    var storeChoice: StoreChoice { rememberedStore ?? .file }

    /// The store `login` uses when not told: the last login's, else the platform's secret store.
    /// `doctor` checks this one, so the two agree.
    var loginStoreChoice: StoreChoice { rememberedStore ?? .platformDefault }

    private var rememberedStore: StoreChoice? {
        (try? JSONDecoder().decode(Settings.self, from: Data(contentsOf: configFile)))?.store
    }

    func remember(store: StoreChoice) throws {
        try PrivateFiles.createFolder(configDirectory)
        try Context.writePrivately(JSONEncoder().encode(Settings(store: store)), to: configFile)
    }

    /// Writes `data` atomically to a file only its owner may read (settings, exports): created 0600,
    /// never wider even for a moment or when the write is killed, then renamed into place.
    static func writePrivately(_ data: Data, to url: URL) throws {
        try PrivateFiles.replaceFile(at: url, with: data)
    }

    func tokenStore(_ choice: StoreChoice? = nil) throws -> any TokenStore {
        switch choice ?? storeChoice {
        case .file: return FileTokenStore(directory: configDirectory.appendingPathComponent("tokens"))
        case .memory: return MemoryTokenStore()
        case .postgres:
            #if PostgreSQL
                return try ServerTokenStore(environment: ProcessInfo.processInfo.environment, logger: logger)
            #else
                throw CLIFailure(
                    "This spotlink was built without PostgreSQL, so --store postgres is not available. Build it with "
                        + "`swift build --traits PostgreSQL` (or `swift run --traits PostgreSQL spotlink …`), "
                        + "or choose another --store.", exitCode: 2)
            #endif
        case .secretService:
            #if os(Linux) || os(FreeBSD)
                return SecretServiceTokenStore(lockDirectory: lockDirectory)
            #else
                throw CLIFailure(
                    "The Secret Service store exists on Linux desktops; on this system use --store keychain.",
                    exitCode: 2)
            #endif
        case .keychain:
            #if canImport(Security)
                // A command-line tool is not signed with a Keychain entitlement: the login keychain.
                return KeychainTokenStore(lockDirectory: lockDirectory, useDataProtectionKeychain: false)
            #else
                throw CLIFailure(
                    "The Keychain store exists only on Apple platforms; on Linux use --store secret-service (the desktop keyring) or --store file.",
                    exitCode: 2)
            #endif
        }
    }

    /// Lock files that serialize refreshes between spotlink processes (they hold no secret).
    var lockDirectory: URL { configDirectory.appendingPathComponent("locks") }

    var logger: Logger? {
        guard options.verbose else { return nil }
        var logger = Logger(label: "spotlink") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .debug
        return logger
    }

    /// The wall clock, moved by `SPOTLINK_CLOCK_OFFSET_SECONDS` when set: the tests of the
    /// cross-process cooldown run a later process "hours later" with it, against an emulator only
    /// (``init(_:requireClientID:)`` refuses it otherwise).
    static var wallClock: any SpotifyClock {
        let offset = clockOffset(ProcessInfo.processInfo.environment)
        return offset == 0 ? SystemClock() : OffsetClock(offset: offset)
    }

    private static func clockOffset(_ environment: [String: String]) -> Double {
        environment["SPOTLINK_CLOCK_OFFSET_SECONDS"].flatMap(Double.init) ?? 0
    }

    /// Spotify's parts for this data folder, built as an app builds them (`SpotifyServices`, the same
    /// file names), with the command line's choices: the token store chosen at login, its own
    /// folder, request logs with `--verbose`, rate-limit waits of at most 30 s, no background
    /// budget (a person asked for every request), and a sign-in kept when the data folder is new
    /// (the tokens live in the config folder, not beside the data).
    ///
    /// One root per command, as an app has one: the first call builds it, with `clock` and `store`
    /// (by default the store chosen at login, made at its first use, so that a command working on
    /// the links alone never reaches the keyring or the database of sign-ins); every later call,
    /// ``links()``, ``linkStore()`` and ``openLedger()`` return the same parts, so each data file
    /// has one connection pool in the process.
    func services(clock: any SpotifyClock = Context.wallClock, store: (any TokenStore)? = nil) throws
        -> SpotifyServices
    {
        try root.services {
            var configuration = SpotifyServices.Configuration(
                clientID: clientID, redirectURI: "http://127.0.0.1/callback", server: server, appGroup: nil,
                environment: [:], tokenStore: store ?? ChosenTokenStore(self))
            configuration.folder = dataDirectory
            configuration.clock = clock
            configuration.logger = logger
            configuration.maxRateLimitWait = .seconds(30)
            configuration.startsSignedOutAfterReinstall = false
            configuration.limitsBackgroundWork = false
            return SpotifyServices(configuration)
        }
    }

    /// The requests file every spotlink process of this data folder shares: a quota or rate limit
    /// one process learns stops the others, and `status` reports what was spent.
    func openLedger() throws -> RequestLedger {
        try services().ledger
    }

    var ledgerURL: URL { dataDirectory.appendingPathComponent(SpotifyServices.ledgerFile) }

    // MARK: - Data

    var databaseURL: URL { dataDirectory.appendingPathComponent(SpotifyServices.linksFile) }

    /// The links of this data folder; the journal keeps its sessions in the same file. They need
    /// no sign-in.
    func links() throws -> LinkedPlaylists {
        try services().links
    }

    /// The SQLite store behind ``links()``: its writer (the journal's tables) and its checks.
    func linkStore() throws -> SQLitePlaylistLinkStore {
        try services().linkStore
    }

    /// Versions before 0.2 kept the links and the journal in `spotlink.sqlite`; the file now has the
    /// app's name, `links.sqlite`. Moved (with its WAL and shared-memory files) by the first command
    /// that runs on the folder, before anything opens it.
    private func moveEarlierDatabase() throws {
        let manager = FileManager.default
        let earlier = dataDirectory.appendingPathComponent("spotlink.sqlite")
        guard manager.fileExists(atPath: earlier.path), !manager.fileExists(atPath: databaseURL.path) else { return }
        for suffix in ["-wal", "-shm"] where manager.fileExists(atPath: earlier.path + suffix) {
            try manager.moveItem(atPath: earlier.path + suffix, toPath: databaseURL.path + suffix)
        }
        try manager.moveItem(at: earlier, to: databaseURL)
    }

    /// The session journal of this data folder.
    func journal() throws -> Journal {
        try Journal(store: linkStore())
    }
}

/// The command's one `SpotifyServices`, built at its first use.
private final class Root: Sendable {
    private let built = Lock<SpotifyServices?>(nil)

    /// The root, built by `make` when there is none yet.
    func services(_ make: () throws -> SpotifyServices) throws -> SpotifyServices {
        try built.withLock { built in
            if let built { return built }
            let made = try make()
            built = made
            return made
        }
    }
}

/// The token store chosen at login, made at its first use: the keyring is not asked, nor a
/// server's database reached, by a command that never reads the sign-in.
private final class ChosenTokenStore: TokenStore {
    private let made: Lock<Result<any TokenStore, any Error>?>
    private let make: @Sendable () throws -> any TokenStore
    let kind: TokenStoreKind

    init(_ context: Context) {
        made = Lock(nil)
        make = { [context] in try context.tokenStore() }
        kind =
            switch context.storeChoice {
            case .file: .file(context.configDirectory.appendingPathComponent("tokens"))
            case .memory: .memory
            case .keychain: .keychain
            case .secretService: .secretService
            case .postgres: .database("PostgreSQL database (SPOTLINK_POSTGRES_URL)")
            }
    }

    private func store() throws -> any TokenStore {
        try made.withLock { made in
            if made == nil { made = Result { try make() } }
            return try made!.get()
        }
    }

    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { try await store().load(key) }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws { try await store().save(tokens, for: key) }
    func remove(_ key: SpotifyAppKey) async throws { try await store().remove(key) }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await store().acquireLock(key) }
}
