import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

#if PostgreSQL
    @Suite(
        "spotlink with its sign-in in PostgreSQL", .serialized,
        .enabled(
            if: ProcessInfo.processInfo.environment["SPOTLINK_POSTGRES_URL"] != nil,
            "no PostgreSQL: run under scripts/with-postgres.sh"))
    struct PostgresStoreCLITests {
        /// `login --store postgres` keeps the sign-in sealed in the database: the next commands use it
        /// from there, nothing lands in the config folder, no output shows a token or the key, the
        /// wrong key is refused with the fix and the sign-in kept, and `logout` removes it.
        @Test func loginKeepsTheSignInSealedInTheDatabase() async throws {
            let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            var cli = try SpotLinkBinary()
            cli.extraEnvironment = [
                "SPOTLINK_POSTGRES_URL": try #require(ProcessInfo.processInfo.environment["SPOTLINK_POSTGRES_URL"]),
                "SPOTLINK_TOKEN_KEYS": "cli-1:\(key)", "SPOTLINK_POSTGRES_USER": "cli-\(UUID())",
            ]
            try await withEmulator { (emulator: EmulatorServer) async throws in
                let common = ["--emulator", emulator.baseURL.absoluteString]
                let login = try await cli.login(["--store", "postgres"] + common)
                #expect(login.status == 0, "\(login.stderr)")
                #expect(login.stdout.contains("PostgreSQL database postgres://"), "\(login.stdout)")
                #expect(login.stdout.contains("sealed with key “cli-1”"), "\(login.stdout)")
                let playlists = try await cli.run(["playlists"] + common)
                #expect(playlists.status == 0, "\(playlists.stderr)")
                let files = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path)
                #expect(!files.contains { $0.contains("tokens") }, "\(files)")
                for output in [login.stdout, login.stderr, playlists.stdout, playlists.stderr] {
                    #expect(!output.contains(key) && !output.contains("EMU_AT_") && !output.contains("EMU_RT_"))
                }
                // PostgresNIO's own messages (its connections opened and closed) stay behind --verbose.
                for output in [login.stderr, playlists.stderr] {
                    #expect(!output.contains("spotlink.postgres") && !output.contains(" info "), "\(output)")
                }

                var wrongKey = cli
                wrongKey.extraEnvironment["SPOTLINK_TOKEN_KEYS"] =
                    "cli-1:\(Data(repeating: 7, count: 32).base64EncodedString())"
                let refused = try await wrongKey.run(["playlists"] + common)
                #expect(refused.status != 0)
                #expect(refused.stderr.contains("another key") && refused.stderr.contains("kept"), "\(refused.stderr)")
                #expect(try await cli.run(["playlists"] + common).status == 0, "the sign-in was kept")

                let logout = try await cli.run(["logout"] + common)
                #expect(logout.status == 0, "\(logout.stderr)")
                #expect(logout.stdout.contains("PostgreSQL"), "\(logout.stdout)")
                #expect(try await cli.run(["status"] + common).status == 3)
            }
        }

        /// Without the database's URL or the keys, the store is refused as a usage error that names
        /// what to set, before any browser.
        @Test func withoutTheURLOrTheKeysLoginSaysWhatToSet() async throws {
            var cli = try SpotLinkBinary()
            let noURL = try await cli.run([
                "login", "--no-browser", "--store", "postgres", "--emulator", "http://127.0.0.1:9",
            ])
            #expect(noURL.status == 2)
            #expect(noURL.stderr.contains("SPOTLINK_POSTGRES_URL") && !noURL.stderr.contains("Open this URL"))
            cli.extraEnvironment = ["SPOTLINK_POSTGRES_URL": "postgres://spotlink@/postgres?host=/nonexistent"]
            let noKeys = try await cli.run([
                "login", "--no-browser", "--store", "postgres", "--emulator", "http://127.0.0.1:9",
            ])
            #expect(noKeys.status == 2)
            #expect(noKeys.stderr.contains("SPOTLINK_TOKEN_KEYS is not set"), "\(noKeys.stderr)")
        }
    }
#else
    /// A spotlink built without the PostgreSQL trait (the default, so a first `swift run spotlink demo`
    /// builds no PostgresNIO) refuses `--store postgres` as a usage error that says how to build it
    /// in, before any browser or request; CI, which requires PostgreSQL, never runs this build.
    @Suite("spotlink without the PostgreSQL trait")
    struct PostgresStoreNotBuiltTests {
        @Test func theStoreIsRefusedWithTheBuildThatHasIt() async throws {
            #expect(
                ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_POSTGRES"] != "1",
                "SPOTLINK_REQUIRE_POSTGRES=1 but the tests were built without --traits PostgreSQL: the CLI's store is untested"
            )
            let cli = try SpotLinkBinary()
            let refused = try await cli.run([
                "login", "--no-browser", "--store", "postgres", "--emulator", "http://127.0.0.1:9",
            ])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--traits PostgreSQL"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("Open this URL"), "\(refused.stderr)")
        }
    }
#endif
