import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

@Suite("The emulator's Development Mode quota")
struct EmulatorQuotaTests {
    func configuration(quota: Int, window: Duration = .seconds(86_400)) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.time = .virtual(start: Date(timeIntervalSince1970: 1_790_000_000))
        configuration.quota = quota
        configuration.quotaWindow = window
        configuration.accessTokenTTL = .seconds(86_400 * 3)
        configuration.clients = [
            .init(id: "app-1", redirectURIs: ["http://127.0.0.1/callback"], developer: "alice"),
            .init(id: "app-2", redirectURIs: ["http://127.0.0.1/callback"], developer: "alice"),
            .init(id: "app-3", redirectURIs: ["http://127.0.0.1/callback"], developer: "bob"),
        ]
        return configuration
    }

    func me(_ emulator: EmulatorServer, _ token: String) async throws -> (
        status: Int, headers: HTTPFields, body: String
    ) {
        let (status, headers, body) = try await http.send(
            .get, emulator.url("v1/me"), headers: ["Authorization": "Bearer \(token)"])
        return (status, headers, String(decoding: body, as: UTF8.self))
    }

    @Test func appsOfOneDeveloperShareOneQuotaAndGetTheLiveBody() async throws {
        try await withEmulator(configuration(quota: 3)) { (emulator: EmulatorServer) async throws in
            let first = await emulator.issueAccessToken(clientID: "app-1")
            let second = await emulator.issueAccessToken(clientID: "app-2")
            let other = await emulator.issueAccessToken(clientID: "app-3")
            #expect(try await me(emulator, first).status == 200)
            #expect(try await me(emulator, second).status == 200)
            await emulator.advanceClock(by: .seconds(100))
            #expect(try await me(emulator, first).status == 200)
            let limited = try await me(emulator, second)
            #expect(limited.status == 429)
            #expect(
                limited.body == #"{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}"#)
            // The window frees when the first request is a day old: 100 s have passed since.
            #expect(limited.headers[.retryAfter] == "86300")
            // Another developer's app is not limited.
            #expect(try await me(emulator, other).status == 200)
        }
    }

    @Test func requestsWhileLimitedCountAndLengthenThePenalty() async throws {
        try await withEmulator(configuration(quota: 2, window: .seconds(1000))) {
            (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken(clientID: "app-1")
            #expect(try await me(emulator, token).status == 200)
            await emulator.advanceClock(by: .seconds(10))
            #expect(try await me(emulator, token).status == 200)
            await emulator.advanceClock(by: .seconds(10))
            #expect(try await me(emulator, token).headers[.retryAfter] == "990")
            await emulator.advanceClock(by: .seconds(10))
            // Four requests in the window now: two must leave before one is allowed.
            #expect(try await me(emulator, token).headers[.retryAfter] == "990")
            // At 1015 s the two allowed requests have left, but the two limited ones still count.
            await emulator.advanceClock(by: .seconds(985))
            #expect(try await me(emulator, token).status == 429)
            await emulator.advanceClock(by: .seconds(1000))
            #expect(try await me(emulator, token).status == 200)
        }
    }

    @Test func theQuotaCanBeSetAtRunTimeAndAFaultPlaysItOnce() async throws {
        var plain = EmulatorConfiguration()
        plain.time = .virtual(start: Date(timeIntervalSince1970: 1_790_000_000))
        try await withEmulator(plain) { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            #expect(await emulator.control("faults", ["kind": "429-quota", "retry_after": "43200"]) == 200)
            let fault = try await me(emulator, token)
            #expect(
                fault.status == 429 && fault.body.contains("QUOTA_EXCEEDED") && fault.headers[.retryAfter] == "43200")
            #expect(try await me(emulator, token).status == 200)
            #expect(await emulator.control("config", ["quota": "1"]) == 200)
            #expect(try await me(emulator, token).status == 200)
            #expect(try await me(emulator, token).status == 429)
            #expect(await emulator.control("config", ["quota": "0"]) == 200)
            #expect(try await me(emulator, token).status == 200)
        }
    }

    @Test func myPlaylistsCarriesAnETagAndAnswers304WhenUnchanged() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            let url = emulator.url("v1/me/playlists", [("limit", "50")])
            let (status, headers, body) = try await http.send(.get, url, headers: ["Authorization": "Bearer \(token)"])
            let etag = try #require(headers[.eTag])
            #expect(status == 200 && !body.isEmpty)
            let again = try await http.send(
                .get, url, headers: ["Authorization": "Bearer \(token)", "If-None-Match": etag])
            #expect(again.status == 304 && again.body.isEmpty)
            let id = try await emulator.playlistID(named: "Deep Work")
            await emulator.control("playlists/\(id)/rename", ["name": "Deeper Work"])
            let changed = try await http.send(
                .get, url, headers: ["Authorization": "Bearer \(token)", "If-None-Match": etag])
            #expect(changed.status == 200)
        }
    }
}
