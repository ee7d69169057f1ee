import AppAttest
import Crypto
import Foundation
import HTTPTypes
import Logging
import SpotifyEmulator
import SpotifySearchService
import SpotifyTesting
import SpotifyWebAPI
import Testing

@Suite("The search service for signed-out apps (checklist rows 50–53)")
struct SearchServiceTests {
    @Test func anAttestedDeviceSearchesAndSpotifyIsAskedOnce() async throws {
        try await withSearchService { world in
            let device = TestDevice(world)
            try await device.attest()
            let answer = try await device.search("さくら", limit: 5)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            // Spotify's own JSON: what the signed-in path decodes, decoded the same way.
            let page = try decodeSpotifyResponse(TrackSearchResults.self, from: answer.body).tracks
            #expect(page.items.contains { $0.name.contains("さくら") })
            #expect(answer.headers["cache-control"] == "private, max-age=3600")
            #expect(answer.headers["spotifylink-next-challenge"]?.count == 43)
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)
            #expect(await world.emulator.requestCount("POST /api/token") == 1)
            // The device's next search uses the challenge this answer gave: no extra round trip.
            #expect(try await device.search("ともだち").status == 200)
            #expect(await world.emulator.requestCount("POST /api/token") == 1)
        }
    }

    @Test func aTrackByIDAndItsRefusals() async throws {
        try await withSearchService { world in
            let device = TestDevice(world)
            try await device.attest()
            let found = try await device.search("さくら")
            let id = try #require(
                decodeSpotifyResponse(TrackSearchResults.self, from: found.body).tracks.items.first?.id?.rawValue)
            let headers = try await device.signature("/v1/tracks/\(id)", [])
            let answer = try await world.send(.get, "/v1/tracks/\(id)", headers: headers)
            #expect(answer.status == 200)
            #expect(try decodeSpotifyResponse(Track.self, from: answer.body).id?.rawValue == id)
            device.challenge = answer.headers["spotifylink-next-challenge"]
            let bad = try await world.send(
                .get, "/v1/tracks/nope", headers: try await device.signature("/v1/tracks/nope", []))
            #expect(bad.status == 400 && bad.errorCode == "bad_id")
        }
    }

    @Test func unsignedAndForgedRequestsAreRefusedAndCostSpotifyNothing() async throws {
        try await withSearchService { world in
            let unsigned = try await world.send(.get, "/v1/search?q=a")
            #expect(unsigned.status == 401 && unsigned.errorCode == "unsigned")
            // A key never attested.
            let stranger = TestDevice(world)
            let unknown = try await world.send(
                .get, "/v1/search?q=a", headers: try await stranger.signature("/v1/search", [("q", "a")]))
            #expect(unknown.status == 401 && unknown.errorCode == "key_unknown")
            // Signed for one search text, sent with another: the body of the request was changed.
            let device = TestDevice(world)
            try await device.attest()
            let headers = try await device.signature("/v1/search", [("q", "さくら")])
            let tampered = try await world.send(.get, "/v1/search?q=evil", headers: headers)
            #expect(tampered.status == 401 && tampered.errorCode == "assertion_refused")
            // Signed by another key under the attested key's ID.
            let forged = try await world.send(
                .get, "/v1/search?q=a",
                headers: try await device.signature("/v1/search", [("q", "a")]).merging(
                    [
                        "SpotifyLink-Assertion": Data(try stranger.attester.assertion(Array("x".utf8), counter: 9))
                            .base64EncodedString()
                    ]) { $1 })
            #expect(forged.status == 401 && forged.errorCode == "assertion_refused")
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 0)
            #expect(await world.emulator.requestCount("POST /api/token") == 0)
        }
    }

    @Test func aReplayedOrGoingBackAssertionIsRefused() async throws {
        try await withSearchService { world in
            let device = TestDevice(world)
            try await device.attest()
            let query = [(name: "q", value: "さくら")]
            let headers = try await device.signature("/v1/search", query)
            #expect(
                try await world.send(.get, "/v1/search?" + TestDevice.encode(query), headers: headers).status == 200)
            // The same request again: its counter is used (and its challenge too).
            let replayed = try await world.send(.get, "/v1/search?" + TestDevice.encode(query), headers: headers)
            #expect(replayed.status == 401 && replayed.errorCode == "assertion_refused")
            // The used challenge again, with a counter that goes up: the challenge is spent.
            let reused = try await world.send(
                .get, "/v1/search?" + TestDevice.encode(query),
                headers: try await device.signature(
                    "/v1/search", query, counter: 7, challenge: headers["SpotifyLink-Challenge"]))
            #expect(reused.status == 401 && reused.errorCode == "challenge_unknown")
            // A fresh challenge, but the counter goes back (or stays).
            for counter in [UInt32(1), 0] {
                device.challenge = nil
                let back = try await world.send(
                    .get, "/v1/search?" + TestDevice.encode(query),
                    headers: try await device.signature("/v1/search", query, counter: counter))
                #expect(back.status == 401 && back.errorCode == "assertion_refused", "counter \(counter)")
            }
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)
        }
    }

    @Test func twoRequestsRacingWithOneCounterOneWins() async throws {
        try await withSearchService { world in
            let device = TestDevice(world)
            try await device.attest()
            let query = [(name: "q", value: "さくら")]
            // Two challenges, one counter: both signatures are valid, only one counter may be used.
            let first = try await device.signature("/v1/search", query, counter: 5)
            device.challenge = nil
            let second = try await device.signature("/v1/search", query, counter: 5)
            async let a = world.send(.get, "/v1/search?" + TestDevice.encode(query), headers: first)
            async let b = world.send(.get, "/v1/search?" + TestDevice.encode(query), headers: second)
            let statuses = try await [a.status, b.status].sorted()
            #expect(statuses == [200, 401])
        }
    }

    @Test func attestationsForAnotherAppTimeOrChallengeAreRefused() async throws {
        try await withSearchService { world in
            let other = AppID(teamID: "ZZZZZ99999", bundleID: "dev.spotifylink.learning")
            let cases: [(String, (inout TestAttester.Attestation) -> Void)] = [
                ("another app", { $0.appID = other }),
                ("another challenge", { $0.challenge = Array("not-issued".utf8) }),
                ("the development environment", { $0.environment = .development }),
                ("an expired certificate", { $0.lasting = 3600 }),
            ]
            for (name, change) in cases {
                let answer = try await world.attest(TestAttester(), change)
                #expect(answer.status == 401 && answer.errorCode == "attestation_refused", "\(name)")
            }
            // A challenge is used once, and lasts five minutes.
            let device = TestAttester()
            let challenge = try await world.challenge()
            world.clock.advance(by: .seconds(301))
            var spec = TestAttester.Attestation()
            spec.challenge = Array(challenge.utf8)
            let late = try await world.send(
                .post, "/v1/attest",
                body: try JSONSerialization.data(withJSONObject: [
                    "keyID": Data(device.keyID).base64EncodedString(),
                    "attestation": Data(try device.attestation(spec)).base64EncodedString(), "challenge": challenge,
                ]))
            #expect(late.status == 401 && late.errorCode == "challenge_unknown")
            // The same key attested twice is a replay.
            let twice = TestAttester()
            #expect(try await world.attest(twice).status == 201)
            let again = try await world.attest(twice)
            #expect(again.status == 409 && again.errorCode == "key_already_attested")
            let malformed = try await world.send(.post, "/v1/attest", body: Data("{}".utf8))
            #expect(malformed.status == 400)
        }
    }

    @Test func theDevelopmentKeyIsRefusedUnlessTheServiceRunsWithIt() async throws {
        for allowed in [false, true] {
            try await withSearchService({ $0.allowDevelopmentKey = allowed }) { world in
                let query = [(name: "q", value: "さくら")]
                let challenge = try await world.challenge()
                let data = SearchServiceSignature.clientData(
                    method: "GET", path: "/v1/search", query: query, challenge: challenge)
                let key = SymmetricKey(data: Data(base64Encoded: SearchServiceWorld.developmentKey)!)
                let mac = Data(HMAC<SHA256>.authenticationCode(for: data, using: key)).base64EncodedString()
                let answer = try await world.send(
                    .get, "/v1/search?" + TestDevice.encode(query),
                    headers: [
                        "SpotifyLink-Development": mac, "SpotifyLink-Device": "simulator-1",
                        "SpotifyLink-Challenge": challenge,
                    ])
                if allowed {
                    #expect(answer.status == 200)
                } else {
                    #expect(answer.status == 401 && answer.errorCode == "development_key_refused")
                }
                // A wrong key is refused either way.
                let wrong = Data(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(size: .bits256)))
                let forged = try await world.send(
                    .get, "/v1/search?" + TestDevice.encode(query),
                    headers: [
                        "SpotifyLink-Development": wrong.base64EncodedString(), "SpotifyLink-Device": "simulator-1",
                        "SpotifyLink-Challenge": try await world.challenge(),
                    ])
                #expect(forged.status == 401)
                #expect(await world.emulator.requestCount("GET /v1/search") == (allowed ? 1 : 0))
            }
        }
    }

    @Test func deviceAndAddressLimitsAnswer429WithRetryAfter() async throws {
        try await withSearchService({
            $0.deviceLimit = 3
            $0.addressLimit = 12
        }) { world in
            let device = TestDevice(world)
            try await device.attest()
            for index in 0..<3 { #expect(try await device.search("さくら \(index)").status == 200) }
            let limited = try await device.search("さくら 4")
            #expect(limited.status == 429 && limited.errorCode == "device_limit")
            #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
            // The refused answer still carries the next challenge.
            #expect(limited.headers["spotifylink-next-challenge"] != nil)
            // A minute on, the device may search again.
            world.clock.advance(by: .seconds(60))
            #expect(try await device.search("さくら 5").status == 200)
            // The address: twelve requests a minute, attestations and challenges included.
            world.clock.advance(by: .seconds(60))
            var statuses: [Int] = []
            for _ in 0..<13 { statuses.append(try await world.send(.post, "/v1/attest/challenge").status) }
            #expect(statuses.filter { $0 == 429 }.count == 1 && statuses.last == 429)
            #expect(await world.emulator.requestCount("GET /v1/search") == 4)
        }
    }

    @Test func onceTheShareIsSpentNothingReachesSpotify() async throws {
        try await withSearchService({
            $0.dailyShare = 3
            $0.deviceLimit = 1000
            $0.addressLimit = 1000
        }) { world in
            let device = TestDevice(world)
            try await device.attest()
            for index in 0..<3 { #expect(try await device.search("さくら \(index)").status == 200) }
            for index in 0..<50 {
                let answer = try await device.search("こころ \(index)")
                #expect(answer.status == 429 && answer.errorCode == "share_spent")
                #expect(Int(answer.headers["retry-after"] ?? "") ?? 0 > 3600)
            }
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 3)
            let metrics = String(decoding: try await world.send(.get, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("spotlink_search_spotify_requests_total 3"))
            #expect(metrics.contains(#"spotlink_search_refusals_total{reason="share_spent"} 50"#))
        }
    }

    @Test func identicalSearchesInFlightAreSentOnce() async throws {
        let transport = GatedTransport()
        let gate = transport.hold { $0.path?.hasPrefix("/v1/search") == true }
        try await withSearchService(transport: transport) { world in
            // Opened on every way out, so a failure ends the held searches instead of hanging.
            defer { gate.open() }
            var devices: [TestDevice] = []
            for _ in 0..<6 {
                let device = TestDevice(world)
                try await device.attest()
                devices.append(device)
            }
            let all = devices
            let searches = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for device in all { group.addTask { try await device.search("さくら").status } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
            // The first search is held at Spotify until the five others have joined it.
            try await waitUntil("five searches joined the one in flight", within: .seconds(60)) {
                String(decoding: world.service.metrics.exposition(), as: UTF8.self)
                    .contains("spotlink_search_coalesced_total 5")
            }
            gate.open()
            #expect(try await searches.value == Array(repeating: 200, count: 6))
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)
            // Another search text is its own request.
            #expect(try await devices[0].search("こころ").status == 200)
            #expect(await world.emulator.requestCount("GET /v1/search") == 2)
        }
    }

    @Test func aRepeatedSearchIsAnsweredFromTheKeptAnswerWhileAnAppMayKeepIt() async throws {
        try await withSearchService({ $0.cacheSeconds = 600 }) { world in
            let device = TestDevice(world)
            try await device.attest()
            let first = try await device.search("さくら")
            let again = try await device.search("さくら")
            #expect(again.status == 200 && again.body == first.body)
            #expect(await world.emulator.requestCount("GET /v1/search") == 1)
            // Past the time an app may keep it, Spotify is asked again.
            world.clock.advance(by: .seconds(601))
            device.challenge = nil  // the one the last answer gave lasted five minutes
            #expect(try await device.search("さくら").status == 200)
            #expect(await world.emulator.requestCount("GET /v1/search") == 2)
        }
        try await withSearchService({ $0.cacheSeconds = 0 }) { world in
            let device = TestDevice(world)
            try await device.attest()
            for _ in 0..<2 { #expect(try await device.search("さくら").status == 200) }
            #expect(await world.emulator.requestCount("GET /v1/search") == 2)
        }
    }

    @Test func noSecretOrSearchTextInAnswersLogsOrMetrics() async throws {
        let lines = LogLines()
        try await withSearchService({ $0.dailyShare = 1 }, logger: lines.logger(level: .info)) { world in
            let device = TestDevice(world)
            try await device.attest()
            var bodies: [Data] = []
            bodies.append(try await device.search("SENTINEL_QUERY").body)
            bodies.append(try await device.search("SENTINEL_QUERY 2").body)  // share spent
            bodies.append(try await world.send(.get, "/v1/search?q=SENTINEL_QUERY").body)
            bodies.append(try await world.send(.get, "/metrics").body)
            bodies.append(try await world.send(.get, "/health/ready").body)
            let everything = bodies.map { String(decoding: $0, as: UTF8.self) }.joined() + lines.all.joined()
            #expect(!everything.contains("SENTINEL_SECRET"))
            #expect(!lines.all.joined().contains("SENTINEL_QUERY"))
            #expect(!everything.contains(await world.emulator.issueAccessToken(clientID: "search-service").prefix(12)))
            #expect(lines.all.contains { $0.contains("attested") })
        }
    }

    /// A connection that dribbles its request, or sends nothing, is closed at the idle deadline
    /// (half a second here, ten seconds as run), and costs Spotify nothing.
    @Test func slowAndIdleConnectionsAreCutOff() async throws {
        try await withSearchService(idleTimeout: .milliseconds(500)) { world in
            let port = try #require(world.baseURL.port)
            let slow = try RawConnection(port: port)
            let idle = try RawConnection(port: port)
            let head = Array("GET /v1/search?q=a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            let sent = try await slow.dribble(Array(head.prefix(30)), every: .milliseconds(100))
            #expect(sent < 30, "the dribbling connection was still open after 3 s")
            #expect(await idle.readUntilClosed(timeout: .seconds(5)).closed, "the idle connection was never closed")
            #expect(try await world.send(.get, "/health/live").status == 200)
            #expect(await world.emulator.totalRequests(prefix: "GET /v1/") == 0)
        }
    }

    @Test func healthReadinessMetricsAndUnknownRoutes() async throws {
        try await withSearchService { world in
            #expect(try await world.send(.get, "/health/live").status == 200)
            #expect(try await world.send(.get, "/health/ready").status == 200)
            let metrics = try await world.send(.get, "/metrics")
            #expect(metrics.status == 200)
            #expect(String(decoding: metrics.body, as: UTF8.self).contains("spotlink_search_requests_total"))
            #expect(try await world.send(.get, "/v1/token").status == 404)
            let wrongMethod = try await world.send(.post, "/v1/search")
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "GET")
            let getAttest = try await world.send(.get, "/v1/attest")
            #expect(getAttest.status == 405 && getAttest.headers["allow"] == "POST")
            let huge = try await world.send(.post, "/v1/attest", body: Data(repeating: 0x41, count: 40_000))
            #expect(huge.status == 413)
            let long = try await world.send(.get, "/v1/search?q=" + String(repeating: "a", count: 3000))
            #expect(long.status == 414)
        }
    }
}
