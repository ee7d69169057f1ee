import AppAttest
import Foundation
import HTTPTypes
import PostgresTestServer
import SpotifyEmulator
import SpotifySearchService
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// Two instances of the service sharing one store: on one machine, two processes on one SQLite
/// file (each its own pool, as separate processes have); on several, one PostgreSQL database. A
/// device attested on one searches on the other, an assertion used on one is refused by the other,
/// and the share and the device's limit are one for both.
@Suite("spotlink-search, two instances sharing one store")
struct SearchServiceInstancesTests {
    @Test func onOneSQLiteFileADeviceMovesBetweenInstancesAndCannotReplay() async throws {
        try await Self.aDeviceMovesBetweenInstancesAndCannotReplay(.sqlite)
    }

    @Test func onOneSQLiteFileTheShareAndTheDeviceLimitAreOne() async throws {
        try await Self.theShareAndTheDeviceLimitAreOne(.sqlite)
    }

    #if PostgreSQL
        @Test(.enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
        func onPostgreSQLADeviceMovesBetweenInstancesAndCannotReplay() async throws {
            try await withFreshSearchDatabase { url in
                try await Self.aDeviceMovesBetweenInstancesAndCannotReplay(.postgres(url: url))
            }
        }

        @Test(.enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
        func onPostgreSQLTheShareAndTheDeviceLimitAreOne() async throws {
            try await withFreshSearchDatabase { url in
                try await Self.theShareAndTheDeviceLimitAreOne(.postgres(url: url))
            }
        }
    #endif

    static func aDeviceMovesBetweenInstancesAndCannotReplay(_ storage: TestServiceStorage) async throws {
        try await withSearchServices(2, storage: storage) { worlds in
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

    static func theShareAndTheDeviceLimitAreOne(_ storage: TestServiceStorage) async throws {
        try await withSearchServices(
            2, storage: storage,
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
            // Four searches reach Spotify (the share, counted by both), two are refused by the
            // share, the seventh by the device's limit (six a minute, counted by both).
            #expect(statuses == [Int]([200, 200, 200, 200, 429, 429, 429]), "\(codes)")
            #expect(codes.suffix(3) == ["share_spent", "share_spent", "device_limit"])
            #expect(await worlds[0].emulator.totalRequests(prefix: "GET /v1/") == 4)
        }
    }
}
