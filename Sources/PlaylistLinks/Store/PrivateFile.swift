import Foundation

/// Files that hold personal data (links, the ledger): created readable by their owner alone.
enum PrivateFile {
    /// Creates `url`'s folder (0700) and an empty file (0600) when they do not exist yet, so that
    /// SQLite, which gives its journal and WAL files the database's mode, never starts from the
    /// process umask.
    static func prepare(_ url: URL) throws {
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if !FileManager.default.fileExists(atPath: url.path) {
            guard
                FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
    }
}
