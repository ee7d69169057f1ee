import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyTesting
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

@Suite("The language-learning app: tracks, the profile, saved and top tracks, app-only search")
struct LearningAppTests {
    func userClient(
        _ emulator: EmulatorServer, scopes: [String] = EmulatorServer.allScopes + EmulatorServer.learningScopes
    )
        async -> SpotifyClient
    {
        let token = AccessToken(await emulator.issueAccessToken(scopes: scopes))
        return SpotifyClient(
            configuration: .emulator(url: emulator.baseURL), tokens: ScopedTokens(token: token, scopes: Set(scopes)),
            transport: PatientTransport(),
            clock: VirtualClock(mode: .automatic))
    }

    @Test(arguments: [
        ("夜明け", "夜明けのうた"),  // kanji
        ("よあけ", "夜明けのうた"),  // its reading in hiragana
        ("はるかぜ", "ハルカゼ"),  // hiragana finds katakana (and the reading)
        ("トモダチ", "ともだち"),  // katakana finds hiragana, with no reading to help
        ("ガラス", "ｶﾞﾗｽの靴"),  // full-width finds half-width katakana
        ("sunny day", "ＳＵＮＮＹ ＤＡＹ"),  // ASCII finds full-width Latin
        ("青空ミナト 雨", "東京の雨"),  // artist and title words together
    ])
    func japaneseSearchEndToEnd(query: String, expected: String) async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let page = try await userClient(emulator).searchTracks(query, limit: 10)
            #expect(page.items.map(\.name).contains(expected), "\(query): \(page.items.map(\.name))")
            let track = try #require(page.items.first { $0.name == expected })
            #expect(track.previewURL == nil)
            #expect(track.webURL?.absoluteString == "https://open.spotify.com/track/\(track.id!.rawValue)")
            #expect(track.reference?.uri == "spotify:track:\(track.id!.rawValue)")
        }
    }

    @Test func trackSearchPagesByOffsetAndDropsNullsCounted() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = await userClient(emulator)
            let first = try await client.searchTracks("ひかり", limit: 3)
            let second = try await client.searchTracks("ひかり", limit: 3, offset: 3)
            #expect(first.items.count == 3 && first.nullCount == 0)
            // The fourth result is a null, as live: dropped and counted.
            #expect(second.nullCount == 1 && second.items.count == 1)
            #expect(Set(first.items.map(\.name)).isDisjoint(with: second.items.map(\.name)))
            #expect(first.total == 5)  // four songs by ひかり and one null
            await #expect(throws: SpotifyAPIError.self) { try await client.searchTracks("x", limit: 11) }
        }
    }

    @Test func oneTrackTheProfileSavedAndTopItems() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = await userClient(emulator)
            let found = try #require(try await client.searchTracks("ありがとう").items.first)
            let track = try await client.track(try #require(found.id))
            #expect(track.name == "ありがとう" && track.artistLine == "Team Kokoro")
            let me = try await client.currentUser()
            #expect(me.accountID == "acct-emu-user")
            let saved = try await client.savedTracks(limit: 5)
            #expect(saved.total == 25 && saved.items.count == 5)
            #expect(saved.items.first?.track.name == "夜明けのうた")
            #expect(saved.items.first?.addedAt != nil)
            let short = try await client.topTracks(range: .shortTerm, limit: 5)
            let long = try await client.topTracks(range: .longTerm, limit: 5)
            #expect(short.items.first?.name == "夜明けのうた")
            #expect(short.items.map(\.id) != long.items.map(\.id))
            let artists = try await client.topArtists(range: .mediumTerm, limit: 50)
            #expect(artists.items.contains { $0.name == "ひかり" && $0.genres == ["j-pop"] })
        }
    }

    @Test func savedAndTopNeedTheirScopesAndSayWhichBeforeSending() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let client = await userClient(emulator, scopes: EmulatorServer.allScopes)
            let saved = try await #require(throws: SpotifyAPIError.self) { try await client.savedTracks() }
            #expect(saved.code == .missingScope && saved.scope == "user-library-read")
            let top = try await #require(throws: SpotifyAPIError.self) { try await client.topArtists() }
            #expect(top.scope == "user-top-read")
            #expect(await emulator.totalRequests(prefix: "GET /v1/me") == 0)
        }
    }

    func appOnly(secret: String) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.clients = [
            .init(id: "learning-server", redirectURIs: ["http://127.0.0.1/callback"], secret: secret)
        ]
        configuration.accessTokenTTL = .seconds(3600)
        return configuration
    }

    @Test func appOnlySearchWithClientCredentialsFetchesOnceCachesAndRenews() async throws {
        // A secret with ':' and '%' only works when both parts are form-encoded (RFC 6749 §2.3.1).
        let secret = "s3:cr%et+/ü"
        try await withEmulator(appOnly(secret: secret)) { (emulator: EmulatorServer) async throws in
            let endpoint = TokenEndpoint(
                server: .emulator(url: emulator.baseURL), clientID: "learning-server", transport: PatientTransport())
            let provider = ClientCredentialsProvider(endpoint: endpoint, secret: ClientSecret(secret))
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: provider, transport: PatientTransport())
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask { try await client.searchTracks("さくら", limit: 10, offset: index % 2).elementCount }
                }
                for try await count in group { #expect(count >= 0) }
            }
            #expect(await emulator.requestCount("POST /api/token") == 1)
            // The app token has no user: a user call is refused with 401 after one renewal.
            await #expect(throws: SpotifyAPIError.self) { try await client.currentUser() }
            // A 401 renews once; the next calls reuse the new token.
            await emulator.control("tokens/expire")
            #expect(try await client.searchTracks("ともだち").items.first?.name == "ともだち")
            #expect(try await client.searchTracks("こころ").items.isEmpty == false)
            #expect(await emulator.requestCount("POST /api/token") == 3)
            #expect(String(describing: ClientSecret(secret)) == "<redacted>")
        }
    }

    @Test func aWrongSecretIsATypedErrorWithoutASecretInIt() async throws {
        try await withEmulator(appOnly(secret: "right")) { (emulator: EmulatorServer) async throws in
            let endpoint = TokenEndpoint(
                server: .emulator(url: emulator.baseURL), clientID: "learning-server", transport: PatientTransport())
            let provider = ClientCredentialsProvider(endpoint: endpoint, secret: ClientSecret("SENTINEL_SECRET_wrong"))
            let error = try await #require(throws: OAuthError.self) { try await provider.accessToken() }
            #expect(error.code == .invalidClient, "\(error.message)")
            #expect(!String(describing: error).contains("SENTINEL_SECRET"))
        }
    }
}

/// A static token that says which scopes it carries.
struct ScopedTokens: AccessTokenProvider {
    let token: AccessToken
    let scopes: Set<String>
    func accessToken() async throws -> AccessToken { token }
    func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken { token }
    func accessToken(for apiBaseURL: URL, scopes needed: [String]) async throws -> AccessToken {
        try SpotifyAPIError.requireScope(of: needed, granted: scopes)
        return token
    }
}
