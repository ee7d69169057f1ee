package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Folders and files that hold personal data, created readable by their owner alone whatever the
/// process umask: `mkdir` and `open` are given mode 0700 / 0600, which a umask can only narrow.
/// (`FileManager.createDirectory(withIntermediateDirectories:attributes:)` gives the folders it
/// creates on the way the umask's mode: 0777 under `umask 000`.)
package enum PrivateFiles {
    /// Creates `folder` and every missing folder above it with mode 0700. A folder that exists is
    /// left as it is (it may be the user's `~/.config`).
    package static func createFolder(_ folder: URL) throws {
        var missing: [URL] = []
        var current = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: current.path) {
            missing.append(current)
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        for url in missing.reversed() {
            if mkdir(url.path, 0o700) != 0, errno != EEXIST { throw failure(url) }
        }
    }

    /// Writes `data` to `url` so that a crash leaves the old file or the new one, and no reader but
    /// the owner ever sees either: a temporary file created 0600 beside it, synced, then renamed
    /// over it. A temporary file a killed writer left behind is 0600 too; `temporaryCreated` is told
    /// its path first, so a caller can remove it when a signal ends the process mid-write.
    package static func replaceFile(
        at url: URL, with data: Data, temporaryCreated: (URL) -> Void = { _ in }
    ) throws {
        let (temporary, fd) = try createTemporary(beside: url, temporaryCreated)
        let written = writeAll(data, to: fd) && fsync(fd) == 0
        try finish(temporary, fd, written: written, into: url)
    }

    /// ``replaceFile(at:with:temporaryCreated:)`` for a file made piece by piece: `body` is given a
    /// function that appends to the temporary file, so the whole never has to be in memory. A
    /// `body` that throws leaves `url` as it was and removes the temporary file.
    /// - Returns: how many bytes were written.
    @discardableResult
    package static func replaceFile(
        at url: URL, temporaryCreated: (URL) -> Void = { _ in },
        writing body: (_ append: (Data) throws -> Void) async throws -> Void
    ) async throws -> Int {
        let (temporary, fd) = try createTemporary(beside: url, temporaryCreated)
        var total = 0
        do {
            try await body { data in
                guard writeAll(data, to: fd) else { throw failure(temporary) }
                total += data.count
            }
        } catch {
            close(fd)
            unlink(temporary.path)
            throw error
        }
        try finish(temporary, fd, written: fsync(fd) == 0, into: url)
        return total
    }

    /// A new temporary file beside `url`, 0600, open for writing; `temporaryCreated` is told its path.
    private static func createTemporary(beside url: URL, _ temporaryCreated: (URL) -> Void) throws -> (URL, Int32) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(temporary) }
        temporaryCreated(temporary)
        return (temporary, fd)
    }

    /// Writes all of `data` to `fd`; `false` (with `errno` set) when a write fails.
    private static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 { if errno == EINTR { continue } else { return false } }
                offset += count
            }
            return true
        }
    }

    /// Closes `fd` and renames `temporary` over `url` when everything was `written`; else removes
    /// it and throws why.
    private static func finish(_ temporary: URL, _ fd: Int32, written: Bool, into url: URL) throws {
        let error = written ? nil : failure(temporary)
        close(fd)
        guard written, rename(temporary.path, url.path) == 0 else {
            let reason = error ?? failure(url)
            unlink(temporary.path)
            throw reason
        }
    }

    private static func failure(_ url: URL) -> CocoaError {
        let code: CocoaError.Code = errno == ENOSPC || errno == EDQUOT ? .fileWriteOutOfSpace : .fileWriteNoPermission
        return CocoaError(code, userInfo: [NSFilePathErrorKey: url.path])
    }
}
