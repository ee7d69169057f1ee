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

    /// Two instances of the service behind one load balancer, sharing one PostgreSQL database: a
    /// device attested on one searches on the other, an assertion used on one is refused by the
    /// other, and the share is one share.
    @Suite(
        "spotlink-search, two instances on one PostgreSQL database",
        .enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
    struct SearchServiceInstancesTests {
        @Test func aDeviceAttestedOnOneInstanceSearchesOnTheOtherAndCannotReplayThere() async throws {
            try await withFreshSearchDatabase { url in
                try await withSearchServices(2, storage: .postgres(url: url)) { worlds in
                    let device = TestDevice(worlds[0])
                    try await device.attest()
                    device.world = worlds[1]
                    let answer = try await device.search("さくら")
                    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                    // Its next challenge, issued by the second instance, is good on the first.
                    device.world = worlds[0]
                    #expect(try await device.search("ともだち").status == 200)
                    // The same signed request on each instance: one answer, one refusal.
                    let query = [(name: "q", value: "こころ")]
                    let headers = try await device.signature("/v1/search", query)
                    let path = "/v1/search?" + TestDevice.encode(query)
                    let first = try await worlds[0].send(.get, path, headers: headers)
                    let second = try await worlds[1].send(.get, path, headers: headers)
                    #expect([first.status, second.status] == [Int]([200, 401]))
                    #expect(second.errorCode == "assertion_refused")
                }
            }
        }

        @Test func theShareAndTheDeviceLimitAreOneAcrossInstances() async throws {
            try await withFreshSearchDatabase { url in
                try await withSearchServices(
                    2, storage: .postgres(url: url),
                    {
                        $0.dailyShare = 4
                        $0.deviceLimit = 6
                        $0.addressLimit = 1000
                    }
                ) { worlds in
                    let device = TestDevice(worlds[0])
                    try await device.attest()
                    var statuses: [Int] = []
                    var codes: [String?] = []
                    for index in 0..<7 {
                        device.world = worlds[index % 2]
                        let answer = try await device.search("さくら \(index)")
                        statuses.append(answer.status)
                        codes.append(answer.errorCode)
                    }
                    // Four searches reach Spotify (the share, counted by both), two are refused by
                    // the share, the seventh by the device's limit (six a minute, counted by both).
                    #expect(statuses == [Int]([200, 200, 200, 200, 429, 429, 429]), "\(codes)")
                    #expect(codes.suffix(3) == ["share_spent", "share_spent", "device_limit"])
                    #expect(await worlds[0].emulator.totalRequests(prefix: "GET /v1/") == 4)
                }
            }
        }
    }
#endif
