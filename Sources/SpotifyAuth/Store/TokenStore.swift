public import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI
import Synchronization

/// Where tokens are kept.
///
/// The caller chooses the store; nothing falls back silently from a secret store to a file, and
/// ``kind`` says which store is in use so a command can report it. An app picks one of the stores
/// of this package (`KeychainTokenStore`, `SecretServiceTokenStore`, `FileTokenStore`,
/// `MemoryTokenStore`, or a server's `PostgresTokenStore`) and hands it to its session; it never
/// reads or writes the tokens itself. The load, save, remove and lock requirements are the storage
/// interface, for implementers: `@_spi(Storage) import SpotifyAuth`.
public protocol TokenStore: Sendable {
    /// Which store this is, to tell the user where their tokens are.
    var kind: TokenStoreKind { get }
    /// The stored tokens, `nil` when signed out.
    /// - Throws: ``TokenStoreError``; `.corrupt` after moving an unreadable store aside.
    @_spi(Storage) func load(_ key: SpotifyAppKey) async throws -> StoredTokens?
    /// Stores `tokens` so that a crash at any point leaves either the old or the new value.
    @_spi(Storage) func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws
    /// Removes the tokens of `key` and nothing else: every copy of them, also one ``load(_:)``
    /// refuses to read (a file others can read, one moved aside as unreadable).
    @_spi(Storage) func remove(_ key: SpotifyAppKey) async throws
    /// Takes a lock on `key` that other processes using the same store respect, so two processes
    /// never refresh at once. Release it when done.
    @_spi(Storage) func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock
}

/// A held store lock.
@_spi(Storage)
public protocol TokenStoreLock: Sendable {
    /// Releases the lock; other processes may take it at once.
    func release()
}

/// Runs blocking store work (a keyring call that may wait for a prompt, an `fsync`) on a Dispatch
/// thread, so that it holds neither the caller's actor nor a thread of Swift's cooperative pool.
func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result(catching: body)) }
    }
}

/// The lock of stores whose process is their only user.
struct ProcessLocalLock: TokenStoreLock {
    func release() {}
}

/// The kinds of token store.
public enum TokenStoreKind: Sendable, Hashable, CustomStringConvertible {
    /// This process's memory.
    case memory
    /// A 0600 file in this folder.
    case file(URL)
    /// The desktop keyring, through the Secret Service (Linux).
    case secretService
    /// The Keychain (Apple platforms).
    case keychain
    /// A server's database, named without its password (PostgreSQL's store seals each sign-in).
    case database(String)

    public var description: String {
        switch self {
        case .memory: "memory (lost when the process ends)"
        case .file(let url): "file \(url.path) (0600)"
        case .secretService: "Secret Service (the desktop keyring)"
        case .keychain: "Keychain"
        case .database(let name): name
        }
    }
}

/// The one error of token stores.
public struct TokenStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, to match on: `catch TokenStoreError.Code.insecure`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package init(name: String) { self.name = name }
        /// The store cannot be used here (no keyring daemon, locked keychain).
        public static let unavailable = Code(name: "unavailable")
        /// The file or its folder has unsafe permissions, another owner, or is a symbolic link.
        public static let insecure = Code(name: "insecure")
        /// The stored data could not be read; it was moved aside and the user is signed out.
        public static let corrupt = Code(name: "corrupt")
        /// Reading or writing failed (disk full, read-only folder).
        public static let io = Code(name: "io")
        /// The app's set-up keeps the store from working (a Keychain access group or entitlement
        /// it lacks, a sealing key the server was not given): the developer's fix, not the user's.
        /// The sign-in is kept.
        public static let misconfigured = Code(name: "misconfigured")
        /// The stored sign-in failed its authentication check: it was changed outside SpotifyLink.
        /// Nothing was changed; the message names the entry.
        public static let tampered = Code(name: "tampered")

        /// The code's name, as its static property is spelled.
        public var description: String { name }

        /// Matches a ``TokenStoreError`` of this code, so `catch TokenStoreError.Code.x { … }` and
        /// `case TokenStoreError.Code.x:` read as the code they handle.
        public static func ~= (code: Self, error: any Error) -> Bool { code.matches(error) }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people: what happened and what to do.
    public var message: String
    /// The error below, when there was one.
    public var underlying: (any Error & Sendable)?

    /// An error with `code` and `message`; store implementations throw these too.
    @_spi(Storage) public init(code: Code, message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The type, the code, the HTTP status where there was one, and the message.
    public var description: String { codedDescription }

    /// Errors are equal when their codes are: what happened, not how it was worded.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}

/// Tokens in memory only: for tests and for apps that sign in every launch.
public final class MemoryTokenStore: TokenStore {
    private let entries = Lock<[SpotifyAppKey: StoredTokens]>([:])

    /// An empty store.
    public init() {}

    /// A store holding `entries` (previews start signed in).
    package init(_ entries: [SpotifyAppKey: StoredTokens]) {
        self.entries.withLock { $0 = entries }
    }

    public var kind: TokenStoreKind { .memory }

    @_spi(Storage) public func load(_ key: SpotifyAppKey) async throws -> StoredTokens? { entries.withLock { $0[key] } }
    @_spi(Storage) public func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        entries.withLock { $0[key] = tokens }
    }
    @_spi(Storage) public func remove(_ key: SpotifyAppKey) async throws {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
    @_spi(Storage) public func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock {
        ProcessLocalLock()
    }
}

extension StoredTokens {
    /// Decodes the tokens of a secret-store item; an item this version cannot use is removed
    /// (the next sign-in stores a good one) and reported as `.corrupt`, its contents never shown.
    static func decodeSecretItem(_ data: Data, in place: String, remove: () throws -> Void) throws -> StoredTokens {
        if let tokens = try? JSONDecoder.tokenStore.decode(StoredTokens.self, from: data),
            tokens.version <= currentVersion
        {
            return tokens
        }
        try remove()
        throw TokenStoreError(
            code: .corrupt,
            message:
                "The Spotify sign-in in \(place) could not be read and was removed. You are signed out: sign in again.")
    }
}

extension TokenStoreError: CodedError {}

extension TokenStoreError.Code: ErrorCode {
    package typealias Failure = TokenStoreError
}
