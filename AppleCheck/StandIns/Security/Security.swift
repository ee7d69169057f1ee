// Stand-in: the Security framework's Keychain API, as the package uses it. Each declaration:
// Apple's documentation page, and its availability there as an attribute the compiler enforces.
// The CoreFoundation types are Foundation's (StandIns/Foundation+Apple.swift): a query is passed
// `as CFDictionary` and a key read `as String`, as on Apple platforms.
public import Foundation

/// https://developer.apple.com/documentation/security/secitemadd(_:_:) (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:) (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:) (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:) (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/seccopyerrormessagestring(_:_:) (iOS 11.3, macOS 10.3)
@available(iOS 11.3, macOS 10.3, *)
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/ksecclass (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecClass: CFString = NSString(string: "class")
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = NSString(string: "genp")
/// https://developer.apple.com/documentation/security/ksecattrservice (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrService: CFString = NSString(string: "svce")
/// https://developer.apple.com/documentation/security/ksecattraccount (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = NSString(string: "acct")
/// https://developer.apple.com/documentation/security/ksecattraccessgroup (iOS 3, macOS 10.9)
@available(iOS 3, macOS 10.9, *)
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = NSString(string: "agrp")
/// https://developer.apple.com/documentation/security/ksecattrlabel (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecAttrLabel: CFString = NSString(string: "labl")
/// https://developer.apple.com/documentation/security/ksecattraccessible (iOS 4, macOS 10.9)
@available(iOS 4, macOS 10.9, *)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = NSString(string: "pdmn")
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly (iOS 4, macOS 10.9)
@available(iOS 4, macOS 10.9, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = NSString(string: "cku")
/// https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain (iOS 13, macOS 10.15)
@available(iOS 13, macOS 10.15, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = NSString(string: "nleg")
/// https://developer.apple.com/documentation/security/ksecvaluedata (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecValueData: CFString = NSString(string: "v_Data")
/// https://developer.apple.com/documentation/security/ksecreturndata (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnData: CFString = NSString(string: "r_Data")
/// https://developer.apple.com/documentation/security/ksecmatchlimit (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = NSString(string: "m_Limit")
/// https://developer.apple.com/documentation/security/ksecmatchlimitone (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = NSString(string: "m_LimitOne")
/// https://developer.apple.com/documentation/security/ksecreturnattributes (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecReturnAttributes: CFString = NSString(string: "r_Attributes")
/// https://developer.apple.com/documentation/security/ksecmatchlimitall (iOS 2, macOS 10.6)
@available(iOS 2, macOS 10.6, *)
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = NSString(string: "m_LimitAll")
