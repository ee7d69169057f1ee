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
