import AppAttest
import Crypto
import Foundation
import HTTPTypes
import PostgresTestServer
import SpotifySearchService
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Testing

@Suite("spotlink-search: its configuration and its process")
struct SearchServiceCommandTests {
    let required = [
        "SPOTIFY_CLIENT_ID": "search", "SPOTIFY_CLIENT_SECRET": "SENTINEL_SECRET_cfg",
        "SPOTLINK_SEARCH_APP_IDS": "ABCDE12345.dev.spotifylink.learning",
    ]

    @Test func theFileIsReadAndTheEnvironmentWins() throws {
        let folder = temporaryFile("search-config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let secretFile = folder.appendingPathComponent("secret")
        try Data("SENTINEL_SECRET_file\n".utf8).write(to: secretFile)
        let file = folder.appendingPathComponent("search.json")
        try JSONSerialization.data(withJSONObject: [
            "clientID": "from-file", "clientSecretFile": secretFile.path, "port": 9000, "dailyShare": 120,
            "appIDs": ["ABCDE12345.dev.spotifylink.learning", "ZZZZZ99999.dev.other"], "allowDevelopmentKey": false,
            "environments": "production,development", "market": "jp",
        ]).write(to: file)
        let configuration = try SearchServiceConfiguration.load(
            file: file, environment: ["SPOTLINK_SEARCH_DAILY_SHARE": "80", "HOME": "/ignored"])
        #expect(configuration.clientID == "from-file")
        #expect(configuration.clientSecret.unredactedValue == "SENTINEL_SECRET_file")
        #expect(configuration.port == 9000 && configuration.dailyShare == 80 && configuration.market == "JP")
        #expect(
            configuration.appIDs.map(\.description) == ["ABCDE12345.dev.spotifylink.learning", "ZZZZZ99999.dev.other"])
        #expect(configuration.environments == [.production, .development])
        #expect(!configuration.allowDevelopmentKey)
        #expect(!"\(configuration)".contains("SENTINEL_SECRET"))
    }

    @Test(arguments: [
        (["SPOTIFY_CLIENT_ID": ""], "SPOTIFY_CLIENT_ID"),
        (["SPOTIFY_CLIENT_SECRET": ""], "SPOTIFY_CLIENT_SECRET"),
        (["SPOTLINK_SEARCH_APP_IDS": "dev.spotifylink.learning"], "SPOTLINK_SEARCH_APP_IDS"),
        (["SPOTLINK_SEARCH_PORT": "http"], "SPOTLINK_SEARCH_PORT"),
        (["SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY": "1"], "SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY"),
        (["SPOTLINK_SEARCH_DEVELOPMENT_KEY": "c2hvcnQ="], "SPOTLINK_SEARCH_DEVELOPMENT_KEY"),
        (["SPOTLINK_SEARCH_ENVIRONMENTS": "staging"], "SPOTLINK_SEARCH_ENVIRONMENTS"),
        (["SPOTLINK_SEARCH_SPOTIFY_URL": "ftp://x"], "SPOTLINK_SEARCH_SPOTIFY_URL"),
        (["SPOTLINK_SEARCH_MARKET": "Japan"], "SPOTLINK_SEARCH_MARKET"),
        (["SPOTLINK_SEARCH_POSTGRES_URL": "mysql://u:SENTINEL_SECRET_pw@h/db"], "SPOTLINK_SEARCH_POSTGRES_URL"),
        (["SPOTLINK_SEARCH_POSTGRES_URL_FILE": "/nonexistent/url"], "SPOTLINK_SEARCH_POSTGRES_URL_FILE"),
    ])
    func aSettingThatCannotRunNamesItselfAndWhatToDo(change: [String: String], setting: String) throws {
        let error = try #require(throws: SearchServiceConfigurationError.self) {
            try SearchServiceConfiguration.load(file: nil, environment: required.merging(change) { $1 })
        }
        #expect(error.setting == setting, "\(error)")
        #expect(!error.message.isEmpty && !error.description.contains("SENTINEL_SECRET"))
    }

    @Test func anUnknownFileSettingIsRefused() throws {
        let file = temporaryFile("search-config-unknown.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"clientSecret": "SENTINEL_SECRET_inline"}"#.utf8).write(to: file)
        let error = try #require(throws: SearchServiceConfigurationError.self) {
            try SearchServiceConfiguration.load(file: file, environment: required)
        }
        #expect(error.setting == "clientSecret" && !error.description.contains("SENTINEL_SECRET"))
    }

    /// The one-line start the README gives, as a real process: it serves a simulator signed with
    /// the development key it wrote, refuses an unsigned request, and stops gracefully on SIGTERM.
    @Test func theEmulatorOneLinerServesAndStopsOnSIGTERM() async throws {
        let folder = temporaryFile("search-command")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await Self.serveAndStop(folder: folder, postgresURL: nil)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("search.sqlite").path))
    }

    #if PostgreSQL
        /// The same process with its state in PostgreSQL: the pool runs beside the server and stops
        /// after it; no SQLite file is made.
        @Test(.enabled(if: TestPostgres.url != nil, TestPostgres.skipReason))
        func withPostgreSQLItServesAndStopsOnSIGTERM() async throws {
            let folder = temporaryFile("search-command-postgres")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try await withFreshSearchDatabase { url in
                try await Self.serveAndStop(folder: folder, postgresURL: url)
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("search.sqlite").path))
        }
    #endif

    static func serveAndStop(folder: URL, postgresURL: String?) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SPOTLINK_SEARCH_PORT"] = "0"
        environment["SPOTLINK_SEARCH_DATABASE"] = folder.appendingPathComponent("search.sqlite").path
        environment["SPOTLINK_SEARCH_POSTGRES_URL"] = postgresURL
        let child = try LineChild("spotlink-search", ["--emulator"], environment: environment)
        defer { child.stop() }
        let line = try await child.waitFor(prefix: "spotlink-search listening on ")
        let base = String(line.dropFirst("spotlink-search listening on ".count))
        let key = try String(
            contentsOf: folder.appendingPathComponent("spotlink-search-development.key"), encoding: .utf8)
        let http = TestHTTP()
        #expect(try await http.send(.get, URL(string: base + "/health/ready")!).status == 200)
        #expect(try await http.send(.get, URL(string: base + "/v1/search?q=a")!).status == 401)
        let challengeAnswer = try await http.send(.post, URL(string: base + "/v1/attest/challenge")!)
        let challenge = try #require(
            (try JSONSerialization.jsonObject(with: challengeAnswer.body) as? [String: Any])?["challenge"] as? String)
        let data = SearchServiceSignature.clientData(
            method: "GET", path: "/v1/search", query: [("q", "さくら")], challenge: challenge)
        let mac = HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: Data(base64Encoded: key)!))
        let answer = try await http.send(
            .get, URL(string: base + "/v1/search?q=%E3%81%95%E3%81%8F%E3%82%89")!,
            headers: [
                "SpotifyLink-Development": Data(mac).base64EncodedString(), "SpotifyLink-Device": "simulator",
                "SpotifyLink-Challenge": challenge,
            ])
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        child.terminate()
        try await child.waitFor("spotlink-search stopped")
        #expect(try await child.exitStatus() == 0)
        #expect(!child.printed.joined().contains(key.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
