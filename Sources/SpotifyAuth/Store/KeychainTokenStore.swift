public import SpotifyWebAPI

#if canImport(Security)
    public import Foundation  // the public initializer's `lockDirectory: URL`
#else
    package import Foundation
#endif

/// Tokens in the Keychain as one generic password per issuer and client ID, readable in the
/// background after the device's first unlock, never backed up or moved to another device
/// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, in the data protection keychain).
///
/// The file-based macOS keychain (`useDataProtectionKeychain: false`, for an unsigned command-line
/// tool such as `spotlink`) has no accessibility classes: there the item lives in the user's login
/// keychain file, which is readable while that keychain is unlocked and is backed up with the home
/// folder (Time Machine). The store does not set the class on such an item, as Apple documents.
///
/// The Apple counterpart of `SecretServiceTokenStore`: same items, same errors. On macOS the item
/// goes to the data protection keychain, as on iOS (pass `useDataProtectionKeychain: false` only for
/// an unsigned command-line tool, which cannot use it). A locked device or a missing entitlement
/// throws ``TokenStoreError``; nothing falls back to a file.
///
/// An app and its extensions share the sign-in through a Keychain access group; give them one
/// `lockDirectory` in their App Group container as well, so that they never refresh at once.
/// Keychain items outlive the app's deletion on iOS: a reinstalled app finds the old sign-in.
///
/// The store's logic runs on every platform over a seam of four calls (as `SecItemAdd`,
/// `SecItemCopyMatching`, `SecItemUpdate` and `SecItemDelete`); on Apple platforms the calls go to
/// the Security framework, and Linux tests drive the same logic against a stand-in of the
/// Keychain's documented behaviour.
public struct KeychainTokenStore: TokenStore {
    /// The `kSecAttrService` of the items.
    package let service: String
    /// A keychain access group shared with the app's extensions, or `nil` for the app's own.
    package let accessGroup: String?
    /// Where the cross-process lock file lives; `nil` locks within the process only.
    package let lockDirectory: URL?
    /// Whether items go to the data protection keychain (`kSecUseDataProtectionKeychain`); it
    /// matters on macOS, where the alternative is the file-based keychain.
    package let useDataProtectionKeychain: Bool
    let keychain: any KeychainItems

    #if canImport(Security)
        /// A store of items under `service`, shared through `accessGroup`, locking refreshes in `lockDirectory`.
        ///
        /// - Parameters:
        ///   - service: the items' service name; one per app is enough.
        ///   - accessGroup: a Keychain Sharing group (`TEAMID.group.name`) shared with the app's
        ///     extensions; it must be in the app's `keychain-access-groups` entitlement. An item an
        ///     earlier version (or a target without the group) saved in another of the app's groups
        ///     moves into this one, so the app keeps one item whatever its targets say.
        ///   - lockDirectory: a folder every process of the app can reach (the App Group
        ///     container), where refreshes take turns; `nil` for an app without extensions.
        ///   - useDataProtectionKeychain: `true` for apps; `false` only for an unsigned macOS
        ///     command-line tool, whose item then lives in the login keychain file (no
        ///     accessibility class: readable while that keychain is unlocked, and backed up with the
        ///     home folder).
        public init(
            service: String = "dev.spotifylink.tokens", accessGroup: String? = nil, lockDirectory: URL? = nil,
            useDataProtectionKeychain: Bool = true
        ) {
            self.init(
                service: service, accessGroup: accessGroup, lockDirectory: lockDirectory,
                useDataProtectionKeychain: useDataProtectionKeychain, keychain: SecurityFrameworkItems())
        }
    #endif

    /// A store whose four Keychain calls go to `keychain` (tests pass the stand-in).
    package init(
        service: String = "dev.spotifylink.tokens", accessGroup: String? = nil, lockDirectory: URL? = nil,
        useDataProtectionKeychain: Bool = true, keychain: any KeychainItems
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.lockDirectory = lockDirectory
        self.useDataProtectionKeychain = useDataProtectionKeychain
        self.keychain = keychain
    }

    public var kind: TokenStoreKind { .keychain }

    @_spi(Storage) public func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
        try await offCooperativePool { [self] in try loadNow(key) }
    }

    @_spi(Storage) public func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        try await offCooperativePool { [self] in try saveNow(tokens, for: key) }
    }

    @_spi(Storage) public func remove(_ key: SpotifyAppKey) async throws {
        try await offCooperativePool { [self] in try removeNow(key) }
    }

    @_spi(Storage) public func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock {
        guard let lockDirectory else { return ProcessLocalLock() }
        return try await FileLock.acquire(in: lockDirectory, for: key)
    }

    private func item(_ key: SpotifyAppKey) -> KeychainItemQuery {
        KeychainItemQuery(
            service: service, account: key.account, accessGroup: accessGroup,
            useDataProtectionKeychain: useDataProtectionKeychain)
    }

    private func loadNow(_ key: SpotifyAppKey) throws -> StoredTokens? {
        switch keychain.copyData(item(key)) {
        case (.itemNotFound, _): return try adoptItemOfAnotherGroup(key)
        case (.success, let data?):
            return try StoredTokens.decodeSecretItem(data, in: "the Keychain") { try removeNow(key) }
        case (let status, _): throw failure(status, "read")
        }
    }

    private func saveNow(_ tokens: StoredTokens, for key: SpotifyAppKey) throws {
        let data = try JSONEncoder.tokenStore.encode(tokens)
        // Never a delete first, which would leave a moment with no tokens at all.
        var status: KeychainStatus
        if accessGroup == nil {
            // Update in place wherever the item is (a query without a group matches every group of
            // the app), so a target without a group never adds a second item beside the one an
            // extension moved into a shared group.
            status = keychain.update(item(key), data: data, label: label(key))
            if status == .itemNotFound { status = keychain.add(item(key), data: data, label: label(key)) }
        } else {
            status = keychain.add(item(key), data: data, label: label(key))
            if status == .duplicateItem { status = keychain.update(item(key), data: data, label: label(key)) }
        }
        guard status == .success else { throw failure(status, "store") }
        if accessGroup != nil { removeItemsOfOtherGroups(key) }
    }

    private func label(_ key: SpotifyAppKey) -> String { "SpotifyLink sign-in (\(key.clientID))" }

    /// The item of `key` as a query of every access group the app has, or of `group` alone.
    private func item(_ key: SpotifyAppKey, group: String?) -> KeychainItemQuery {
        var query = item(key)
        query.accessGroup = group
        return query
    }

    /// With an access group set, an item of this service and account in another of the app's
    /// groups (saved before the app set the group, or by a target without it) moves into the
    /// group, so that the app has one item whatever its targets say: added to the group first,
    /// then removed from the old one.
    private func adoptItemOfAnotherGroup(_ key: SpotifyAppKey) throws -> StoredTokens? {
        guard let accessGroup else { return nil }
        let (status, groups) = keychain.accessGroups(item(key, group: nil))
        switch status {
        case .success: break
        case .itemNotFound: return nil
        default: throw failure(status, "read")
        }
        guard let old = groups.first(where: { $0 != accessGroup }) else { return nil }
        guard case (.success, let data?) = keychain.copyData(item(key, group: old)) else { return nil }
        var added = keychain.add(item(key), data: data, label: label(key))
        if added == .duplicateItem { added = keychain.update(item(key), data: data, label: label(key)) }
        guard added == .success else { throw failure(added, "move") }
        removeItemsOfOtherGroups(key)
        return try StoredTokens.decodeSecretItem(data, in: "the Keychain") { try removeNow(key) }
    }

    /// Removes this key's items in the app's other access groups, once the group's own item is in
    /// place; a failure leaves them for the next save.
    private func removeItemsOfOtherGroups(_ key: SpotifyAppKey) {
        guard case (.success, let groups) = keychain.accessGroups(item(key, group: nil)) else { return }
        for group in Set(groups) where group != accessGroup { _ = keychain.delete(item(key, group: group)) }
    }

    private func removeNow(_ key: SpotifyAppKey) throws {
        let status = keychain.delete(item(key))
        guard status == .success || status == .itemNotFound else { throw failure(status, "remove") }
    }

    /// What a failed Keychain call means for people: a device not yet unlocked is a wait, a missing
    /// entitlement the app's set-up.
    private func failure(_ status: KeychainStatus, _ action: String) -> TokenStoreError {
        let reason = keychain.describe(status)
        let underlying = KeychainFailure(status: status.osStatus)
        switch status {
        case .interactionNotAllowed:
            return TokenStoreError(
                code: .unavailable,
                message: "The Keychain could not \(action) the Spotify sign-in: the device has not been unlocked since "
                    + "it started (\(reason)). The sign-in is kept; it works again once the device is unlocked.",
                underlying: underlying)
        case .missingEntitlement:
            let fix =
                if let accessGroup {
                    "add the access group '\(accessGroup)' to the app's Keychain Sharing capability "
                        + "(keychain-access-groups), or use no accessGroup"
                } else if useDataProtectionKeychain {
                    "sign the program with a development team; an unsigned command-line tool passes "
                        + "useDataProtectionKeychain: false"
                } else {
                    "check the app's Keychain Sharing capability"
                }
            return TokenStoreError(
                code: .misconfigured,
                message: "The Keychain refused to \(action) the Spotify sign-in: the app lacks a Keychain entitlement "
                    + "(\(reason)). This is the app's set-up, not the device: \(fix).",
                underlying: underlying)
        case .authFailed, .notAvailable:
            return TokenStoreError(
                code: .unavailable,
                message:
                    "The Keychain could not \(action) the Spotify sign-in (\(reason)). Unlock the keychain and try again.",
                underlying: underlying)
        default:
            return TokenStoreError(
                code: .io, message: "The Keychain could not \(action) the Spotify sign-in (\(reason)).",
                underlying: underlying)
        }
    }
}

/// The Security framework status behind a Keychain failure.
public struct KeychainFailure: Error, Sendable, Equatable {
    /// The `OSStatus` the Security framework returned.
    public var status: Int32
}

// MARK: - The seam

/// The one generic-password item the store reads and writes, as its four Keychain calls name it.
package struct KeychainItemQuery: Sendable, Hashable {
    /// `kSecAttrService`.
    package var service: String
    /// `kSecAttrAccount`.
    package var account: String
    /// `kSecAttrAccessGroup`, when set.
    package var accessGroup: String?
    /// `kSecUseDataProtectionKeychain`.
    package var useDataProtectionKeychain: Bool

    package init(service: String, account: String, accessGroup: String?, useDataProtectionKeychain: Bool) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.useDataProtectionKeychain = useDataProtectionKeychain
    }
}

/// The results of the Keychain calls the store tells apart, with their `OSStatus` values.
package enum KeychainStatus: Sendable, Hashable {
    /// `errSecSuccess` (0).
    case success
    /// `errSecItemNotFound` (-25300).
    case itemNotFound
    /// `errSecDuplicateItem` (-25299).
    case duplicateItem
    /// `errSecInteractionNotAllowed` (-25308): not readable before the first unlock since boot.
    case interactionNotAllowed
    /// `errSecMissingEntitlement` (-34018): an access group or the data protection keychain the
    /// app is not entitled to.
    case missingEntitlement
    /// `errSecAuthFailed` (-25293).
    case authFailed
    /// `errSecNotAvailable` (-25291): no keychain.
    case notAvailable
    /// Any other status.
    case other(Int32)

    /// The Security framework's number for it.
    package var osStatus: Int32 {
        switch self {
        case .success: 0
        case .itemNotFound: -25300
        case .duplicateItem: -25299
        case .interactionNotAllowed: -25308
        case .missingEntitlement: -34018
        case .authFailed: -25293
        case .notAvailable: -25291
        case .other(let status): status
        }
    }

    /// The case of a Security framework status.
    package init(osStatus: Int32) {
        let known: [KeychainStatus] = [
            .success, .itemNotFound, .duplicateItem, .interactionNotAllowed, .missingEntitlement, .authFailed,
            .notAvailable,
        ]
        self = known.first { $0.osStatus == osStatus } ?? .other(osStatus)
    }
}

/// The four Keychain calls the store makes, on one generic-password item, each a blocking call
/// (the store makes them off Swift's cooperative pool).
package protocol KeychainItems: Sendable {
    /// `SecItemCopyMatching` with `kSecReturnData` and `kSecMatchLimitOne`.
    func copyData(_ item: KeychainItemQuery) -> (KeychainStatus, Data?)
    /// `SecItemAdd` of `data` with `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` and `label`.
    func add(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus
    /// `SecItemUpdate` of the item's data, accessibility and label.
    func update(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus
    /// `SecItemDelete`.
    func delete(_ item: KeychainItemQuery) -> KeychainStatus
    /// `SecItemCopyMatching` with `kSecReturnAttributes` and `kSecMatchLimitAll`: the access group of
    /// every matching item.
    func accessGroups(_ item: KeychainItemQuery) -> (KeychainStatus, [String])
    /// A sentence for a status (`SecCopyErrorMessageString`).
    func describe(_ status: KeychainStatus) -> String
}
