package import Foundation
import GRDB
@_spi(Storage) import PlaylistLinks
import SpotifyLinkSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that hold personal data (links, the ledger): created readable by their owner alone, in a
/// folder whose data protection lets the app read them in the background after the first unlock.
enum PrivateFile {
    /// Opens the database at `url` for this process: prepared and pooled (WAL) as ``prepare(_:protection:excludedFromBackup:)``
    /// says; or, when the file exists but it or its folder cannot be written (a read-only folder,
    /// a backup volume), read-only, so that reading and exporting still work and a write fails in
    /// words (``SQLiteFailure/words(_:doing:file:)``).
    static func openDatabase(
        _ url: URL, configuration: Configuration, protection: FileProtection, excludedFromBackup: Bool = false
    ) throws -> any DatabaseWriter {
        if FileManager.default.fileExists(atPath: url.path), SQLiteFailure.isReadOnly(url) {
            try refuseLink(url)
            var readOnly = configuration
            readOnly.readonly = true
            // SQLite reads a WAL database read-only only beside its -wal and -shm files, which a
            // read-only folder cannot get. Without a -wal file every commit is in the database
            // itself, so it is read as immutable (SQLite's URI parameter): nothing to coordinate.
            guard !FileManager.default.fileExists(atPath: url.path + "-wal") else {
                return try DatabaseQueue(path: url.path, configuration: readOnly)
            }
            let path = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url.path
            return try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: readOnly)
        }
        try prepare(url, protection: protection, excludedFromBackup: excludedFromBackup)
        return try DatabasePool.openedAlongsideOtherProcesses(path: url.path, configuration: configuration)
    }

    /// Creates `url`'s folder (0700) and an empty file (0600) when they do not exist yet, so that
    /// SQLite, which gives its journal and WAL files the database's mode, never starts from the
    /// process umask. The folder, the file and its WAL and shared-memory files get the data
    /// protection class `completeUntilFirstUserAuthentication` (new files in the folder inherit it);
    /// with `excludedFromBackup` they are left out of backups.
    static func prepare(_ url: URL, protection: FileProtection, excludedFromBackup: Bool = false) throws {
        let manager = FileManager.default
        let folder = url.deletingLastPathComponent()
        try PrivateFiles.createFolder(folder)
        protection.protect(folder)
        let files = [url] + ["-wal", "-shm"].map { URL(fileURLWithPath: url.path + $0) }
        for file in files { try refuseLink(file) }
        if !manager.fileExists(atPath: url.path) {
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 || errno == EEXIST else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
            if fd >= 0 { close(fd) }
        }
        for file in files where manager.fileExists(atPath: file.path) {
            // A file an earlier version (or a copy) left readable by others is closed again.
            chmod(file.path, 0o600)
            // Files an earlier version made keep the class they were made with until given this one.
            protection.protect(file)
            if excludedFromBackup { protection.excludeFromBackup(file) }
        }
    }

    /// A database reached through a symbolic link could be another user's file, or one the app does
    /// not mean to write: it is refused, as the token file is, in words each layer's error keeps.
    private static func refuseLink(_ url: URL) throws {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT != S_IFLNK else {
            throw SQLiteFailure.Refused(
                message: "Refusing to open \(url.path): it is a symbolic link, which could lead to another user's "
                    + "file. Remove the link (and put the database there, if it is yours).")
        }
        guard info.st_uid == geteuid() else {
            throw SQLiteFailure.Refused(
                message:
                    "Refusing to open \(url.path): it belongs to another user. Remove it, or use a data folder of your own."
            )
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
