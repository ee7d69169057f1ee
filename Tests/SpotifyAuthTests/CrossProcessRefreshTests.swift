import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

@Suite("An app and its extension refreshing one sign-in, as two real processes", .serialized)
struct CrossProcessRefreshTests {
    /// Two processes hold the same sign-in in a shared token folder and refresh at the same moment,
    /// with Spotify's pre-2026 rotation on (a replayed refresh token revokes the sign-in). The
    /// folder's lock lets one refresh; the other re-reads under the lock and takes its tokens. No
    /// sign-in is lost, and one refresh is sent.
    @Test func twoProcessesRacingARefreshLoseNoSignIn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = EmulatorConfiguration()
        configuration.refreshRotation = .rotate
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let server = AuthorizationServer.emulator(url: emulator.baseURL)
            let app = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"),
                store: FileTokenStore(directory: folder))
            try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: app) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            let before = await emulator.requestCount("POST /api/token")
            let children = try (0..<2).map { _ in
                try LineChild("RefreshRaceChild", [folder.path, emulator.baseURL.absoluteString])
            }
            for child in children { try await child.waitFor("ready") }
            for child in children { child.send("go") }
            for child in children {
                #expect(try await child.exitStatus() == 0, "\(child.printed)")
                #expect(child.printed.contains("refreshed"))
            }
            #expect(await emulator.requestCount("POST /api/token") - before == 1)
            // The sign-in lives on: a third process refreshes what the folder holds, and calls Spotify.
            let later = SpotifySession(
                endpoint: TokenEndpoint(server: server, clientID: "spotlink-demo"),
                store: FileTokenStore(directory: folder))
            let stored = try #require(try await later.tokens())
            _ = try await later.refreshedAccessToken(replacing: stored.accessToken)
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: later, transport: PatientTransport())
            #expect(try await client.currentUser().id == "emu-user")
        }
    }
}
