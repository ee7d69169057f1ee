import Foundation
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyAuth
import SpotifyEmulator
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Testing

/// Each layer's one error type matches by code in `catch`, and compares by code.
@Suite("Errors match by code")
struct ErrorMatchingTests {
    @Test func aMissingPlaylistIsCaughtByItsCode() async throws {
        try await withEmulator { emulator in
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(
                    AccessToken(await emulator.issueAccessToken(scopes: EmulatorServer.allScopes))),
                transport: PatientTransport(),
                clock: VirtualClock(mode: .automatic))
            var caught = "nothing"
            do {
                _ = try await client.playlist(try SpotifyID("0000000000000000000000"))
            } catch SpotifyAPIError.Code.unauthorized {
                caught = "unauthorized"
            } catch SpotifyAPIError.Code.notFound {
                caught = "notFound"
            }
            #expect(caught == "notFound")
        }
    }

    @Test func eachLayersCodeMatchesOnlyItsOwnErrors() {
        let stored: any Error = PlaylistLinksError(code: .invalidImport, message: "x")
        #expect(PlaylistLinksError.Code.invalidImport ~= stored)
        #expect(!(PlaylistLinksError.Code.database ~= stored))
        #expect(!(SpotifyAPIError.Code.notFound ~= stored))
        let token: any Error = TokenStoreError(code: .insecure, message: "chmod 700 /x")
        #expect(TokenStoreError.Code.insecure ~= token)
        #expect(!(OAuthError.Code.stateMismatch ~= token))
        #expect(PlaylistLinksError(code: .database, message: "a") == PlaylistLinksError(code: .database, message: "b"))
        #expect(
            PlaylistLinksError(code: .database, message: "a") != PlaylistLinksError(code: .invalidImport, message: "a"))
    }

    @Test func theEmulatorsOneErrorMatchesByCode() async throws {
        try await withEmulator { taken in
            var configuration = EmulatorConfiguration()
            configuration.port = try #require(taken.baseURL.port)
            var caught = "nothing"
            do {
                let second = try await EmulatorServer.start(configuration)
                await second.stop()
            } catch EmulatorError.Code.couldNotBind {
                caught = "couldNotBind"
            }
            #expect(caught == "couldNotBind")
        }
    }

    @Test func aTransportFailureIsTheWebAPILayersError() async throws {
        let client = SpotifyClient(
            configuration: .emulator(url: URL(string: "http://127.0.0.1:9")!),
            tokens: StaticAccessTokenProvider(AccessToken("t")),
            transport: ScriptedTransport { _, _ in .failure(.timedOut) }, clock: VirtualClock(mode: .automatic))
        await #expect(throws: SpotifyAPIError(code: .transport, message: "")) { try await client.currentUser() }
    }
}
