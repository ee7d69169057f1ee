import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

extension SpotLinkCommandTests {
    /// The learning app's commands, signed in and app-only.
    @Suite("spotlink search, saved and top")
    struct Search {
        @Test func theLearningAppsCommands() async throws {
            let cli = try SpotLinkBinary()
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                #expect(try await cli.login(common).status == 0)
                // Saved and top tracks need scopes the default sign-in does not ask for.
                let unscoped = try await cli.run(["library", "tracks"] + common)
                #expect(
                    unscoped.status == 3 && unscoped.stderr.contains("spotlink login --scope user-library-read"),
                    "\(unscoped.stderr)")
                #expect(await emulator.totalRequests(prefix: "GET /v1/me/tracks") == 0)
                let login = try await cli.login(["--scope", "user-library-read", "--scope", "user-top-read"] + common)
                #expect(login.status == 0, "\(login.stderr)")

                let search = try await cli.run(["search", "さくら", "--type", "track", "--json"] + common)
                #expect(search.status == 0, "\(search.stderr)")
                // Links are printed as links: no escaped slashes.
                #expect(search.stdout.contains("https://open.spotify.com/track/") && !search.stdout.contains("\\/"))
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])
                let first = try #require((object["tracks"] as? [[String: Any]])?.first)
                #expect(first["name"] as? String == "さくら色の朝")
                #expect(first["preview_url"] is NSNull)
                let uri = try #require(first["uri"] as? String)
                let text = try await cli.run(["search", "ハルカゼ", "--type", "track"] + common)
                #expect(
                    text.status == 0 && text.stdout.contains("ハルカゼ") && text.stdout.contains("ひかり · 3:07"),
                    "\(text.stdout)"
                )

                let show = try await cli.run(["track", "show", uri] + common)
                #expect(
                    show.status == 0 && show.stdout.contains("さくら色の朝")
                        && show.stdout.contains("Open in Spotify: https://open.spotify.com/track/"))
                #expect(
                    try await cli.run(["track", "show", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"] + common).status == 2
                )

                let me = try await cli.run(["me", "--json"] + common)
                #expect(me.status == 0 && me.stdout.contains("\"account_id\":\"acct-emu-user\""), "\(me.stdout)")
                let saved = try await cli.run(["library", "tracks", "--limit", "5", "--json"] + common)
                #expect(saved.status == 0 && saved.stdout.contains("\"total\":25"), "\(saved.stdout) \(saved.stderr)")
                let top = try await cli.run(["top", "tracks", "--range", "short", "--limit", "3"] + common)
                #expect(
                    top.status == 0 && top.stdout.split(separator: "\n").first?.contains("夜明けのうた") == true,
                    "\(top.stdout)")
                let artists = try await cli.run(["top", "artists", "--json"] + common)
                #expect(artists.status == 0 && artists.stdout.contains("j-pop"))

                let open = try await cli.run(["open", "track", uri, "--uri"] + common)
                #expect(open.status == 0 && open.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == uri)
                let openPlaylist = try await cli.run([
                    "open", "playlist", "https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n?si=x",
                ])
                #expect(openPlaylist.stdout.contains("https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n"))
                #expect(try await cli.run(["open", "track"] + common).status == 2)

                // Complete JSON: every one of 10,000 entries.
                let archive = try #require(await emulator.playlists().first { $0.name == "Everything Archive" }).id
                let big = try await cli.run(["playlist", "show", archive, "--json"] + common)
                let bigObject = try #require(
                    try JSONSerialization.jsonObject(with: Data(big.stdout.utf8)) as? [String: Any])
                #expect((bigObject["entries"] as? [Any])?.count == 10_000)
                // Said before the read, on stderr: what it costs of the quota.
                #expect(
                    big.stderr.contains("Reading all 10000 entries sends 200 requests to Spotify ("), "\(big.stderr)")
            }
        }

        @Test func appOnlySearchUsesTheClientSecretFromTheEnvironment() async throws {
            var configuration = EmulatorConfiguration()
            configuration.clients = [
                .init(id: "learning-tool", redirectURIs: ["http://127.0.0.1/callback"], secret: "SENTINEL_SECRET_x:y")
            ]
            try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
                var cli = try SpotLinkBinary()
                let common = [
                    "--emulator", emulator.baseURL.absoluteString, "--client-id", "learning-tool", "--verbose",
                ]
                let missing = try await cli.run(["search", "ともだち", "--type", "track", "--app-only"] + common)
                #expect(missing.status == 2 && missing.stderr.contains("SPOTIFY_CLIENT_SECRET"))
                cli.extraEnvironment["SPOTIFY_CLIENT_SECRET"] = "SENTINEL_SECRET_x:y"
                let found = try await cli.run(["search", "ともだち", "--type", "track", "--app-only"] + common)
                #expect(found.status == 0 && found.stdout.contains("ともだち"), "\(found.stderr)")
                #expect(!(found.stdout + found.stderr).contains("SENTINEL_SECRET"))
                #expect(await emulator.requestCount("POST /api/token") == 1)
            }
        }
    }
}
