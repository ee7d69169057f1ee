import Foundation
import Logging
package import PostgresNIO
@_spi(Storage) package import SpotifyLinkPostgres
package import SpotifyWebAPI

/// The PostgreSQL server `scripts/with-postgres.sh` started for this run, if any: one helper for
/// the test targets that reach it (the storage contracts' suites in `PlaylistLinksTests` and
/// `SpotifyAuthTests`, and `SpotifyLinkPostgresTests`), instead of a copy in each.
package enum TestPostgres {
    /// The server's URL, from `SPOTLINK_POSTGRES_URL`; `nil` when the run has no server.
    package static let url = ProcessInfo.processInfo.environment["SPOTLINK_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }
    /// CI sets it: there, a missing server is a failure, not a skip.
    package static let required = ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_POSTGRES"] == "1"

    /// What a test that needs the server throws when the run has none, or a URL it cannot use.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// The server's URL, or the error that says how to give one.
    package static func requiredURL() throws -> String {
        guard let url else {
            throw Unavailable(description: "SPOTLINK_POSTGRES_URL is not set: run under scripts/with-postgres.sh")
        }
        return url
    }

    /// A running client of the server (its `run()` lives as long as the test process), one per
    /// call: separate pools, as separate processes would have.
    package static func client() throws -> PostgresClient {
        let client = PostgresClient(
            configuration: try PostgresURL.configuration(try requiredURL()),
            backgroundLogger: Logger(label: "test.postgres"))
        Task.detached { await client.run() }
        return client
    }

    /// The client every store of the run shares, after the migration.
    package static let shared: Task<PostgresClient, any Error> = Task {
        try await PostgresSchema.migrate(try requiredURL())
        return try client()
    }

    /// A second pool, standing for another server process.
    package static let otherProcess: Task<PostgresClient, any Error> = Task {
        _ = try await shared.value
        return try client()
    }

    /// User `user`'s link store on the shared client.
    package static func linkStore(
        user: String, clock: any SpotifyClock, coverCacheLimit: Int = 20 * 1024 * 1024
    ) async throws -> PostgresPlaylistLinkStore {
        try PostgresPlaylistLinkStore(
            client: try await shared.value, user: user, clock: clock, coverCacheLimit: coverCacheLimit)
    }

    /// User `user`'s sealed token store, on the shared client unless `client` is given.
    package static func tokenStore(
        user: String, keys: TokenSealingKeys, client: PostgresClient? = nil, lockWait: Duration = .seconds(30)
    ) async throws -> PostgresTokenStore {
        let pool: PostgresClient
        if let client { pool = client } else { pool = try await shared.value }
        return try PostgresTokenStore(client: pool, user: user, keys: keys, lockWait: lockWait)
    }

    /// 32 random bytes in base64: a sealing key.
    package static func newKey() -> String {
        Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    }

    /// A database of its own, empty, for tests that change the schema: its URL, and how to drop it.
    package static func freshDatabase(prefix: String = "spotlink") async throws -> (
        url: String, drop: @Sendable () async throws -> Void
    ) {
        let admin = try await shared.value
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        guard var components = URLComponents(string: try requiredURL()) else {
            throw Unavailable(description: "SPOTLINK_POSTGRES_URL is not a URL")
        }
        components.path = "/\(name)"
        guard let url = components.string else { throw Unavailable(description: "no URL for database \(name)") }
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        return (url, { try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")) })
    }
}
