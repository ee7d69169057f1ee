import Foundation
import SpotifyTesting
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

@Suite("Accounts keyed by account_id")
struct AccountTests {
    /// A token file exactly as the previous version wrote it: no account.
    static let writtenByTheLastVersion = #"""
        {"accessToken":"SENTINEL_AT_OLD","clientID":"spotlink-demo","expiresAt":1790003600,"issuer":"https://accounts.spotify.com","refreshToken":"SENTINEL_RT_OLD","scopes":["playlist-read-private"],"signedInAt":1790000000,"version":1}
        """#

    @Test func aTokenFileOfTheLastVersionLoadsAndLearnsItsAccount() async throws {
        let folder = temporaryDirectory()
        let store = FileTokenStore(directory: folder)
        let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "spotlink-demo")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent(key.fileName("json"))
        try Data(Self.writtenByTheLastVersion.utf8).write(to: file)
        chmod(file.path, 0o600)
        let loaded = try await #require(try store.load(key))
        #expect(loaded.account == nil)
        #expect(loaded.refreshToken?.unredactedValue == "SENTINEL_RT_OLD")

        let session = SpotifySession(
            endpoint: TokenEndpoint(server: .live, clientID: "spotlink-demo"), store: store, clock: VirtualClock())
        let user = CurrentUser(id: "old-name", displayName: "Ana", accountID: "acct-42")
        #expect(try await session.remember(user))
        // Unchanged: not written again.
        #expect(try await !session.remember(user))
        let reread = try await #require(try FileTokenStore(directory: folder).load(key))
        #expect(reread.account == SpotifyAccount(user))
        #expect(reread.account?.accountID == "acct-42")
        #expect(reread.refreshToken?.unredactedValue == "SENTINEL_RT_OLD")
        // The user ID may change; the account stays the same key.
        let renamed = CurrentUser(id: "new-name", displayName: "Ana", accountID: "acct-42")
        #expect(try await session.remember(renamed))
        await #expect(try FileTokenStore(directory: folder).load(key)?.account?.accountID == "acct-42")
        await #expect(try FileTokenStore(directory: folder).load(key)?.account?.userID == "new-name")
    }

    @Test func withoutAnAccountIDTheUserIDStandsInVisibly() {
        #expect(SpotifyAccount(CurrentUser(id: "u1", displayName: nil, accountID: nil)).accountID == "id:u1")
    }
}
