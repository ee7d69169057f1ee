package import Foundation

/// Files that hold personal data (links, the ledger): created readable by their owner alone, in a
/// folder whose data protection lets the app read them in the background after the first unlock.
enum PrivateFile {
    /// Creates `url`'s folder (0700) and an empty file (0600) when they do not exist yet, so that
    /// SQLite, which gives its journal and WAL files the database's mode, never starts from the
    /// process umask. The folder, the file and its WAL and shared-memory files get the data
    /// protection class `completeUntilFirstUserAuthentication` (new files in the folder inherit it);
    /// with `excludedFromBackup` they are left out of backups.
    static func prepare(_ url: URL, protection: FileProtection, excludedFromBackup: Bool = false) throws {
        let manager = FileManager.default
        let folder = url.deletingLastPathComponent()
        if !manager.fileExists(atPath: folder.path) {
            try manager.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        protection.protect(folder)
        if !manager.fileExists(atPath: url.path) {
            guard manager.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        // Files an earlier version made keep the class they were made with until given this one.
        let files = [url] + ["-wal", "-shm"].map { URL(fileURLWithPath: url.path + $0) }
        for file in files where manager.fileExists(atPath: file.path) {
            protection.protect(file)
            if excludedFromBackup { protection.excludeFromBackup(file) }
        }
    }
}

/// How the package's files are kept on this platform: their data protection class and whether
/// backups take them. On iOS the folder gets `FileProtectionType.completeUntilFirstUserAuthentication`,
/// as the Keychain item has `kSecAttrAccessibleAfterFirstUnlock`: a widget or a background refresh
/// reads links and counts while the device is locked, and SQLite fails on a file it cannot read
/// (`complete` would). Elsewhere there is no such class. Backups leave out what is only a cache of
/// this device's state (the request ledger): restored on another device it would count the wrong
/// device's requests. Tests record the calls through this seam, as Linux has neither.
package struct FileProtection: Sendable {
    /// Gives a folder or file the protection class; a failure leaves the platform's default.
    package var protect: @Sendable (URL) -> Void
    /// Leaves a file out of backups; a failure leaves it in them.
    package var excludeFromBackup: @Sendable (URL) -> Void

    /// A seam with the given actions.
    package init(protect: @escaping @Sendable (URL) -> Void, excludeFromBackup: @escaping @Sendable (URL) -> Void) {
        self.protect = protect
        self.excludeFromBackup = excludeFromBackup
    }

    /// This platform's: the protection class on the iOS family, exclusion from backup on every
    /// Apple platform, nothing on Linux.
    package static let platform = FileProtection(
        protect: { url in
            #if canImport(UIKit)
                try? FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
            #endif
        },
        excludeFromBackup: { url in
            #if canImport(UIKit) || canImport(AppKit)
                var url = url
                var values = URLResourceValues()
                values.isExcludedFromBackup = true
                try? url.setResourceValues(values)
            #endif
        })
}
