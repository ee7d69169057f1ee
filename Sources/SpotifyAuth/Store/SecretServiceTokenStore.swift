#if os(Linux) || os(FreeBSD)
    public import Foundation
    public import SpotifyWebAPI

    /// Tokens in the desktop keyring (GNOME Keyring, KWallet, KeePassXC) through the freedesktop
    /// Secret Service, by libsecret loaded at run time.
    ///
    /// One item per issuer and client ID, labelled for people browsing their keyring ("SpotifyLink
    /// sign-in …") and replaced in place on each save. When libsecret is missing, no daemon answers,
    /// or the keyring stays locked, every call throws ``TokenStoreError/Code/unavailable`` with the
    /// fix; nothing falls back to a file.
    public struct SecretServiceTokenStore: TokenStore {
        private let library: Result<LibSecret, TokenStoreError>
        /// Where the cross-process lock file lives (it holds no secret); `nil` locks within the process only.
        package let lockDirectory: URL?
        /// How long a keyring call may take before it is abandoned as unavailable (a locked keyring
        /// waiting for a password prompt nobody sees).
        package let timeout: Duration

        /// - Parameters:
        ///   - lockDirectory: a private folder for the lock that serializes refreshes across processes.
        ///   - timeout: the longest a keyring call may take.
        public init(lockDirectory: URL? = nil, timeout: Duration = .seconds(10)) {
            self.init(library: LibSecret.shared, lockDirectory: lockDirectory, timeout: timeout)
        }

        init(library: Result<LibSecret, TokenStoreError>, lockDirectory: URL? = nil, timeout: Duration = .seconds(10)) {
            self.library = library
            self.lockDirectory = lockDirectory
            self.timeout = timeout
        }

        public var kind: TokenStoreKind { .secretService }

        /// Checks that libsecret loads and a keyring answers, without reading any secret.
        /// - Throws: ``TokenStoreError`` `.unavailable` with the fix.
        package func checkAvailable() async throws {
            try await offCooperativePool { [self] in try checkAvailableNow() }
        }

        /// `checkAvailable()` on the calling thread, which it blocks for up to `timeout`.
        func checkAvailableNow() throws {
            _ = try run { try $0.lookup(["issuer": "availability check", "client_id": ""], timeout: timeout) }
        }

        /// Checks that a secret can be written: stores and removes a probe item (no token). A keyring
        /// that is locked, with nobody to type its password, fails here, before a sign-in whose
        /// tokens it could not keep.
        /// - Throws: ``TokenStoreError`` `.unavailable` with the fix.
        package func checkWritable() async throws {
            let probe = ["issuer": "SpotifyLink availability check", "client_id": "probe"]
            try await offCooperativePool { [self] in
                try run {
                    try $0.store("probe", label: "SpotifyLink availability check", attributes: probe, timeout: timeout)
                }
                _ = try run { try $0.clear(probe, timeout: timeout) }
            }
        }

        @_spi(Storage) public func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
            try await offCooperativePool { [self] in
                guard let text = try run({ try $0.lookup(attributes(key), timeout: timeout) }) else { return nil }
                return try StoredTokens.decodeSecretItem(Data(text.utf8), in: "the keyring") { try removeNow(key) }
            }
        }

        @_spi(Storage) public func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
            try await offCooperativePool { [self] in try saveNow(tokens, for: key) }
        }

        @_spi(Storage) public func remove(_ key: SpotifyAppKey) async throws {
            try await offCooperativePool { [self] in try removeNow(key) }
        }

        private func saveNow(_ tokens: StoredTokens, for key: SpotifyAppKey) throws {
            let text = String(decoding: try JSONEncoder.tokenStore.encode(tokens), as: UTF8.self)
            try run {
                try $0.store(
                    text, label: "SpotifyLink sign-in (\(key.clientID) at \(key.issuer))", attributes: attributes(key),
                    timeout: timeout)
            }
        }

        private func removeNow(_ key: SpotifyAppKey) throws {
            _ = try run { try $0.clear(attributes(key), timeout: timeout) }
        }

        @_spi(Storage) public func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock {
            guard let lockDirectory else { return ProcessLocalLock() }
            return try await FileLock.acquire(in: lockDirectory, for: key)
        }

        private func attributes(_ key: SpotifyAppKey) -> [String: String] {
            ["issuer": key.issuer, "client_id": key.clientID]
        }

        private func run<T>(_ body: (LibSecret) throws -> T) throws -> T {
            let library = try library.get()
            do {
                return try body(library)
            } catch let error as LibSecret.Failure {
                let reason =
                    error.timedOut
                    ? "the keyring did not answer within \(timeout) (locked and waiting for a password prompt?)"
                    : error.message
                throw TokenStoreError(
                    code: .unavailable,
                    message:
                        "The Secret Service store cannot be used: \(reason). Unlock the keyring, or \(LibSecret.installHint).",
                    underlying: SecretServiceFailure(domain: error.domain, code: error.code))
            }
        }
    }

    /// The GLib error behind an unavailable Secret Service store.
    public struct SecretServiceFailure: Error, Sendable, Equatable {
        /// The GLib error domain.
        public var domain: String
        /// The GLib error code.
        public var code: Int32
    }
#endif
