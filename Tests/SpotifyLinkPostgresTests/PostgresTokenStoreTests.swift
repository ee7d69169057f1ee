import Foundation
import Logging
import PostgresNIO
import PostgresTestServer
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkPostgres
import SpotifyLinkSupport
import SpotifyTesting
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

extension TestPostgres {
    /// A database of its own, migrated, with two running clients (the second standing for another
    /// process); dropping it stops them.
    static func freshMigratedDatabase() async throws -> (
        client: PostgresClient, other: PostgresClient, drop: @Sendable () -> Void
    ) {
        let (url, drop) = try await freshDatabase(prefix: "spotlink_tokens")
        try await PostgresSchema.migrate(url)
        let logger = Logger(label: "test.postgres")
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        let other = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        let running = [Task { await client.run() }, Task { await other.run() }]
        return (
            client, other,
            {
                for task in running { task.cancel() }
                Task { try await drop() }
            }
        )
    }
}

@Suite(
    "PostgreSQL token store: sealed sign-ins, one per user and app",
    .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
struct PostgresTokenStoreTests {
    typealias Under = TestPostgres
    let clock = VirtualClock()
    let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "server-app")

    /// Tokens no other test uses, long and random, so a dump can be searched for any part of them.
    func tokens() -> StoredTokens {
        StoredTokens(
            accessToken: AccessToken(
                "AT" + UUID().uuidString.replacingOccurrences(of: "-", with: "") + UUID().uuidString),
            refreshToken: RefreshToken(
                "RT" + UUID().uuidString.replacingOccurrences(of: "-", with: "") + UUID().uuidString),
            expiresAt: clock.now.addingTimeInterval(3600), scopes: SpotifyScope.all, signedInAt: clock.now,
            issuer: key.issuer, clientID: key.clientID)
    }

    /// The row's columns as PostgreSQL holds them.
    func row(_ user: String) async throws -> (keyID: String, sealed: Data)? {
        let client = try await Under.shared.value
        let rows = try await client.query(
            "SELECT key_id, sealed FROM spotlink_token WHERE user_key = \(user) AND client_id = \(key.clientID)")
        var found: (String, Data)?
        for try await (id, sealed) in rows.decode((String, Data).self) { found = (id, sealed) }
        return found
    }

    /// A sign-in saved, then the whole database dumped with `pg_dump`: no token, no 8-character
    /// part of one, and no part of the key is anywhere in it.
    @Test func aDumpOfTheDatabaseHoldsNoTokenNorAnyPartOfOne() async throws {
        let secret = Under.newKey()
        let keys = try TokenSealingKeys(parsing: "dump:\(secret)")
        let user = "dump-\(UUID())"
        let store = try await Under.tokenStore(user: user, keys: keys)
        let saved = tokens()
        try await store.save(saved, for: key)

        let dump = try await ChildProcess(try #require(Self.pgDump(), "no pg_dump"), [try #require(Under.url)]).run()
        #expect(dump.status == 0, "\(dump.errors)")
        #expect(dump.output.contains(user), "the dump holds the user's row")
        let secrets = [
            saved.accessToken.unredactedValue, try #require(saved.refreshToken?.unredactedValue), secret,
        ]
        // Every 8-character part, as text and as pg_dump writes bytea (hexadecimal).
        let parts = secrets.flatMap { text in
            let characters = Array(text)
            return (0...(characters.count - 8)).map { String(characters[$0..<$0 + 8]) }
        }
        let output = dump.output
        let leaked = parts.filter { part in
            output.contains(part) || output.contains(part.utf8.map { String(format: "%02x", $0) }.joined())
        }
        #expect(leaked.isEmpty, "the dump holds \(leaked.count) of \(parts.count) parts of the tokens and the key")
        #expect(try await store.load(key) == saved)
    }

    /// The server's own `pg_dump`, else the first one installed.
    static func pgDump() -> URL? {
        var folders = [ProcessInfo.processInfo.environment["SPOTLINK_POSTGRES_BIN"]].compactMap { $0 }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        folders += versions.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" } + ["/usr/bin"]
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent("pg_dump") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Every query carries the user: another user of the same app reads nothing, and removes only
    /// their own sign-in.
    @Test func everyUsersSignInStaysApart() async throws {
        let keys = try TokenSealingKeys(parsing: "k:\(Under.newKey())")
        let alice = try await Under.tokenStore(user: "alice-\(UUID())", keys: keys)
        let bob = try await Under.tokenStore(user: "bob-\(UUID())", keys: keys)
        let hers = tokens()
        try await alice.save(hers, for: key)
        #expect(try await bob.load(key) == nil)
        try await bob.remove(key)
        #expect(try await alice.load(key) == hers)
        let his = tokens()
        try await bob.save(his, for: key)
        #expect(try await alice.load(key) == hers)
        #expect(try await bob.load(key) == his)
    }

    /// Keys rotate: a row sealed under the old key opens with the old key listed second, and its
    /// next save seals it under the new one, which alone then opens it.
    @Test func aRowSealedUnderAnOldKeyIsSealedAgainUnderTheNewOneAtItsNextSave() async throws {
        let old = "old:\(Under.newKey())"
        let new = "new:\(Under.newKey())"
        let user = "rotate-\(UUID())"
        let before = try await Under.tokenStore(user: user, keys: try TokenSealingKeys(parsing: old))
        let saved = tokens()
        try await before.save(saved, for: key)

        let rotated = try await Under.tokenStore(user: user, keys: try TokenSealingKeys(parsing: "\(new)\n\(old)"))
        #expect(try await rotated.load(key) == saved)
        #expect(try await row(user)?.keyID == "old", "a read leaves the row as it was")
        var refreshed = saved
        refreshed.accessToken = AccessToken("AT-refreshed-\(UUID())")
        try await rotated.save(refreshed, for: key)
        #expect(try await row(user)?.keyID == "new")
        let newOnly = try await Under.tokenStore(user: user, keys: try TokenSealingKeys(parsing: new))
        #expect(try await newOnly.load(key) == refreshed)
    }

    /// A key the server was not given, or another key under the row's key ID, is a typed error
    /// that names the fix and shows no key; the sign-in stays, and opens with the right key.
    @Test func aMissingOrWrongKeyIsTypedAndTheSignInIsKept() async throws {
        let right = Under.newKey()
        let user = "keys-\(UUID())"
        let store = try await Under.tokenStore(user: user, keys: try TokenSealingKeys(parsing: "a:\(right)"))
        let saved = tokens()
        try await store.save(saved, for: key)
        let missing = try await Under.tokenStore(user: user, keys: try TokenSealingKeys(parsing: "b:\(Under.newKey())"))
        let wrong = try await Under.tokenStore(user: user, keys: try TokenSealingKeys(parsing: "a:\(Under.newKey())"))
        for (store, says) in [(missing, "was not given"), (wrong, "another key")] {
            let error = try await #require(throws: TokenStoreError.self) { try await store.load(key) }
            #expect(error.code == .misconfigured)
            #expect(error.message.contains(says) && error.message.contains("kept"), "\(error.message)")
            #expect(!error.message.contains(right))
        }
        #expect(try await store.load(key) == saved)
        // A session over the store with the missing key reports the error and keeps its status.
        let session = SpotifySession(
            endpoint: TokenEndpoint(server: .live, clientID: key.clientID), store: missing)
        await #expect(throws: TokenStoreError.self) { try await session.tokens() }
        #expect(await session.status != .needsSignIn(.unreadable))
        #expect(try await store.load(key) == saved)
    }

    /// A row changed outside SpotifyLink, or copied to another user, fails its check: a typed
    /// error naming the row, and nothing is touched.
    @Test func aTamperedRowIsNamedAndNothingIsTouched() async throws {
        let keys = try TokenSealingKeys(parsing: "k:\(Under.newKey())")
        let user = "tamper-\(UUID())"
        let neighbour = "neighbour-\(UUID())"
        let store = try await Under.tokenStore(user: user, keys: keys)
        let next = try await Under.tokenStore(user: neighbour, keys: keys)
        try await store.save(tokens(), for: key)
        let theirs = tokens()
        try await next.save(theirs, for: key)
        let client = try await Under.shared.value
        try await client.query(
            """
            UPDATE spotlink_token SET sealed = set_byte(sealed, 20, (get_byte(sealed, 20) + 1) % 256)
            WHERE user_key = \(user)
            """)
        let changed = try #require(try await row(user))
        let error = try await #require(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(error.code == .tampered)
        #expect(error.message.contains(user) && error.message.contains("spotlink_token"), "\(error.message)")
        #expect(try await row(user)?.sealed == changed.sealed, "the row was left as it was")
        #expect(try await next.load(key) == theirs)

        // The neighbour's row copied over this user's: it does not open here.
        try await client.query(
            """
            UPDATE spotlink_token SET sealed = (SELECT sealed FROM spotlink_token WHERE user_key = \(neighbour)
                AND client_id = \(key.clientID)) WHERE user_key = \(user)
            """)
        let copied = try await #require(throws: TokenStoreError.self) { try await store.load(key) }
        #expect(copied.code == .tampered)
    }

    /// A call PostgreSQL does not answer (the table is locked by another transaction) ends at its
    /// deadline, on the store's clock, with `.unavailable` naming the call; the sign-in is there after.
    @Test func aCallPostgresDoesNotAnswerEndsAtItsDeadline() async throws {
        let keys = try TokenSealingKeys(parsing: "k:\(Under.newKey())")
        let user = "deadline-\(UUID())"
        let deadlines = VirtualClock()
        // A database of its own: the blocker waits for no other test.
        let (client, blocker, drop) = try await Under.freshMigratedDatabase()
        defer { drop() }
        let store = try PostgresTokenStore(
            client: client, user: user, keys: keys, deadline: .seconds(15), lockWait: .seconds(30),
            deadlineClock: deadlines)
        let saved = tokens()
        try await store.save(saved, for: key)
        let released = AsyncStream.makeStream(of: Void.self)
        let locked = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await blocker.withTransaction(logger: Logger(label: "test")) { connection in
                try await connection.query(
                    "LOCK TABLE spotlink_token IN ACCESS EXCLUSIVE MODE", logger: Logger(label: "test"))
                locked.continuation.yield()
                for await _ in released.stream { break }
            }
        }
        _ = try await nextElement(of: locked.stream, "the blocker to lock the table")
        let load = Task { try await store.load(key) }
        try await deadlines.waitForSleepers(1)
        deadlines.advance(by: .seconds(15))
        let error = try await #require(throws: TokenStoreError.self) { try await load.value }
        #expect(error.code == .unavailable)
        #expect(
            error.message.contains("read a sign-in within 15 s") && error.message.contains("kept"), "\(error.message)")
        released.continuation.yield()
        try await holder.value
        #expect(try await store.load(key) == saved)
    }
}

@Suite(
    "PostgreSQL token store: one refresh across server processes", .serialized,
    .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
struct PostgresCrossProcessRefreshTests {
    /// Four server processes (real ones), 50 callers each, one user whose access token Spotify
    /// just refused: exactly one token request leaves, every caller gets the new token, and the
    /// sign-in lives on. With rotation on, a second refresh would have revoked it.
    @Test(arguments: [EmulatorConfiguration.RefreshRotation.rotate, .none])
    func fourProcessesOfFiftyCallersSendOneRefresh(rotation: EmulatorConfiguration.RefreshRotation) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-refresh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("keys")
        let keyText = "k1:\(TestPostgres.newKey())\n"
        try Data(keyText.utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let keys = try TokenSealingKeys(contentsOf: keyFile)
        let database = try #require(TestPostgres.url)

        var configuration = EmulatorConfiguration()
        configuration.refreshRotation = rotation
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let user = "refresh-\(UUID())"
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let store = try await TestPostgres.tokenStore(user: user, keys: keys)
            let app = SpotifySession(endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"), store: store)
            try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: app) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            let before = await emulator.requestCount("POST /api/token")
            let children = try (0..<4).map { _ in
                try LineChild(
                    "PostgresRefreshChild",
                    [database, emulator.baseURL.absoluteString, user, keyFile.path, "50"])
            }
            for child in children { try await child.waitFor("ready") }
            for child in children { child.send("go") }
            for child in children {
                #expect(try await child.exitStatus() == 0, "\(child.printed)")
                #expect(child.printed.contains("refreshed 50"), "\(child.printed)")
            }
            #expect(await emulator.requestCount("POST /api/token") - before == 1)

            // The sign-in lives on: another process refreshes what the database holds, and calls Spotify.
            let later = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"),
                store: try await TestPostgres.tokenStore(user: user, keys: keys))
            let stored = try #require(try await later.tokens())
            _ = try await later.refreshedAccessToken(replacing: stored.accessToken)
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: later, transport: PatientTransport())
            #expect(try await client.currentUser().id == "emu-user")
        }
    }
}

@Suite("Sealing keys: read from the environment or a file, never shown")
struct TokenSealingKeysTests {
    static let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()

    @Test func theFirstKeySealsAndTheOthersOpen() throws {
        let keys = try TokenSealingKeys(parsing: "new:\(Self.key),\n# rotated 2026-05\nold:\(Self.key)")
        #expect(keys.currentID == "new")
        #expect(keys.ids == ["new", "old"])
        #expect(!"\(keys)".contains(Self.key) && "\(keys)".contains("old"))
        let fromEnvironment = try TokenSealingKeys.fromEnvironment(in: ["SPOTLINK_TOKEN_KEYS": "a:\(Self.key)"])
        #expect(fromEnvironment.currentID == "a")
    }

    /// Each unusable entry is named by its place and ID, with what to do, and never shown.
    @Test(arguments: [
        ("", "holds no key"), ("nokey", "is not ID:KEY"), ("bad id:\(key)", "letters, digits"),
        ("a:\(key),a:\(key)", "uses the ID “a” again"), ("a:c2hvcnQ=", "is not 32 bytes"),
    ])
    func anUnusableEntryIsNamedWithTheFix(text: String, says: String) throws {
        let error = try #require(throws: TokenStoreError.self) { try TokenSealingKeys(parsing: text, source: "TEST") }
        #expect(error.code == .misconfigured)
        #expect(error.message.contains(says), "\(error.message)")
        #expect(!error.message.contains(Self.key) && !error.message.contains("c2hvcnQ="))
        let unset = try #require(throws: TokenStoreError.self) { try TokenSealingKeys.fromEnvironment(in: [:]) }
        #expect(unset.message.contains("SPOTLINK_TOKEN_KEYS is not set"))
    }

    /// A key file others can read is refused until it is 0600.
    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("k:\(Self.key)\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let error = try #require(throws: TokenStoreError.self) { try TokenSealingKeys(contentsOf: file) }
        #expect(error.code == .insecure && error.message.contains("chmod 600"), "\(error.message)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try TokenSealingKeys(contentsOf: file).currentID == "k")
        let missing = try #require(throws: TokenStoreError.self) {
            try TokenSealingKeys(contentsOf: file.appendingPathExtension("absent"))
        }
        #expect(missing.code == .io)
    }
}

@Suite("PostgreSQL deadlines: the default and its environment variable")
struct PostgresDeadlineDefaultTests {
    @Test func theEnvironmentSetsTheDefaultInWholeSeconds() {
        #expect(PostgresDeadline.fromEnvironment(["SPOTLINK_POSTGRES_DEADLINE": "120"]) == .seconds(120))
        for text in ["", "0", "-5", "1.5", "soon"] {
            #expect(PostgresDeadline.fromEnvironment(["SPOTLINK_POSTGRES_DEADLINE": text]) == nil, "\(text)")
        }
        #expect(PostgresDeadline.fromEnvironment([:]) == nil)
    }
}
