import Foundation
import PostgresTestServer
@_spi(Storage) import SpotifyLinkPostgres
import Testing

@_spi(Storage) @testable import SpotifyAuth

/// The sealed PostgreSQL token store as a subject of the token stores' contract; its own tests
/// are `SpotifyLinkPostgresTests`'.
enum PostgresTokenStoreUnderTest {
    /// The conformance suite's subject: a user of its own, so runs never meet; `nil` without a server.
    static func subject() -> StoreUnderTest? {
        guard TestPostgres.url != nil else { return nil }
        return StoreUnderTest(
            name: "PostgreSQL, sealed", readsBytes: true,
            make: {
                let keys = try TokenSealingKeys(parsing: "k1:\(TestPostgres.newKey())")
                return (try await TestPostgres.tokenStore(user: "conformance-\(UUID())", keys: keys), {})
            },
            otherProcessTakesLock: { store, key in
                // The same user's store in another pool (another process), which gives up at once.
                let user = try #require(store as? PostgresTokenStore).user
                let other = try await TestPostgres.tokenStore(
                    user: user, keys: try TokenSealingKeys(parsing: "k1:\(TestPostgres.newKey())"),
                    client: try await TestPostgres.otherProcess.value,
                    lockWait: .milliseconds(1))
                return try await other.acquireLock(key)
            })
    }
}
