package import Foundation
import SpotifyLinkSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `spotlink export` may write: a new file, or a regular file of the user's, outside
/// spotlink's own folders. The export replaces its destination whole (a temporary file renamed
/// over it), so a symbolic link would be swapped out for the export, a device node (as root)
/// replaced, and the live journal overwritten with JSON: each is refused before anything is read.
package enum ExportDestination {
    /// Why an export may not write where it was asked: what the path is and what to give instead.
    package struct Refusal: Error, Sendable {
        /// The sentence `spotlink` prints.
        package let message: String
    }

    /// Throws a ``Refusal`` saying what `url` is and what to give instead, unless an export may
    /// replace it. `ownFolders` are spotlink's data and configuration folders.
    package static func check(_ url: URL, ownFolders: [URL]) throws {
        let path = url.path
        var info = stat()
        if lstat(path, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG else {
                throw Refusal(
                    message:
                        "\(path) is \(describe(kind)): an export replaces its destination with a new regular file, "
                        + "so it writes only a new file or an earlier export. Give another path.")
            }
            if let own = ownFile(sameAs: info, in: ownFolders) {
                throw Refusal(
                    message:
                        "\(path) is spotlink's own \(own.lastPathComponent) (the same file): an export would replace it. "
                        + "Give a path outside spotlink's folders.")
            }
        }
        let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        for own in ownFolders {
            let ownPath = own.resolvingSymlinksInPath().standardizedFileURL.path
            if folder == ownPath || folder.hasPrefix(ownPath + "/") {
                throw Refusal(
                    message: "\(path) is inside spotlink's own folder \(ownPath), beside the journal and the tokens. "
                        + "Export to a file elsewhere.")
            }
        }
    }

    /// A file of spotlink's folders that is the same file as `info` (a hard link to the journal).
    private static func ownFile(sameAs info: stat, in folders: [URL]) -> URL? {
        for folder in folders {
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files {
                var other = stat()
                if lstat(file.path, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
                    return file
                }
            }
        }
        return nil
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a folder"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
