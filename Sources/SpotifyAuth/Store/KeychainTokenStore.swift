#if canImport(Security)
    public import Foundation
    import Security

    /// Tokens in the Keychain as one generic password per issuer and client ID, readable after the
    /// device's first unlock and never migrated to another device.
    ///
    /// The Apple counterpart of ``SecretServiceTokenStore``: same items, same errors. A locked or
    /// missing keychain throws ``TokenStoreError/Code/unavailable``; nothing falls back to a file.
    public struct KeychainTokenStore: TokenStore {
        /// The `kSecAttrService` of the items.
        public let service: String
        /// A keychain access group shared with the app's extensions, or `nil` for the app's own.
        public let accessGroup: String?
        /// Where the cross-process lock file lives; `nil` locks within the process only.
        public let lockDirectory: URL?

        /// A store of items under `service`, shared through `accessGroup`, locking refreshes in `lockDirectory`.
        public init(service: String = "dev.spotifylink.tokens", accessGroup: String? = nil, lockDirectory: URL? = nil) {
            self.service = service
            self.accessGroup = accessGroup
            self.lockDirectory = lockDirectory
        }

        public var kind: TokenStoreKind { .keychain }

        public func load(_ key: TokenStoreKey) async throws -> StoredTokens? {
            try await offCooperativePool { [self] in try loadNow(key) }
        }

        public func save(_ tokens: StoredTokens, for key: TokenStoreKey) async throws {
            try await offCooperativePool { [self] in try saveNow(tokens, for: key) }
        }

        public func remove(_ key: TokenStoreKey) async throws {
            try await offCooperativePool { [self] in try removeNow(key) }
        }

        private func loadNow(_ key: TokenStoreKey) throws -> StoredTokens? {
            var query = baseQuery(key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw failure(status, "read") }
            return try StoredTokens.decodeSecretItem(data, in: "the Keychain") { try removeNow(key) }
        }

        private func saveNow(_ tokens: StoredTokens, for key: TokenStoreKey) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: try JSONEncoder.tokenStore.encode(tokens),
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                kSecAttrLabel as String: "SpotifyLink sign-in (\(key.clientID))",
            ]
            var status = SecItemAdd(baseQuery(key).merging(attributes) { $1 } as CFDictionary, nil)
            if status == errSecDuplicateItem {
                // Update in place: deleting first would leave a moment with no tokens at all.
                status = SecItemUpdate(baseQuery(key) as CFDictionary, attributes as CFDictionary)
            }
            guard status == errSecSuccess else { throw failure(status, "store") }
        }

        private func removeNow(_ key: TokenStoreKey) throws {
            let status = SecItemDelete(baseQuery(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw failure(status, "remove") }
        }

        public func acquireLock(_ key: TokenStoreKey) async throws -> any TokenStoreLock {
            guard let lockDirectory else { return ProcessLocalLock() }
            return try await FileLock.acquire(in: lockDirectory, for: key)
        }

        private func baseQuery(_ key: TokenStoreKey) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key.account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        private func failure(_ status: OSStatus, _ action: String) -> TokenStoreError {
            let reason = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
            let unavailable: Set<OSStatus> = [
                errSecInteractionNotAllowed, errSecNotAvailable, errSecMissingEntitlement, errSecAuthFailed,
            ]
            return TokenStoreError(
                code: unavailable.contains(status) ? .unavailable : .io,
                message:
                    "The Keychain could not \(action) the Spotify sign-in: \(reason). Unlock the device or keychain and try again.",
                underlying: KeychainFailure(status: status))
        }
    }

    /// The Security framework status behind a Keychain failure.
    public struct KeychainFailure: Error, Sendable, Equatable {
        /// The `OSStatus` the Security framework returned.
        public var status: Int32
    }
#endif
