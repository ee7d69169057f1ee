import Foundation
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

/// Spotify postponed its February 2026 endpoint restrictions for client IDs created before
/// 2026-02-11: the emulator serves either kind (`spotify-emulator --client-created 2025-06-01`).
@Suite("Two kinds of client ID: created before 2026-02-11, or after")
struct ClientAgeTests {
    static func configuration(created: String?) throws -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        var client = EmulatorConfiguration.Client(
            id: "spotlink-demo", redirectURIs: ["http://127.0.0.1:4321/callback"], secret: nil, developer: "developer")
        if let created { client.created = try Date.ISO8601FormatStyle().year().month().day().parse(created) }
        configuration.clients = [client]
        return configuration
    }

    @Test(arguments: [nil, "2025-06-01"])
    func anOlderClientStillGetsWhatSpotifyPostponedRemoving(created: String?) async throws {
        let older = created != nil
        try await withEmulator(try Self.configuration(created: created)) { (emulator: EmulatorServer) async throws in
            let (access, _) = try await emulator.signIn()
            let me = try await http.json(emulator.url("v1/me"), token: access)
            #expect(me.status == 200 && me.object["account_id"] as? String == "acct-emu-user")
            for key in ["product", "email", "country", "explicit_content", "followers"] {
                #expect((me.object[key] != nil) == older, "\(key) on /me for \(created ?? "a new client")")
            }
            let search = try await http.json(
                emulator.url("v1/search", [("q", "a"), ("type", "track"), ("limit", "10")]), token: access)
            let items = try #require((search.object["tracks"] as? [String: Any])?["items"] as? [Any])
            let ids = items.compactMap { ($0 as? [String: Any])?["id"] as? String }
            let track = try #require(ids.first)
            // Removed in February 2026: 403 for a new client, as the 2026 reports show.
            let expected = older ? 200 : 403
            #expect(try await http.json(emulator.url("v1/users/emu-user"), token: access).status == expected)
            // Removed in February 2026, and answered 403 as the 2026 reports show (not 404).
            let several = try await http.json(emulator.url("v1/tracks", [("ids", track)]), token: access)
            #expect(several.status == (older ? 200 : 403))
            if older { #expect((several.object["tracks"] as? [[String: Any]])?.first?["id"] as? String == track) }
            #expect(try await http.json(emulator.url("v1/markets"), token: access).status == expected)
            // The single-ID read stays for both.
            #expect(try await http.json(emulator.url("v1/tracks/\(track)"), token: access).status == 200)
        }
    }
}
