import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyWebAPI

@Suite("403 variants and 401 variants as the live service sends them in 2026")
struct RefusalTests {
    @Test(arguments: [
        // A user not on the allow list gets plain text, not JSON.
        (
            ScriptedTransport.Reply.response(
                status: 403, body: Data("User not registered in the Developer Dashboard".utf8)),
            SpotifyAPIError.Code.userNotRegistered, "User Management"
        ),
        (
            .apiError(403, "Active premium subscription required for the owner of the app"), .ownerPremiumRequired,
            "resubscribes"
        ),
        (.apiError(403, "Insufficient client scope"), .missingScope, "user-read-currently-playing"),
        (.response(status: 403), .forbidden, "refused access"),
        (.json("{}", status: 403), .forbidden, "refused access"),
    ])
    func eachKindIsTypedExplainedAndNotRetried(reply: ScriptedTransport.Reply, code: SpotifyAPIError.Code, says: String)
        async throws
    {
        let transport = ScriptedTransport([reply])
        let tokens = CountingTokenProvider()
        let error = try await #require(throws: SpotifyAPIError.self) {
            try await makeClient(transport, tokens: tokens).currentlyPlaying()
        }
        #expect(error.code == code)
        #expect(error.status == 403)
        #expect(error.message.contains(says), "\(error.message)")
        #expect(error.isRefusal)
        #expect(transport.requests.count == 1)
        #expect(tokens.refreshes == 0)
    }

    @Test(arguments: [ScriptedTransport.Reply.apiError(403, "Forbidden"), .response(status: 403)])
    func aPlaylistTheUserDoesNotOwnSaysSoAndKeepsTheDetails(reply: ScriptedTransport.Reply) async throws {
        let transport = ScriptedTransport([reply])
        let error = try await #require(throws: SpotifyAPIError.self) {
            try await makeClient(transport).playlistEntries(try SpotifyID("4rOoJ6Egrf8K2IrywzwOMk"))
        }
        #expect(error.code == .playlistNotOwned)
        #expect(!error.refusesAccount)
        #expect(error.message.contains("own or collaborate on"))
    }

    @Test func aScopeTheSignInLacksFailsBeforeSendingAndNamesIt() async throws {
        let transport = ScriptedTransport([])
        let tokens = CountingTokenProvider(scopes: ["playlist-read-private"])
        let error = try await #require(throws: SpotifyAPIError.self) {
            try await makeClient(transport, tokens: tokens).currentlyPlaying()
        }
        #expect(error.code == .missingScope)
        #expect(error.scope == "user-read-currently-playing")
        #expect(error.message.contains("only a new sign-in adds one"))
        #expect(transport.requests.isEmpty)
        // One of the accepted scopes is enough.
        let granted = CountingTokenProvider(scopes: ["user-read-playback-state"])
        #expect(
            try await makeClient(ScriptedTransport([.response(status: 204)]), tokens: granted).currentlyPlaying() == nil
        )
    }

    @Test func aTransient401IsRetriedAfterAPauseWithTheSameTokenBeforeAnyRefresh() async throws {
        let transport = ScriptedTransport([
            .apiError(401, "Access token missing"), .apiError(401, "Access token missing"), .json(meJSON),
        ])
        let clock = VirtualClock(mode: .automatic)
        let tokens = CountingTokenProvider()
        #expect(try await makeClient(transport, clock: clock, tokens: tokens).currentUser().id == "tester")
        #expect(tokens.refreshes == 0)
        #expect(clock.totalSlept == .seconds(3))
        #expect(
            transport.requests.map { $0.headerFields[.authorization] }
                == Array(repeating: "Bearer SENTINEL_AT_1", count: 3))
    }

    @Test func pastTheBoundedPausesATransient401LeadsToOneRefresh() async throws {
        let transport = ScriptedTransport([
            .apiError(401, "Access token missing"), .apiError(401, "Access token missing"),
            .apiError(401, "Access token missing"), .json(meJSON),
        ])
        let clock = VirtualClock(mode: .automatic)
        let tokens = CountingTokenProvider()
        #expect(try await makeClient(transport, clock: clock, tokens: tokens).currentUser().id == "tester")
        #expect(tokens.refreshes == 1)
        #expect(transport.requests.last?.headerFields[.authorization] == "Bearer SENTINEL_AT_2")
    }

    @Test func aSecond401AfterARefreshKeepsTheSignInAndSaysToTryAgain() async throws {
        let transport = ScriptedTransport([
            .apiError(401, "The access token expired"), .apiError(401, "Invalid access token"),
        ])
        let error = try await #require(throws: SpotifyAPIError.self) { try await makeClient(transport).currentUser() }
        #expect(error.code == .unauthorized)
        #expect(error.message.contains("The sign-in is kept"))
        #expect(!error.message.contains("Sign in again"))
    }
}
