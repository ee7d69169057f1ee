import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyTesting
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

@Suite("Bearer tokens go only where they belong")
struct TokenDestinationTests {
    @Test(arguments: ["http://api.example.com/v1", "http://10.0.0.5:8080/v1", "ftp://api.spotify.com/v1"])
    func neverOverPlainHTTPToAnotherMachine(base: String) async throws {
        let transport = ScriptedTransport([])
        let client = SpotifyClient(
            configuration: .init(apiBaseURL: URL(string: base)!),
            tokens: StaticAccessTokenProvider(AccessToken("SENTINEL_AT_1")),
            transport: transport)
        let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(error.code == .invalidRequest && error.parameter == "apiBaseURL")
        #expect(!error.message.contains("SENTINEL"))
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: ["https://api.spotify.com/v1", "http://127.0.0.1:9999/v1", "http://[::1]:9999/v1"])
    func httpsAndLoopbackAreFine(base: String) async throws {
        let transport = ScriptedTransport([.json(#"{"id":"me"}"#)])
        let client = SpotifyClient(
            configuration: .init(apiBaseURL: URL(string: base)!), tokens: StaticAccessTokenProvider(AccessToken("t")),
            transport: transport)
        #expect(try await client.currentUser().id == "me")
    }

    @Test func aSessionsTokensGoOnlyToItsOwnAccountsServicesAPI() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let store = MemoryTokenStore()
            let tokens = StoredTokens(
                accessToken: AccessToken("SENTINEL_AT_live"), refreshToken: nil, expiresAt: nil, scopes: [],
                signedInAt: Date(),
                issuer: AuthorizationServer.live.issuer, clientID: "app")
            try await store.save(tokens, for: SpotifyAppKey(issuer: AuthorizationServer.live.issuer, clientID: "app"))
            let live = SpotifySession(endpoint: TokenEndpoint(server: .live, clientID: "app"), store: store)
            // Live tokens toward the emulator: refused before anything is sent.
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: live, transport: PatientTransport())
            let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
            #expect(error.message.contains("belong to another Spotify service"))
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
            #expect(live.mayBeSent(to: URL(string: "https://api.spotify.com/v1")!))
            let local = SpotifySession(
                endpoint: TokenEndpoint(
                    server: .emulator(url: emulator.baseURL), clientID: "app", transport: PatientTransport()),
                store: MemoryTokenStore())
            #expect(local.mayBeSent(to: emulator.baseURL.appendingPathComponent("v1")))
            #expect(!local.mayBeSent(to: URL(string: "https://api.spotify.com/v1")!))
        }
    }

    /// The session answers the client's one question per request (where may this token go, for
    /// which scopes): a foreign API and a missing scope are refused before any refresh, and an
    /// answer that passes is the token, refreshed when it was about to expire.
    @Test func oneQuestionRefusesBeforeAnyRefresh() async throws {
        let clock = VirtualClock()
        let transport = ScriptedTransport([
            .json(#"{"access_token":"SENTINEL_AT_new","token_type":"Bearer","expires_in":3600}"#)
        ])
        let store = MemoryTokenStore()
        var tokens = storedTokens(expiresIn: 10, clock: clock)
        tokens.scopes = ["playlist-read-private"]
        try await store.save(tokens, for: testKey)
        let subject = session(transport, store: store, clock: clock)
        let elsewhere = try await #require(throws: SpotifyAPIError.self) {
            try await subject.accessToken(for: URL(string: "https://api.spotify.com/v1")!, scopes: [])
        }
        #expect(elsewhere.code == .invalidRequest && elsewhere.message.contains("belong to another Spotify service"))
        let lacking = try await #require(throws: SpotifyAPIError.self) {
            try await subject.accessToken(
                for: emulatorServer.apiBaseURL, scopes: ["user-top-read", "user-read-recently-played"])
        }
        #expect(lacking.code == .missingScope && lacking.scope == "user-top-read")
        #expect(transport.requests.isEmpty, "a refused call refreshed the token")
        let token = try await subject.accessToken(
            for: emulatorServer.apiBaseURL, scopes: ["user-top-read", "playlist-read-private"])
        #expect(token.unredactedValue == "SENTINEL_AT_new")
        #expect(transport.requests.count == 1)
    }

    @Test func serviceTextLosesControlsSeparatorsAndBidiOverrides() {
        let hostile = "Mix\u{1B}]0;owned\u{07}\u{9B}31m\u{2028}line\u{202E}evil\u{2066}x"
        let cleaned = SpotifyAPIError.sanitized(hostile)
        #expect(!cleaned.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x2028, 0x202E, 0x2066].contains($0.value) })
        #expect(cleaned.hasPrefix("Mix"))
    }
}
