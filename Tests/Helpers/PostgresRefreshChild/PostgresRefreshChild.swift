import Foundation
import Logging
import PostgresNIO
@_spi(Storage) import SpotifyAuth
@_spi(Storage) import SpotifyLinkPostgres
import SpotifyWebAPI

/// Test helper for one refresh across server processes: one process of a server that keeps its
/// users' sign-ins in PostgreSQL and has `CALLERS` requests needing a new access token at once.
///
/// Usage: `PostgresRefreshChild POSTGRES_URL EMULATOR_URL USER KEY_FILE CALLERS [--no-lock]`. It
/// reads the user's sign-in, prints `ready`, waits for a line on standard input, then has every
/// caller ask for a refresh of the token it read (as after a 401), and prints `refreshed N` (the
/// callers that got a token) or `failed CODE`. `--no-lock` takes the store's lock away (a test
/// sees then that the lock is what keeps it to one refresh). It never prints a token.
@main
struct PostgresRefreshChild {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count >= 6, let url = URL(string: arguments[2]), let callers = Int(arguments[5]) else {
            FileHandle.standardError.write(
                Data("usage: PostgresRefreshChild POSTGRES_URL EMULATOR_URL USER KEY_FILE CALLERS [--no-lock]\n".utf8))
            exit(2)
        }
        do {
            let client = PostgresClient(
                configuration: try PostgresURL.configuration(arguments[1]),
                backgroundLogger: Logger(label: "refresh-child"))
            Task { await client.run() }
            let keys = try TokenSealingKeys(contentsOf: URL(fileURLWithPath: arguments[4]))
            let sealed = try PostgresTokenStore(client: client, user: arguments[3], keys: keys)
            let store: any TokenStore = arguments.contains("--no-lock") ? Unlocked(sealed) : sealed
            let session = SpotifySession(
                endpoint: TokenEndpoint(server: .emulator(url: url), clientID: "spotlink-demo"), store: store)
            guard let stored = try await session.tokens() else {
                say("failed no-tokens")
                exit(1)
            }
            say("ready")
            _ = readLine()
            let refreshed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        let token = try await session.refreshedAccessToken(replacing: stored.accessToken)
                        return token != stored.accessToken
                    }
                }
                var count = 0
                for try await fresh in group where fresh { count += 1 }
                return count
            }
            say("refreshed \(refreshed)")
            exit(0)
        } catch {
            let code = (error as? OAuthError)?.code.description ?? (error as? TokenStoreError)?.code.description
            say("failed \(code ?? "\(type(of: error))")")
            exit(1)
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// The store without its lock.
struct Unlocked: TokenStore {
    let store: PostgresTokenStore
    init(_ store: PostgresTokenStore) { self.store = store }
    var kind: TokenStoreKind { store.kind }
    func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { try await store.load(key) }
    func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws { try await store.save(tokens, for: key) }
    func remove(_ key: SpotifyAppKey) async throws { try await store.remove(key) }
    func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock { NoLock() }

    struct NoLock: TokenStoreLock {
        func release() {}
    }
}
