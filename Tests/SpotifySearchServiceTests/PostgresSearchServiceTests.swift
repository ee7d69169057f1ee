#if PostgreSQL
    import AppAttest
    import Foundation
    import HTTPTypes
    import Logging
    import PostgresNIO
    import PostgresTestServer
    import SpotifyEmulator
    import SpotifyLinkPostgres
    import SpotifySearchService
    import SpotifyTesting
    import SpotifyWebAPI
    import Testing

    extension TestPostgres {
        /// Why a suite that needs the server is skipped in a run without one.
        static let skipReason: Comment = "no PostgreSQL: run under scripts/with-postgres.sh"
    }

    /// A database of its own for one test, migrated, dropped after: the rules' sweeps drop every
    /// ended window, so tests sharing one would drop each other's.
    func withFreshSearchDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        let (url, drop) = try await TestPostgres.freshDatabase(prefix: "spotlink_search")
        do {
            try await PostgresSchema.migrate(url)
            let result = try await body(url)
            try await drop()
            return result
        } catch {
            try? await drop()
            throw error
        }
    }

    /// The store's rules in PostgreSQL, the same as in SQLite (`SearchServiceStoreTests`).
    @Suite(
        "The search service's store in PostgreSQL: challenges, counters and limits",
        .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    struct PostgresSearchServiceStoreTests {
        /// A store with a pool of its own, as each instance has.
        static func maker(_ url: String) -> StoreRules.Make {
            let client = PostgresClient(
                configuration: try! PostgresURL.configuration(url), backgroundLogger: Logger(label: "test.postgres"))
            Task.detached { await client.run() }
            return { PostgresSearchServiceStore(client: client, logger: Logger(label: "test.postgres")) }
        }

        @Test func aCounterMovesOnlyUpOnceForEachValue() async throws {
            try await withFreshSearchDatabase { await StoreRules.aCounterMovesOnlyUpOnceForEachValue(Self.maker($0)) }
        }
        @Test func requestsRacingWithOneCounterLetOneThrough() async throws {
            try await withFreshSearchDatabase {
                try await StoreRules.requestsRacingWithOneCounterLetOneThrough(Self.maker($0))
            }
        }
        @Test func aChallengeIsUsedOnceBeforeItExpires() async throws {
            try await withFreshSearchDatabase { await StoreRules.aChallengeIsUsedOnceBeforeItExpires(Self.maker($0)) }
        }
        @Test func aWindowAdmitsItsLimitAndNoMore() async throws {
            try await withFreshSearchDatabase { await StoreRules.aWindowAdmitsItsLimitAndNoMore(Self.maker($0)) }
        }
        @Test func endedWindowsAreDropped() async throws {
            try await withFreshSearchDatabase { try await StoreRules.endedWindowsAreDropped(Self.maker($0)) }
        }
        @Test func anAdmissionReadsTheNamedKey() async throws {
            try await withFreshSearchDatabase { try await StoreRules.anAdmissionReadsTheNamedKey(Self.maker($0)) }
        }

        /// A sweep that fails (here: PostgreSQL refuses every delete of a window, by a trigger of
        /// the test's) is housekeeping, logged once for its window: the request it follows stands
        /// (its challenge kept, its device counted), and the next window sweeps again.
        @Test func aSweepThatFailsIsLoggedAndTheRequestStands() async throws {
            try await withFreshSearchDatabase { url in
                let client = PostgresClient(
                    configuration: try PostgresURL.configuration(url), backgroundLogger: Logger(label: "test.postgres"))
                let running = Task.detached { await client.run() }
                defer { running.cancel() }
                try await client.query(
                    """
                    CREATE FUNCTION spotlink_test_refuse() RETURNS trigger LANGUAGE plpgsql AS
                    $$ BEGIN RAISE EXCEPTION 'the test refuses this delete'; END $$
                    """)
                try await client.query(
                    """
                    CREATE TRIGGER spotlink_test_refuse BEFORE DELETE ON spotlink_search_rate_window
                    FOR EACH STATEMENT EXECUTE FUNCTION spotlink_test_refuse()
                    """)
                let lines = LogLines()
                let store = PostgresSearchServiceStore(client: client, logger: lines.logger(level: .warning))
                let minute = Date(timeIntervalSince1970: 1_795_000_020)
                try await store.issueChallenge("c1", expiresAt: minute.addingTimeInterval(60), now: minute)
                for index in 0..<3 {
                    #expect(
                        try await store.admit("device:\(index)", limit: 5, window: .seconds(60), now: minute) == nil)
                }
                #expect(try await store.consumeChallenge("c1", now: minute), "the challenge kept before the sweep")
                #expect(try await store.keptWindows() == 3)
                let warnings = lines.all.filter { $0.contains("sweep failed") }
                #expect(warnings.count == 1, "one sweep a window, its failure logged: \(lines.all)")
                #expect(warnings.first?.contains("the test refuses this delete") == true, "\(warnings)")

                try await client.query("DROP TRIGGER spotlink_test_refuse ON spotlink_search_rate_window")
                let next = minute.addingTimeInterval(60)
                #expect(try await store.admit("device:0", limit: 5, window: .seconds(60), now: next) == nil)
                #expect(try await store.keptWindows() == 1, "the next window's sweep drops the ended ones")
                #expect(lines.all.filter { $0.contains("sweep failed") }.count == 1)
            }
        }

        /// Two instances counting one device at once: the limit holds across them, every request
        /// counted once (the window's row is taken in turns, never read then overwritten).
        @Test func twoInstancesCountingOneDeviceKeepItsLimit() async throws {
            try await withFreshSearchDatabase { url in
                let stores = [try await Self.maker(url)(), try await Self.maker(url)()]
                let now = Date(timeIntervalSince1970: 1_795_000_020)
                let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<60 {
                        group.addTask {
                            try await stores[index % 2].admit("device:d", limit: 25, window: .seconds(60), now: now)
                                == nil
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(admitted == 25)
            }
        }
    }

#endif
