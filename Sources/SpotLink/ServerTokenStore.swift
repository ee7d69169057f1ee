#if PostgreSQL
    import Foundation
    import Logging
    @_spi(Storage) import PlaylistLinks
    import PostgresNIO
    @_spi(Storage) import SpotifyAuth
    @_spi(Storage) import SpotifyLinkPostgres
    import SpotifyWebAPI

    /// `--store postgres`: the sign-in kept in a server's PostgreSQL database, sealed, as a tool or a
    /// small server beside the CLI keeps its users' sign-ins (`PostgresTokenStore`).
    ///
    /// The database is `SPOTLINK_POSTGRES_URL`; the sealing keys are `SPOTLINK_TOKEN_KEYS`, or the file
    /// `SPOTLINK_TOKEN_KEYS_FILE`; the sign-in is kept under the user key `SPOTLINK_POSTGRES_USER`,
    /// else the login name. The tables are brought up to date before the first call.
    struct ServerTokenStore: TokenStore {
        private let ready: Task<PostgresTokenStore, any Error>
        let kind: TokenStoreKind

        /// - Parameter logger: where PostgresNIO's own messages go: `--verbose`'s log, else nowhere.
        init(environment: [String: String], logger: Logger? = nil) throws {
            let logger = logger ?? Logger(label: "spotlink.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
            guard let url = environment["SPOTLINK_POSTGRES_URL"], !url.isEmpty else {
                throw CLIFailure(
                    "--store postgres needs SPOTLINK_POSTGRES_URL (postgres://user@host/database) and the sealing keys "
                        + "in SPOTLINK_TOKEN_KEYS or SPOTLINK_TOKEN_KEYS_FILE.", exitCode: 2)
            }
            let keys: TokenSealingKeys
            do {
                if let file = environment["SPOTLINK_TOKEN_KEYS_FILE"], !file.isEmpty {
                    keys = try TokenSealingKeys(contentsOf: URL(fileURLWithPath: file))
                } else {
                    keys = try TokenSealingKeys.fromEnvironment(in: environment)
                }
            } catch let error as TokenStoreError {
                throw CLIFailure(error.message, exitCode: 2)
            }
            let configuration: PostgresClient.Configuration
            do {
                configuration = try PostgresURL.configuration(url)
            } catch let error as PlaylistLinksError {
                throw CLIFailure(error.message, exitCode: 2)
            }
            let user =
                environment["SPOTLINK_POSTGRES_USER"].flatMap { $0.isEmpty ? nil : $0 }
                ?? ProcessInfo.processInfo.userName
            kind = .database(
                "PostgreSQL database \(PostgresURL.redacted(url)) (user “\(user)”, sealed with key “\(keys.currentID)”)"
            )
            ready = Task {
                try await PostgresSchema.migrate(url, logger: logger)
                let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
                Task.detached { await client.run() }
                // One deadline bounds the command: the lock is waited for no longer than a call.
                return try PostgresTokenStore(
                    client: client, user: user, keys: keys, lockWait: PostgresDeadline.default, logger: logger)
            }
        }

        private func store() async throws -> PostgresTokenStore {
            do {
                return try await ready.value
            } catch let error as PlaylistLinksError {
                // The database could not be reached or brought up to date: the store is unavailable.
                throw TokenStoreError(code: .unavailable, message: error.message, underlying: error)
            }
        }

        func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { try await store().load(key) }
        func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
            try await store().save(tokens, for: key)
        }
        func remove(_ key: SpotifyAppKey) async throws { try await store().remove(key) }
        func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { try await store().acquireLock(key) }
    }
#endif
