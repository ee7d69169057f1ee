// Stand-in: the Security framework's Keychain API, as the package uses it. Each declaration:
// Apple's documentation page, and its availability there. Every one is available on iOS 18 and
// macOS 15, the package's deployment targets.
public import DarwinFoundation

/// https://developer.apple.com/documentation/security/secitemadd(_:_:) (iOS 2, macOS 10.6)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:) (iOS 2, macOS 10.6)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:) (iOS 2, macOS 10.6)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:) (iOS 2, macOS 10.6)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/seccopyerrormessagestring(_:_:) (iOS 11.3, macOS 10.3)
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/ksecclass (iOS 2, macOS 10.6)
public let kSecClass: CFString = "class"
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword (iOS 2, macOS 10.6)
public let kSecClassGenericPassword: CFString = "genp"
/// https://developer.apple.com/documentation/security/ksecattrservice (iOS 2, macOS 10.6)
public let kSecAttrService: CFString = "svce"
/// https://developer.apple.com/documentation/security/ksecattraccount (iOS 2, macOS 10.6)
public let kSecAttrAccount: CFString = "acct"
/// https://developer.apple.com/documentation/security/ksecattraccessgroup (iOS 3, macOS 10.9)
public let kSecAttrAccessGroup: CFString = "agrp"
/// https://developer.apple.com/documentation/security/ksecattrlabel (iOS 2, macOS 10.6)
public let kSecAttrLabel: CFString = "labl"
/// https://developer.apple.com/documentation/security/ksecattraccessible (iOS 4, macOS 10.9)
public let kSecAttrAccessible: CFString = "pdmn"
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly (iOS 4, macOS 10.9)
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain (iOS 13, macOS 10.15)
public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// https://developer.apple.com/documentation/security/ksecvaluedata (iOS 2, macOS 10.6)
public let kSecValueData: CFString = "v_Data"
/// https://developer.apple.com/documentation/security/ksecreturndata (iOS 2, macOS 10.6)
public let kSecReturnData: CFString = "r_Data"
/// https://developer.apple.com/documentation/security/ksecmatchlimit (iOS 2, macOS 10.6)
public let kSecMatchLimit: CFString = "m_Limit"
/// https://developer.apple.com/documentation/security/ksecmatchlimitone (iOS 2, macOS 10.6)
public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// https://developer.apple.com/documentation/security/ksecreturnattributes (iOS 2, macOS 10.6)
public let kSecReturnAttributes: CFString = "r_Attributes"
/// https://developer.apple.com/documentation/security/ksecmatchlimitall (iOS 2, macOS 10.6)
public let kSecMatchLimitAll: CFString = "m_LimitAll"
