import Dispatch
import Foundation
import Logging
@_spi(Storage) import PlaylistLinks
import PostgresNIO
import PostgresTestServer
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkPostgres
import SpotifyTesting
import SpotifyWebAPI
import Testing

extension TestPostgres {
    /// Why a suite that needs the server is skipped in a run without one.
    static let skipReason: Comment = "no PostgreSQL: run under scripts/with-postgres.sh"
}

private let focus = SpotifyID(unchecked: "37i9dQZF1DXcBWIGoYBM5M")
private let deepWork = SpotifyID(unchecked: "4rOoJ6Egrf8K2IrywzwOMk")
private let meJSON =
    #"{"id":"tester","display_name":"Test User","images":null,"uri":"spotify:user:tester","account_id":"acc-1"}"#

@Suite("Postgres: the server product", .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
struct PostgresStoreTests {
    /// One database, many users: a store reads and changes its own user's rows only.
    @Test func everyUsersLinksStayApart() async throws {
        let clock = VirtualClock()
        let alice = try await TestPostgres.linkStore(user: "alice-\(UUID())", clock: clock)
        let bob = try await TestPostgres.linkStore(user: "bob-\(UUID())", clock: clock)
        let session = RecordID(namespace: "session", id: "1")
        var named = PlaylistMetadata(id: focus, availability: .available)
        named.name = "Alice's Focus"
        try await alice.saveMetadata(named)
        try await alice.linked.link(session, to: focus)
        try await alice.saveCover(Data([1, 2, 3]), for: focus)
        try await alice.replaceLibrary([LibraryPlaylist(id: focus, name: "Alice's Focus")])

        #expect(try await bob.link(for: session) == nil)
        #expect(try await bob.links().isEmpty)
        #expect(try await bob.metadata(for: focus) == nil)
        #expect(try await bob.cover(for: focus) == nil)
        #expect(try await bob.library().isEmpty)
        #expect(try await bob.card(for: session) == nil)
        // Bob's changes to the same record and playlist ID land in his rows alone.
        #expect(try await bob.removeLink(for: session) == nil)
        try await bob.linked.link(session, to: deepWork)
        var his = PlaylistMetadata(id: focus, availability: .available)
        his.name = "Bob's"
        try await bob.saveMetadata(his)
        try await bob.replaceLibrary([])

        #expect(try await alice.link(for: session)?.playlist == focus)
        #expect(try await alice.metadata(for: focus)?.name == "Alice's Focus")
        #expect(try await alice.card(for: session)?.cover == Data([1, 2, 3]))
        #expect(try await alice.library().map(\.name) == ["Alice's Focus"])
        #expect(try await bob.link(for: session)?.playlist == deepWork)
    }

    /// The forget epoch is each user's: one user's disconnect refuses that user's answers in
    /// flight, on any store value of the user (another server process), and no one else's.
    @Test func aForgetRefusesItsOwnUsersAnswersInFlightAndNoOneElses() async throws {
        let clock = VirtualClock()
        let alice = "alice-\(UUID())"
        let aliceHere = try await TestPostgres.linkStore(user: alice, clock: clock)
        let aliceElsewhere = try await TestPostgres.linkStore(user: alice, clock: clock)
        let bob = try await TestPostgres.linkStore(user: "bob-\(UUID())", clock: clock)
        var details = PlaylistMetadata(id: focus, availability: .available)
        details.name = "Focus"
        let named = details
        let aliceRead = try await aliceHere.forgetEpoch()
        let bobRead = try await bob.forgetEpoch()
        try await aliceElsewhere.linked.forgetSpotifyDetails()
        #expect(try await bob.linked.edit(focus, ifEpoch: bobRead) { _ in named }, "Bob's answer was refused")
        #expect(try await !aliceHere.linked.edit(focus, ifEpoch: aliceRead) { _ in named })
        #expect(try await aliceHere.metadata(for: focus) == nil)
        #expect(try await bob.forgetEpoch() == bobRead)
        #expect(try await aliceHere.forgetEpoch() > aliceRead)
    }

    /// A quota cooldown one process learns stops another that shares the database: no request
    /// leaves until it ends.
    /// A disconnect forgets: after it, no row of the user's tables holds a name, an owner or a
    /// cover byte (read as text, every column), and another user's rows are untouched.
    @Test func forgettingLeavesNoDetailInTheUsersRows() async throws {
        let clock = VirtualClock()
        let user = "forget-\(UUID())"
        let other = "keep-\(UUID())"
        let store = try await TestPostgres.linkStore(user: user, clock: clock)
        let neighbour = try await TestPostgres.linkStore(user: other, clock: clock)
        for each in [store, neighbour] {
            var named = PlaylistMetadata(id: focus, availability: .available)
            named.name = "SENTINEL_NAME"
            named.ownerName = "SENTINEL_OWNER"
            try await each.saveMetadata(named)
            try await each.linked.link(RecordID(namespace: "session", id: "1"), to: focus)
            try await each.saveCover(Data("SENTINEL_COVER".utf8), for: focus)
            try await each.replaceLibrary([LibraryPlaylist(id: deepWork, name: "SENTINEL_LIBRARY")])
        }
        try await store.forgetSpotifyDetails()
        let client = try await TestPostgres.shared.value
        func rows(of owner: String) async throws -> String {
            var text = ""
            for table in ["spotlink_playlist", "spotlink_link", "spotlink_cover", "spotlink_library"] {
                let result = try await client.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT t::text FROM \(table) t WHERE user_key = $1",
                        binds: {
                            var binds = PostgresBindings()
                            binds.append(owner)
                            return binds
                        }()))
                for try await (row) in result.decode(String.self) { text += row + "\n" }
            }
            return text
        }
        let forgotten = try await rows(of: user)
        #expect(forgotten.contains(focus.rawValue), "the link stays")
        for sentinel in ["SENTINEL_NAME", "SENTINEL_OWNER", "SENTINEL_LIBRARY", "53454e54494e454c5f434f564552"] {
            #expect(!forgotten.contains(sentinel), "\(sentinel) is still in the user's rows")
        }
        let kept = try await rows(of: other)
        #expect(kept.contains("SENTINEL_NAME") && kept.contains("SENTINEL_LIBRARY"))
        #expect(kept.contains("53454e54494e454c5f434f564552"), "the other user's cover bytes (hex)")
    }

    @Test func aCooldownOneProcessLearnsStopsEveryOther() async throws {
        _ = try await TestPostgres.shared.value
        let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "app-\(UUID())")
        let clock = VirtualClock(mode: .manual)
        let quota = #"{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}"#
        let transport = ScriptedTransport([.json(quota, status: 429, headers: ["Retry-After": "600"]), .json(meJSON)])
        func client() throws -> SpotifyClient {
            SpotifyClient(
                configuration: .live, tokens: StaticAccessTokenProvider(AccessToken("token")), transport: transport,
                clock: clock, ledger: RequestLedger(key: key, postgres: try TestPostgres.client()))
        }
        let first = try client()
        let second = try client()
        await #expect(throws: SpotifyAPIError.self) { try await first.currentUser() }
        let refused = try await #require(throws: SpotifyAPIError.self) { try await second.currentUser() }
        #expect(refused.code == .quotaExceeded)
        #expect(transport.requests.count == 1)
        clock.advance(by: .seconds(600))
        #expect(try await second.currentUser().id == "tester")
        #expect(transport.requests.count == 2)
        // Both counted, in one place.
        #expect(try await second.requestUsage().last24Hours == 2)
    }

    /// Four server-like processes share one database: once one of them learned a quota cooldown,
    /// none of them sends a request while it lasts.
    @Test func fourProcessesSendNothingDuringACooldownOneOfThemLearned() async throws {
        let url = try #require(TestPostgres.url)
        _ = try await TestPostgres.shared.value
        try await withEmulator { emulator in
            let token = await emulator.issueAccessToken()
            let base = emulator.baseURL.absoluteString
            let app = "app-\(UUID())"
            await emulator.control("faults", ["kind": "429-quota", "retry_after": "43200"])
            #expect(try await runLedgerChildren([[url, base, token, app, "1"]]) == ["sent 0 quota 1 budget 0 other 0"])
            let before = await emulator.totalRequests(prefix: "GET /v1/")
            let four = try await runLedgerChildren(Array(repeating: [url, base, token, app, "5"], count: 4))
            #expect(four == Array(repeating: "sent 0 quota 5 budget 0 other 0", count: 4))
            #expect(await emulator.totalRequests(prefix: "GET /v1/") - before == 0)
            // Another app of the same database is not held by this app's cooldown.
            #expect(
                try await runLedgerChildren([[url, base, token, "other-\(app)", "1"]]) == [
                    "sent 1 quota 0 budget 0 other 0"
                ])
        }
    }

    /// Four server-like processes with one daily budget of twelve, each trying ten background
    /// requests at once: together they send exactly twelve, and the emulator sees twelve.
    @Test func fourProcessesTogetherNeverPassTheDailyBudget() async throws {
        let url = try #require(TestPostgres.url)
        _ = try await TestPostgres.shared.value
        try await withEmulator { emulator in
            let token = await emulator.issueAccessToken()
            let base = emulator.baseURL.absoluteString
            let app = "app-\(UUID())"
            let before = await emulator.totalRequests(prefix: "GET /v1/")
            let four = try await runLedgerChildren(Array(repeating: [url, base, token, app, "10", "12"], count: 4))
            let counts = four.map { line in
                line.split(separator: " ").enumerated().filter { $0.offset.isMultiple(of: 2) == false }.map {
                    Int($0.element) ?? -1
                }
            }
            #expect(counts.map { $0[0] }.reduce(0, +) == 12, "\(four)")
            #expect(counts.map { $0[2] }.reduce(0, +) == 28, "\(four)")
            #expect(counts.allSatisfy { $0[1] == 0 && $0[3] == 0 }, "\(four)")
            #expect(await emulator.totalRequests(prefix: "GET /v1/") - before == 12)
        }
    }

    /// The server crashes and restarts (`pg_ctl restart -m immediate`) while a link save and a
    /// request count are each inside their transaction, held there by a lock: afterwards neither
    /// is half written (the save's playlist row went with it, the count is not there), what was
    /// saved before is, and the same client saves and counts again. A cluster of its own (a second
    /// `scripts/with-postgres.sh`), so no other test sees the restart. Both interrupted calls end,
    /// by their deadline when PostgresNIO does not end them.
    @Test(.timeLimit(.minutes(2))) func aServerRestartMidTransactionLeavesNothingHalfWritten() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let child = try await ChildProcess(
            root.appendingPathComponent("scripts/with-postgres.sh"),
            [builtExecutable(named: "PostgresRestartChild").path]
        ).run()
        #expect(child.status == 0, "\(child.errors.suffix(2000))")
        let said = Dictionary(
            child.output.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { $1 })
        #expect(said["blocked"] == "2", "both writes were inside their transactions: \(child.output)")
        #expect(said["links"] == "s1")
        #expect(said["playlist-rows"] == "1")
        #expect(said["ledger-entries"] == "1")
        #expect(said["after-restart"] == "ok")
        // Both interrupted calls end, with the store's error: PostgresNIO 1.33.2 often never ends
        // them by itself (the child said `hung` before the stores had deadlines).
        #expect(said["link-save"] == "failed-database", "\(child.output)")
        #expect(said["ledger-count"] == "failed-database", "\(child.output)")
    }

    /// A database written by a newer SpotifyLink is refused, with the fix, and left as it was.
    @Test func aNewerSchemaIsRefusedWithTheFix() async throws {
        let (url, drop) = try await TestPostgres.freshDatabase()
        let client = PostgresClient(
            configuration: try PostgresURL.configuration(url), backgroundLogger: Logger(label: "test.postgres"))
        let running = Task { await client.run() }
        do {
            try await PostgresSchema.migrate(url)
            try await PostgresSchema.migrate(url)
            try await client.query("UPDATE spotlink_schema SET version = 99")
            let error = try await #require(throws: PlaylistLinksError.self) { try await PostgresSchema.migrate(url) }
            #expect(error.code == .database)
            #expect(error.message.contains("schema version 99") && error.message.contains("Update this server"))
            var versions: [Int] = []
            for try await (version) in try await client.query("SELECT version FROM spotlink_schema").decode(Int.self) {
                versions.append(version)
            }
            #expect(versions == [99])
        } catch {
            running.cancel()
            try await drop()
            throw error
        }
        running.cancel()
        try await drop()
    }

    /// A server that cannot be reached at start-up fails the migration at once (not after the
    /// pool's minute of retries), naming the URL without its password and what to check; so does
    /// a database that does not exist.
    @Test func anUnreachableServerIsNamedWithoutItsPassword() async throws {
        let refused = try await #require(throws: PlaylistLinksError.self) {
            try await PostgresSchema.migrate("postgres://spotify:hunter2@127.0.0.1:1/links")
        }
        #expect(refused.code == .database)
        #expect(refused.message.contains("postgres://spotify:***@127.0.0.1:1/links"), "\(refused.message)")
        #expect(refused.message.contains("the connection was refused") && refused.message.contains("Check that"))
        #expect(!refused.message.contains("hunter2") && !"\(refused)".contains("hunter2"))

        let server = try #require(TestPostgres.url)
        var components = try #require(URLComponents(string: server))
        components.path = "/no_such_database"
        let missing = try #require(components.string)
        let absent = try await #require(throws: PlaylistLinksError.self) { try await PostgresSchema.migrate(missing) }
        #expect(absent.message.contains("the server said") && absent.message.contains("no_such_database"))
    }

    /// Every call of the link store and the ledger has a deadline: with their tables locked by
    /// another transaction, a read, a save, a count and a cooldown read each end when the store's
    /// clock passes it, with `.database` naming the call and what to check; once the tables are
    /// free, the same stores work. A database of its own: the blocker waits for no other test.
    @Test func everyCallPostgresDoesNotAnswerEndsAtItsDeadline() async throws {
        let (url, drop) = try await TestPostgres.freshDatabase()
        try await PostgresSchema.migrate(url)
        let logger = Logger(label: "test.postgres")
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        let blocker = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        let running = [Task { await client.run() }, Task { await blocker.run() }]
        defer {
            for task in running { task.cancel() }
            Task { try await drop() }
        }
        let deadlines = VirtualClock()
        let links = try PostgresPlaylistLinkStore(
            client: client, user: "deadline-\(UUID())", clock: VirtualClock(), deadline: .seconds(15),
            deadlineClock: deadlines)
        let ledger = PostgresRequestLedgerStore(
            client: client, logger: Logger(label: "test"), deadline: .seconds(15), deadlineClock: deadlines)
        let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "deadline-\(UUID())")
        let entry = LedgerEntry(sentAt: Date(), route: "GET /me", status: nil, background: false)

        let locked = AsyncStream.makeStream(of: Void.self)
        let released = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await blocker.withTransaction(logger: Logger(label: "test")) { connection in
                try await connection.query(
                    "LOCK TABLE spotlink_link, spotlink_playlist, spotlink_request, spotlink_cooldown IN ACCESS EXCLUSIVE MODE",
                    logger: Logger(label: "test"))
                locked.continuation.yield()
                for await _ in released.stream { break }
            }
        }
        _ = try await nextElement(of: locked.stream, "the blocker to lock the tables")
        let calls: [(String, Task<Void, any Error>)] = [
            ("read links", Task { _ = try await links.links() }),
            ("save a link", Task { try await links.linked.link(RecordID(namespace: "session", id: "1"), to: focus) }),
            (
                "count a request",
                Task { _ = try await ledger.reserve(entry, for: key, limit: 10, windowStart: .distantPast) }
            ),
            ("read the cooldown", Task { _ = try await ledger.cooldown(for: key) }),
        ]
        try await deadlines.waitForSleepers(calls.count)
        deadlines.advance(by: .seconds(15))
        for (doing, call) in calls {
            let error = try await #require(throws: PlaylistLinksError.self, "\(doing)") { try await call.value }
            #expect(error.code == .database)
            #expect(
                error.message.contains("did not \(doing) within 15 s") && error.message.contains("pg_stat_activity"),
                "\(error.message)")
        }
        released.continuation.yield()
        try await holder.value
        try await links.linked.link(RecordID(namespace: "session", id: "2"), to: deepWork)
        #expect(try await links.link(for: RecordID(namespace: "session", id: "2"))?.playlist == deepWork)
        #expect(try await ledger.reserve(entry, for: key, limit: 10, windowStart: .distantPast) == .counted)
    }

    /// A start-up with nothing to migrate reads the schema's version under the ordinary deadline,
    /// not the migration's ten minutes: a server that stops answering during the check is said in
    /// seconds (issue 66 item 4; it used to hang for 600 s). The check gets no answer here because
    /// another transaction holds the version's table.
    ///
    /// The time limit is a hang guard for a loaded ThreadSanitizer run (CI stop 73 passed two
    /// minutes there); the deadline itself runs on a virtual clock. A wait that gives up names the
    /// real time each step took, and how the start-up ended if it ended early.
    @Test(.timeLimit(.minutes(5))) func aStartUpCheckWithoutAnAnswerEndsAtTheOrdinaryDeadline() async throws {
        var steps = StepTimes()
        let (url, drop) = try await TestPostgres.freshDatabase()
        steps.mark("fresh database")
        try await PostgresSchema.migrate(url)
        steps.mark("first migration")
        let logger = Logger(label: "test.postgres")
        let blocker = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        let running = Task { await blocker.run() }
        defer {
            running.cancel()
            Task { try await drop() }
        }
        let locked = AsyncStream.makeStream(of: Void.self)
        let released = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await blocker.withTransaction(logger: logger) { connection in
                try await connection.query("LOCK TABLE spotlink_schema IN ACCESS EXCLUSIVE MODE", logger: logger)
                locked.continuation.yield()
                for await _ in released.stream { break }
            }
        }
        do {
            _ = try await nextElement(of: locked.stream, "the blocker to lock spotlink_schema")
        } catch {
            holder.cancel()
            throw VirtualClock.WaitGaveUp("\(error) (\(steps))")
        }
        steps.mark("lock")
        let deadlines = VirtualClock()
        let ended = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        Task {
            do {
                try await PostgresSchema.migrate(
                    url, deadline: .seconds(600), checking: .seconds(15), clock: deadlines, logger: logger)
                ended.continuation.yield(.success(()))
            } catch {
                ended.continuation.yield(.failure(error))
            }
        }
        let outcome: Result<Void, any Error>
        do {
            do {
                try await deadlines.waitForSleepers(1)
            } catch {
                let early = try? await nextElement(of: ended.stream, within: .seconds(1), "an early end")
                throw VirtualClock.WaitGaveUp(
                    "\(error); the start-up \(early.map { "had ended: \($0)" } ?? "had not ended") (\(steps))")
            }
            steps.mark("check asleep on its deadline")
            deadlines.advance(by: .seconds(15))
            do {
                outcome = try await nextElement(of: ended.stream, "the start-up's check to end at its 15 s deadline")
            } catch {
                throw VirtualClock.WaitGaveUp("\(error) (\(steps))")
            }
        } catch {
            released.continuation.yield()
            throw error
        }
        released.continuation.yield()
        try await holder.value
        let error = try #require(throws: PlaylistLinksError.self) { try outcome.get() }
        #expect(error.code == .database)
        #expect(error.message.contains("did not check the SpotifyLink tables within 15 s"), "\(error.message)")
        // Free again, the start-up finds nothing to do.
        try await PostgresSchema.migrate(
            url, deadline: .seconds(600), checking: .seconds(15), clock: deadlines, logger: logger)
    }

    /// A URL's password never reaches a message.
    @Test func aBadURLIsNamedWithoutItsPassword() throws {
        let error = try #require(throws: PlaylistLinksError.self) {
            try PostgresURL.configuration("postgres://spotify:hunter2@db.example/")
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("postgres://spotify:***@db.example/"))
        #expect(!error.message.contains("hunter2"))
        #expect(PostgresURL.redacted("postgres://u:secret@h/db") == "postgres://u:***@h/db")
        #expect(throws: PlaylistLinksError.self) { try PostgresURL.configuration("postgres://u@h/db?sslmode=maybe") }
    }
}

/// The real time each step of a test took, for the message of a wait that gives up: never asserted.
private struct StepTimes: CustomStringConvertible {
    private let start = ContinuousClock.now
    private var last = ContinuousClock.now
    private var steps: [String] = []

    mutating func mark(_ step: String) {
        let now = ContinuousClock.now
        steps.append("\(step) \(now - last)")
        last = now
    }

    var description: String {
        "steps: " + (steps.isEmpty ? "none" : steps.joined(separator: ", ")) + ", in all \(ContinuousClock.now - start)"
    }
}

/// Runs `LedgerQuotaChild` once per argument list, all at once, and returns each one's output line.
private func runLedgerChildren(_ argumentLists: [[String]]) async throws -> [String] {
    try await withThrowingTaskGroup(of: (Int, String).self) { group in
        for (index, arguments) in argumentLists.enumerated() {
            group.addTask {
                let child = try await ChildProcess(builtExecutable(named: "LedgerQuotaChild"), arguments).run()
                #expect(child.status == 0, "LedgerQuotaChild \(arguments.dropFirst(4)) failed: \(child.errors)")
                let text = child.output
                return (index, text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        var lines = Array(repeating: "", count: argumentLists.count)
        for try await (index, line) in group { lines[index] = line }
        return lines
    }
}

@Suite("Postgres: CI has a server")
struct PostgresPresenceTests {
    /// CI runs every test under scripts/with-postgres.sh: there, the PostgreSQL tests never skip.
    @Test(.enabled(if: TestPostgres.required, "only CI requires a PostgreSQL server"))
    func theServerIsThereWhenRequired() {
        #expect(TestPostgres.url != nil, "SPOTLINK_REQUIRE_POSTGRES=1 but SPOTLINK_POSTGRES_URL is not set")
    }
}
