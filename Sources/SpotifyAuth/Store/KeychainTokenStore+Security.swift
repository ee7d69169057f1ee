#if canImport(Security)
    import Foundation
    import Security

    /// The four Keychain calls of ``KeychainTokenStore`` on Apple platforms: the Security framework,
    /// one `kSecClassGenericPassword` item per query. Nothing here decides anything; the store's
    /// logic, which the Linux tests run, reads the statuses.
    struct SecurityFrameworkItems: KeychainItems {
        func copyData(_ item: KeychainItemQuery) -> (KeychainStatus, Data?) {
            var query = Self.query(item)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return (KeychainStatus(osStatus: status), result as? Data)
        }

        func add(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus {
            let attributes = Self.query(item).merging(Self.attributes(item, data, label)) { $1 }
            return KeychainStatus(osStatus: SecItemAdd(attributes as CFDictionary, nil))
        }

        func update(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus {
            KeychainStatus(
                osStatus: SecItemUpdate(
                    Self.query(item) as CFDictionary, Self.attributes(item, data, label) as CFDictionary))
        }

        func accessGroups(_ item: KeychainItemQuery) -> (KeychainStatus, [String]) {
            var query = Self.query(item)
            query[kSecReturnAttributes as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitAll
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            let items = result as? [[String: Any]] ?? []
            return (KeychainStatus(osStatus: status), items.compactMap { $0[kSecAttrAccessGroup as String] as? String })
        }

        func delete(_ item: KeychainItemQuery) -> KeychainStatus {
            KeychainStatus(osStatus: SecItemDelete(Self.query(item) as CFDictionary))
        }

        func describe(_ status: KeychainStatus) -> String {
            (SecCopyErrorMessageString(status.osStatus, nil) as String?) ?? "OSStatus \(status.osStatus)"
        }

        /// The item's identity; `kSecUseDataProtectionKeychain` matters on macOS only and is
        /// ignored elsewhere (Apple: "You can safely use the key on all platforms").
        private static func query(_ item: KeychainItemQuery) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: item.service,
                kSecAttrAccount as String: item.account,
                kSecUseDataProtectionKeychain as String: item.useDataProtectionKeychain,
            ]
            if let accessGroup = item.accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// Readable in the background after the first unlock since boot, never backed up or moved.
        /// The accessibility class applies to the data protection keychain only: Apple's
        /// `kSecAttrAccessible` page says a macOS item may carry it "only if you also set a value of
        /// true for the kSecUseDataProtectionKeychain key", so the file-based keychain's item (an
        /// unsigned command-line tool's) goes without it.
        private static func attributes(_ item: KeychainItemQuery, _ data: Data, _ label: String) -> [String: Any] {
            var attributes: [String: Any] = [kSecValueData as String: data, kSecAttrLabel as String: label]
            if item.useDataProtectionKeychain {
                attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            }
            return attributes
        }
    }
#endif
