import Crypto
public import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tokens in a `0600` JSON file inside a `0700` folder, for machines without a keyring, chosen
/// explicitly by the caller.
///
/// Writes go to a temporary file that is synced and renamed over the old one, so a crash leaves
/// the old or the new file, never half of one. Files and folders reached through symbolic links,
/// owned by someone else or readable by others are refused. A lock file serializes processes.
public struct FileTokenStore: TokenStore {
    /// The folder (0700) that holds the token file (0600) and its lock.
    package let directory: URL
    /// The clock a refresh sleeps on between tries while another process holds the lock.
    let clock: any SpotifyClock

    /// A store in `directory` (created 0700 when missing).
    public init(directory: URL) {
        self.init(directory: directory, clock: SystemClock())
    }

    /// A store whose lock waits sleep on `clock` (tests step it).
    package init(directory: URL, clock: any SpotifyClock) {
        self.directory = directory
        self.clock = clock
    }

    public var kind: TokenStoreKind { .file(directory) }

    func fileURL(_ key: SpotifyAppKey, _ suffix: String = "json") -> URL {
        directory.appendingPathComponent(key.fileName(suffix))
    }

    @_spi(Storage) public func load(_ key: SpotifyAppKey) async throws -> StoredTokens? {
        try await offCooperativePool { try loadNow(key) }
    }

    @_spi(Storage) public func save(_ tokens: StoredTokens, for key: SpotifyAppKey) async throws {
        try await offCooperativePool { try saveNow(tokens, for: key) }
    }

    @_spi(Storage) public func remove(_ key: SpotifyAppKey) async throws {
        try await offCooperativePool { try removeNow(key) }
    }

    private func loadNow(_ key: SpotifyAppKey) throws -> StoredTokens? {
        try checkDirectory(create: false)
        let url = fileURL(key)
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw insecure(url, "is a symbolic link") }
            throw ioError("could not open \(url.path)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("could not inspect \(url.path)") }
        guard info.st_uid == geteuid() else { throw insecure(url, "belongs to another user") }
        guard info.st_mode & 0o077 == 0 else {
            throw insecure(url, "is readable by other users (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
        guard info.st_size <= 64 * 1024 else { return try moveAside(url, "is larger than any token file") }
        var data = Data(count: Int(info.st_size))
        let byteCount = data.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress, buffer.count) }
        guard byteCount == info.st_size else { throw ioError("could not read \(url.path)") }
        guard let tokens = try? JSONDecoder.tokenStore.decode(StoredTokens.self, from: data) else {
            return try moveAside(url, "could not be read")
        }
        guard tokens.version <= StoredTokens.currentVersion else {
            return try moveAside(url, "was written by a newer version of SpotifyLink")
        }
        return tokens
    }

    private func saveNow(_ tokens: StoredTokens, for key: SpotifyAppKey) throws {
        try checkDirectory(create: true)
        let url = fileURL(key)
        let data = try JSONEncoder.tokenStore.encode(tokens)
        let temporary = directory.appendingPathComponent(".tokens-\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ioError("could not create a file in \(directory.path)") }
        var written = 0
        let ok = data.withUnsafeBytes { buffer -> Bool in
            guard fchmod(fd, 0o600) == 0 else { return false }
            while written < buffer.count {
                let result = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if result <= 0 { return false }
                written += result
            }
            return fsync(fd) == 0
        }
        close(fd)
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw ioError("could not write \(url.path) (is the disk full or the folder read-only?)")
        }
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// The copies of `key`'s sign-in that were moved aside as unreadable: they may still hold a
    /// live refresh token, so signing out removes them too.
    package func copies(of key: SpotifyAppKey) -> [URL] {
        let prefix = fileURL(key).deletingPathExtension().lastPathComponent + ".corrupt-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.map { directory.appendingPathComponent($0) }
    }

    /// Where `key`'s token file points when it is a symbolic link (it is never followed: logout
    /// removes the link and names this path, which is not spotlink's to remove); `nil` otherwise.
    package func symbolicLinkTarget(of key: SpotifyAppKey) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: fileURL(key).path)
    }

    /// Removes every copy of `key`'s sign-in: the token file whatever its mode, owner or kind (a
    /// symbolic link goes, not what it points to), and the copies moved aside as unreadable. The
    /// folder is not checked first: what is removed cannot be read by anyone after.
    private func removeNow(_ key: SpotifyAppKey) throws {
        for copy in [fileURL(key)] + copies(of: key) {
            if unlink(copy.path) != 0, errno != ENOENT { throw ioError("could not remove \(copy.path)") }
        }
    }

    @_spi(Storage) public func acquireLock(_ key: SpotifyAppKey) async throws -> any TokenStoreLock {
        try checkDirectory(create: true)
        return try await FileLock.acquire(in: directory, for: key, clock: clock)
    }

    private func checkDirectory(create: Bool) throws {
        var info = stat()
        if lstat(directory.path, &info) != 0 {
            guard errno == ENOENT else { throw ioError("could not inspect \(directory.path)") }
            guard create else { return }
            try PrivateFiles.createFolder(directory.deletingLastPathComponent())
            guard mkdir(directory.path, 0o700) == 0 || errno == EEXIST else {
                throw ioError("could not create \(directory.path)")
            }
            chmod(directory.path, 0o700)
            guard lstat(directory.path, &info) == 0 else { throw ioError("could not inspect \(directory.path)") }
        }
        try Self.checkPrivateFolder(directory, info)
    }

    /// A token or lock folder must be a real folder, ours, and closed to other users. One that is
    /// open is refused, not quietly repaired: someone else may already have read or replaced what
    /// is in it.
    static func checkPrivateFolder(_ directory: URL, _ info: stat) throws {
        func insecure(_ reason: String) -> TokenStoreError {
            TokenStoreError(code: .insecure, message: "Refusing to use \(directory.path): it \(reason).")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw insecure("is not a folder (a symbolic link?). Remove it and sign in again")
        }
        guard info.st_uid == geteuid() else { throw insecure("belongs to another user. Remove it and sign in again") }
        guard info.st_mode & 0o077 == 0 else {
            throw insecure(
                "is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))). If nobody else could have changed it, "
                    + "run `chmod 700 \(directory.path)`; otherwise remove it and sign in again")
        }
    }

    /// Keeps an unreadable file for inspection under a name no other copy has, and never over
    /// another: `link` fails rather than replace, and the original goes only once the copy exists.
    private func moveAside(_ url: URL, _ reason: String) throws -> StoredTokens? {
        let unique = "\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8).lowercased())"
        let aside = url.deletingPathExtension().appendingPathExtension("corrupt-\(unique)")
        guard link(url.path, aside.path) == 0 else {
            throw TokenStoreError(
                code: .corrupt,
                message:
                    "The stored Spotify sign-in \(reason) and could not be moved aside (\(String(cString: strerror(errno)))). "
                    + "Remove \(url.path) and sign in again.")
        }
        unlink(url.path)
        throw TokenStoreError(
            code: .corrupt,
            message:
                "The stored Spotify sign-in \(reason); it was moved aside to \(aside.lastPathComponent). You are signed out: sign in again."
        )
    }

    private func insecure(_ url: URL, _ reason: String) -> TokenStoreError {
        TokenStoreError(
            code: .insecure, message: "Refusing to use \(url.path): it \(reason). Remove it and sign in again.")
    }

    private func ioError(_ text: String) -> TokenStoreError {
        TokenStoreError(code: .io, message: "The token file store \(text): \(String(cString: strerror(errno))).")
    }
}

extension JSONEncoder {
    /// The encoding every token store writes (a database store in another module too).
    package static var tokenStore: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// The decoding every token store reads with.
    package static var tokenStore: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

extension SpotifyAppKey {
    /// A file name for this key that reveals neither issuer nor client ID.
    func fileName(_ suffix: String) -> String {
        let digest = SHA256.hash(data: Data(account.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return "tokens-\(digest).\(suffix)"
    }
}

/// An `flock` held on an open lock file, shared by every process that uses the same folder;
/// released by unlocking and closing it.
struct FileLock: TokenStoreLock {
    let fd: Int32

    /// How long a process waits for another one's refresh before giving up.
    static let defaultTimeout: Duration = .seconds(30)

    /// Takes the lock of `key` in `directory`, creating the folder (0700, checked like the token
    /// folder) and the lock file (0600) when needed.
    ///
    /// It never blocks a thread: it tries without waiting, then sleeps on `clock` (5 ms doubling to
    /// 100 ms) and tries again, so a waiting refresh holds no thread of the cooperative pool, ends
    /// when its task is cancelled, and fails with a clear error after `timeout` when a hung process
    /// keeps the lock.
    static func acquire(
        in directory: URL, for key: SpotifyAppKey, timeout: Duration = defaultTimeout,
        clock: any SpotifyClock = SystemClock()
    ) async throws -> FileLock {
        let lockURL = directory.appendingPathComponent(key.fileName("lock"))
        if mkdir(directory.path, 0o700) != 0, errno == ENOENT {
            try PrivateFiles.createFolder(directory.deletingLastPathComponent())
            guard mkdir(directory.path, 0o700) == 0 || errno == EEXIST else {
                throw TokenStoreError(
                    code: .io,
                    message: "Could not create the lock folder \(directory.path): \(String(cString: strerror(errno))).")
            }
        }
        var info = stat()
        guard lstat(directory.path, &info) == 0 else {
            throw TokenStoreError(
                code: .io,
                message: "Could not inspect the lock folder \(directory.path): \(String(cString: strerror(errno))).")
        }
        try FileTokenStore.checkPrivateFolder(directory, info)
        let fd = open(lockURL.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw TokenStoreError(
                code: .io, message: "Could not open the lock file \(lockURL.path): \(String(cString: strerror(errno)))."
            )
        }
        var waited: Duration = .zero
        var pause: Duration = .milliseconds(5)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw TokenStoreError(code: .io, message: "Could not lock \(lockURL.path): \(reason).")
            }
            guard waited < timeout else {
                close(fd)
                throw TokenStoreError(
                    code: .unavailable,
                    message:
                        "Another process has held the sign-in lock \(lockURL.path) for over \(timeout.components.seconds) s. "
                        + "If no other SpotifyLink app or `spotlink` command is running, try again; the lock goes with the process that holds it."
                )
            }
            do {
                try await clock.sleep(for: pause)
            } catch {
                close(fd)
                throw error
            }
            waited += pause
            pause = min(pause * 2, .milliseconds(100))
        }
        return FileLock(fd: fd)
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
