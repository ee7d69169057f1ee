import Foundation
import HTTPTypes
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@_spi(Transport) @testable import SpotifyWebAPI

let testKey = SpotifyAppKey(issuer: emulatorServer.issuer, clientID: "spotlink-demo")

func storedTokens(
    access: String = "SENTINEL_AT_old", refresh: String? = "SENTINEL_RT_1", expiresIn: TimeInterval = 3600,
    clock: VirtualClock
) -> StoredTokens {
    StoredTokens(
        accessToken: AccessToken(access), refreshToken: refresh.map(RefreshToken.init),
        expiresAt: clock.now.addingTimeInterval(expiresIn), scopes: SpotifyScope.all, signedInAt: clock.now,
        issuer: emulatorServer.issuer, clientID: "spotlink-demo")
}

func session(_ transport: ScriptedTransport, store: any TokenStore = MemoryTokenStore(), clock: VirtualClock)
    -> SpotifySession
{
    SpotifySession(
        endpoint: TokenEndpoint(server: emulatorServer, clientID: "spotlink-demo", transport: transport, clock: clock),
        store: store, clock: clock)
}

@Suite("Token endpoint answers (checklist rows 16–22)")
struct TokenEndpointTests {
    let clock = VirtualClock()

    func parse(_ body: String, status: Int = 200) throws -> TokenResponseParser.Parsed {
        try TokenResponseParser.parse(status: status, body: Data(body.utf8), receivedAt: clock.now)
    }

    @Test func lowercaseBearerAndUnknownFields() throws {
        let parsed = try parse(#"{"access_token":"SENTINEL_AT_1","token_type":"bearer","expires_in":3600,"x":{"y":1}}"#)
        #expect(parsed.accessToken.unredactedValue == "SENTINEL_AT_1")
    }

    @Test(arguments: [200, 400])
    func invalidGrantIsAnErrorWhateverTheStatus(status: Int) {
        #expect {
            try parse(#"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#, status: status)
        } throws: { error in
            (error as? OAuthError)?.code == .invalidGrant
        }
    }

    @Test(arguments: [
        #"{"token_type":"Bearer"}"#, #"{"access_token":""}"#, #"{"access_token":42}"#, #"{"access_token":null}"#,
    ])
    func missingOrBadAccessTokenIsMalformed(body: String) {
        #expect {
            try parse(body)
        } throws: { error in
            (error as? OAuthError)?.code == .malformedResponse
        }
    }

    @Test(arguments: [
        ("3600", 3570.0), (#""3600""#, 3570.0), ("0", 0.0), ("-5", 0.0), ("1e30", 86370.0),
    ])
    func expiresInNumbersAndStrings(value: String, seconds: Double) throws {
        let parsed = try parse(#"{"access_token":"a","expires_in":\#(value)}"#)
        #expect(parsed.expiresAt == clock.now.addingTimeInterval(seconds))
    }

    @Test func absentOrNullMeansRefreshOn401() throws {
        #expect(try parse(#"{"access_token":"a"}"#).expiresAt == nil)
        #expect(try parse(#"{"access_token":"a","expires_in":null}"#).expiresAt == nil)
    }

    @Test(arguments: ["false", #""soon""#, "[1]"])
    func wrongTypesAreRejected(value: String) {
        #expect(throws: OAuthError.self) { try parse(#"{"access_token":"a","expires_in":\#(value)}"#) }
    }

    @Test(arguments: [
        ScriptedTransport.Reply.json("<html><h1>502 Bad Gateway</h1></html>", status: 502),
        .json(#"{"access_token":"SENTINEL_AT_x","#), .failure(.transport("the connection was lost (reset)")),
        .failure(.timedOut),
    ])
    func transientFailuresKeepStoredTokens(reply: ScriptedTransport.Reply) async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        let original = storedTokens(expiresIn: 10, clock: clock)
        try await store.save(original, for: testKey)
        let subject = session(ScriptedTransport([reply]), store: store, clock: clock)
        await #expect {
            try await subject.accessToken()
        } throws: { error in
            (error as? OAuthError)?.code == .transient
        }
        await #expect(try store.load(testKey) == original)
        #expect(await subject.status == .signedIn)
    }

    @Test func oversizedBodyIsRefused() async throws {
        let clock = VirtualClock()
        let huge = #"{"access_token":"a","pad":""# + String(repeating: "x", count: 1_100_000) + "\"}"
        let endpoint = TokenEndpoint(
            server: emulatorServer, clientID: "c", transport: ScriptedTransport([.json(huge)]), clock: clock)
        await #expect {
            try await endpoint.refresh(storedTokens(clock: clock))
        } throws: { error in
            (error as? OAuthError)?.code == .transient
        }
    }

    @Test func narrowerGrantedScopesAreStored() async throws {
        let clock = VirtualClock()
        let endpoint = TokenEndpoint(
            server: emulatorServer, clientID: "c",
            transport: ScriptedTransport([
                .json(#"{"access_token":"a","scope":"playlist-read-private","expires_in":3600}"#)
            ]), clock: clock)
        let refreshed = try await endpoint.refresh(storedTokens(clock: clock))
        #expect(refreshed.scopes == ["playlist-read-private"])
    }
}

@Suite("Refresh lifecycle (checklist rows 23–25, 28)")
struct RefreshTests {
    @Test func invalidGrantRemovesTokensAndNeedsSignIn() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: 10, clock: clock), for: testKey)
        let transport = ScriptedTransport([
            .json(#"{"error":"invalid_grant","error_description":"Refresh token expired"}"#, status: 400)
        ])
        let subject = session(transport, store: store, clock: clock)
        await #expect {
            try await subject.accessToken()
        } throws: { error in
            (error as? OAuthError)?.code == .needsSignIn
        }
        await #expect(try store.load(testKey) == nil)
        guard case .needsSignIn = await subject.status else { Issue.record("status"); return }
        // No retry loop: the next call fails at once without a request.
        await #expect(throws: OAuthError.self) { try await subject.accessToken() }
        #expect(transport.requests.count == 1)
    }

    /// The PKCE refresh grant of 2026 sends no refresh token, and stacks that copy the field blindly
    /// send `null` or `""`; none of these replaces the stored one. Nor does a missing, `null` or empty
    /// `scope` replace the stored scopes.
    @Test(arguments: [
        "", #","refresh_token":null"#, #","refresh_token":"""#, #","scope":null"#, #","scope":"""#,
        #","refresh_token":"","scope":"""#,
    ])
    func aRefreshAnswerWithoutRefreshTokenOrScopeKeepsTheStoredOnes(extra: String) async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: 10, clock: clock), for: testKey)
        let subject = session(
            ScriptedTransport([
                .json(#"{"access_token":"SENTINEL_AT_new","token_type":"Bearer","expires_in":3600"# + extra + "}")
            ]),
            store: store, clock: clock)
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_new")
        let stored = try await #require(try store.load(testKey))
        #expect(stored.refreshToken?.unredactedValue == "SENTINEL_RT_1")
        #expect(stored.scopes == SpotifyScope.all)
    }

    /// A new sign-in replaces every stored token, even where its answer lacks one: the old refresh
    /// token is never sent again (a refresh falls back on nothing and asks for a sign-in instead).
    @Test func aNewSignInReplacesEveryStoredTokenAndTheOldRefreshTokenIsNeverSentAgain() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        var old = storedTokens(clock: clock)
        old.account = SpotifyAccount(try JSONDecoder().decode(CurrentUser.self, from: Data(#"{"id":"old-user"}"#.utf8)))
        try await store.save(old, for: testKey)
        let transport = ScriptedTransport([
            .json(#"{"access_token":"SENTINEL_AT_3","token_type":"Bearer","expires_in":3600}"#)
        ])
        let subject = session(transport, store: store, clock: clock)
        _ = try await subject.tokens()
        var fresh = storedTokens(access: "SENTINEL_AT_2", refresh: "SENTINEL_RT_2", expiresIn: 10, clock: clock)
        fresh.scopes = ["user-top-read"]
        try await subject.signedIn(fresh)
        #expect(try await store.load(testKey) == fresh)
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_3")
        #expect(transport.requestBodies.count == 1)
        #expect(transport.requestBodies.allSatisfy { $0.contains("SENTINEL_RT_2") && !$0.contains("SENTINEL_RT_1") })

        // A sign-in whose answer had no refresh token leaves none: RT_1 and RT_2 are never sent.
        let bare = storedTokens(access: "SENTINEL_AT_4", refresh: nil, expiresIn: 10, clock: clock)
        try await subject.signedIn(bare)
        #expect(try await store.load(testKey)?.refreshToken == nil)
        clock.advance(by: .seconds(3600))
        await #expect(throws: OAuthError.self) { try await subject.accessToken() }
        #expect(transport.requestBodies.count == 1)
    }

    @Test func aNewRefreshTokenIsPersistedBeforeTheAccessTokenIsHandedOut() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: 10, clock: clock), for: testKey)
        let subject = session(
            ScriptedTransport([
                .json(#"{"access_token":"SENTINEL_AT_new","refresh_token":"SENTINEL_RT_2","expires_in":3600}"#)
            ]), store: store, clock: clock)
        _ = try await subject.accessToken()
        let stored = try await #require(try store.load(testKey))
        #expect(stored.refreshToken?.unredactedValue == "SENTINEL_RT_2")
        #expect(stored.accessToken.unredactedValue == "SENTINEL_AT_new")
    }

    @Test func fiftyConcurrentCallsRefreshOnce() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let gate = AsyncStream.makeStream(of: Void.self)
        let transport = ScriptedTransport { _, _ in
            for await _ in gate.stream { break }
            // As a real transport does: a cancelled request ends without an answer.
            try Task.checkCancellation()
            return .json(#"{"access_token":"SENTINEL_AT_new","expires_in":3600}"#)
        }
        let subject = session(transport, store: store, clock: clock)
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<50 {
                group.addTask {
                    if index.isMultiple(of: 2) { return try await subject.accessToken().unredactedValue }
                    return try await subject.refreshedAccessToken(replacing: AccessToken("SENTINEL_AT_old"))
                        .unredactedValue
                }
            }
            // A cancelled waiter must not cancel the refresh.
            let cancelled = Task { try await subject.accessToken() }
            // Every caller, the one to be cancelled too, waits on the one refresh: seen, not assumed.
            try await waitUntil("51 callers wait for the refresh") { await subject.refreshWaiterCount == 51 }
            cancelled.cancel()
            gate.continuation.yield()
            gate.continuation.finish()
            var all: [String] = []
            for try await token in group { all.append(token) }
            _ = try? await cancelled.value
            return all
        }
        #expect(results.count == 50)
        #expect(Set(results) == ["SENTINEL_AT_new"])
        #expect(transport.requests.count == 1)
        #expect(await subject.refreshCount == 1)
    }

    @Test func proactiveRefreshSixtySecondsBeforeExpiry() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: 120, clock: clock), for: testKey)
        let transport = ScriptedTransport([.json(#"{"access_token":"SENTINEL_AT_new","expires_in":3600}"#)])
        let subject = session(transport, store: store, clock: clock)
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_old")
        clock.advance(by: .seconds(61))
        #expect(try await subject.accessToken().unredactedValue == "SENTINEL_AT_new")
        #expect(transport.requests.count == 1)
    }

    @Test func a401OnAnUnexpiredTokenRefreshesOnceThenFails() async throws {
        let clock = VirtualClock(mode: .automatic)
        let store = MemoryTokenStore()
        try await store.save(storedTokens(clock: clock), for: testKey)
        let accounts = ScriptedTransport { _, index in
            .json(#"{"access_token":"SENTINEL_AT_\#(index + 2)","expires_in":3600}"#)
        }
        let subject = session(accounts, store: store, clock: clock)
        let api = ScriptedTransport { _, _ in .apiError(401, "Invalid access token") }
        let client = SpotifyClient(
            configuration: .init(apiBaseURL: emulatorServer.apiBaseURL), tokens: subject, transport: api, clock: clock)
        await #expect {
            try await client.currentUser()
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .unauthorized
        }
        #expect(api.requests.count == 2)
        #expect(accounts.requests.count == 1)
    }

    @Test func theDaysLeftAreToldOnlyNearTheSixMonthLimit() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(clock: clock), for: testKey)
        let subject = session(ScriptedTransport([]), store: store, clock: clock)
        #expect(try await subject.daysUntilSignInEnds() == nil)
        clock.advance(by: .seconds(168 * 86400))
        #expect(try await subject.daysUntilSignInEnds() == nil)
        clock.advance(by: .seconds(7 * 86400))
        #expect(try await subject.daysUntilSignInEnds() == 8)
    }

    /// The session's status, followed by an app: the current one first, then each change.
    @Test func theStatusIsPublishedToEveryFollower() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        let subject = session(
            ScriptedTransport([
                .json(#"{"error":"invalid_grant","error_description":"Refresh token expired"}"#, status: 400)
            ]),
            store: store, clock: clock)
        var first = await subject.statusUpdates().makeAsyncIterator()
        var second = await subject.statusUpdates().makeAsyncIterator()
        #expect(await first.next() == .signedOut)
        _ = try await subject.tokens()
        #expect(await first.next() == .signedIn)
        await #expect(throws: OAuthError.self) { try await subject.accessToken() }
        #expect(await first.next() == .needsSignIn(.expired))
        #expect(await second.next() == .signedOut)
        #expect(await second.next() == .signedIn)
        #expect(await second.next() == .needsSignIn(.expired))
    }

    @Test func signOutRemovesOnlyThisIssuersTokens() async throws {
        let clock = VirtualClock()
        let store = MemoryTokenStore()
        let other = SpotifyAppKey(issuer: AuthorizationServer.live.issuer, clientID: "spotlink-demo")
        try await store.save(storedTokens(clock: clock), for: testKey)
        try await store.save(storedTokens(clock: clock), for: other)
        try await session(ScriptedTransport([]), store: store, clock: clock).signOut()
        await #expect(try store.load(testKey) == nil)
        await #expect(try store.load(other) != nil)
    }
}
