// FoundationEssentials on Linux (no ICU: an extension's process stays small); Apple's SDKs have
// Foundation alone.
#if !canImport(Darwin) && canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The extension snapshot's file in a folder the app and its extensions share (the App Group
/// container): the app writes it, extensions read it.
///
/// An extension reads it in one call, ``read()``, which never throws (the module's overview shows
/// a widget's code, compiled for iOS).
///
/// A write replaces the whole file at once (a new file renamed over it), so a reader sees the
/// earlier snapshot or the new one, never part of one, also when the app is killed while it
/// writes. A disconnect calls ``forget()``: it moves the forget epoch on, then deletes the file, and
/// from then on a snapshot written under an earlier epoch (a refresh that was under way) is
/// neither written nor shown. The app is the only writer; extensions only read.
///
/// On a power loss just after a write the file may come back empty: it reads as
/// ``ExtensionSnapshotReading/Reason/unreadable``, and the app's next write replaces it.
public struct ExtensionSnapshotFile: Sendable {
    /// The snapshot's file name in the folder.
    public static let fileName = "extension-snapshot.json"
    /// The forget epoch's file name in the folder.
    public static let epochFileName = "extension-snapshot.epoch"
    /// The largest snapshot read: a longer file is refused as unreadable. A day of the three apps
    /// writes a few kilobytes.
    public static let largestSize = 1 << 20
    /// The folder of the covers, beside the snapshot.
    public static let coversFolderName = "extension-covers"
    /// The largest cover kept for the extensions: Spotify's cover of about 300 pixels, which the
    /// cards keep, is some tens of kilobytes; a larger one is left out (a widget's process has
    /// about 30 MB).
    public static let largestCoverSize = 256 * 1024

    /// The folder the files are in.
    public let folder: URL

    /// The snapshot in `folder` (the app's data folder in its App Group container).
    public init(folder: URL) {
        self.folder = folder
    }

    #if canImport(Darwin)
        /// The snapshot in the App Group container `appGroup`, in the folder the app's
        /// `SpotifyLink` uses there (`name`, as the app's configuration has it); `nil` when this
        /// target lacks the App Group entitlement.
        public init?(appGroup: String, name: String = "SpotifyLink") {
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
            else { return nil }
            self.init(folder: container.appendingPathComponent(name, isDirectory: true))
        }
    #endif

    private var snapshotURL: URL { folder.appendingPathComponent(Self.fileName) }
    private var epochURL: URL { folder.appendingPathComponent(Self.epochFileName) }
    private var coversURL: URL { folder.appendingPathComponent(Self.coversFolderName, isDirectory: true) }

    // MARK: Reading

    /// The snapshot to show, or nothing and why: missing, damaged, from a newer version, or
    /// written before a disconnect. Never throws.
    public func read() -> ExtensionSnapshotReading {
        guard let data = Self.contents(of: snapshotURL) else {
            return .nothing(FileManager.default.fileExists(atPath: snapshotURL.path) ? .unreadable : .notWritten)
        }
        guard let format = try? Self.decoder.decode(Format.self, from: data) else { return .nothing(.unreadable) }
        guard format.version <= ExtensionSnapshot.currentVersion else {
            return .nothing(.newerVersion(format.version))
        }
        guard let snapshot = try? Self.decoder.decode(ExtensionSnapshot.self, from: data) else {
            return .nothing(.unreadable)
        }
        // Read after the snapshot: a forget that came before this read is seen.
        guard let epoch = readEpoch() else { return .nothing(.unreadable) }
        return snapshot.epoch == epoch ? .snapshot(snapshot) : .nothing(.forgotten)
    }

    /// The forget epoch now: stamp a snapshot with the value read before gathering what it holds,
    /// so a disconnect meanwhile refuses it.
    /// - Throws: ``ExtensionSnapshotError`` with code `.damaged` when the epoch's file cannot be
    ///   read (``forget()`` writes a new one).
    public func epoch() throws -> UInt64 {
        guard let epoch = readEpoch() else {
            throw ExtensionSnapshotError(
                code: .damaged, message: "\(epochURL.path) is damaged: a disconnect (forget()) writes it anew.")
        }
        return epoch
    }

    /// The bytes of `playlist`'s cover (JPEG or PNG, as Spotify served it), for an image view;
    /// `nil` when it has none, or its file is gone (a disconnect, a newer snapshot). Never throws.
    public func cover(of playlist: ExtensionSnapshot.Playlist) -> Data? {
        guard let name = playlist.cover, Self.isCoverName(name) else { return nil }
        return Self.contents(of: coversURL.appendingPathComponent(name), limit: Self.largestCoverSize)
    }

    /// The file name a cover of `bytes` is kept under: named by its content, so an unchanged
    /// cover is not written again and a name never points at another cover's bytes.
    public static func coverName(for bytes: Data) -> String {
        // FNV-1a, 64 bits, twice (the bytes, then reversed): this module links Foundation alone.
        var forward: UInt64 = 0xcbf2_9ce4_8422_2325
        var backward: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            forward = (forward ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        for byte in bytes.reversed() {
            backward = (backward ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "\(hex(forward))\(hex(backward))-\(bytes.count).cover"
    }

    /// Whether `name` is one ``coverName(for:)`` makes: nothing else is read or kept.
    private static func isCoverName(_ name: String) -> Bool {
        guard name.hasSuffix(".cover"), name.utf8.count <= 64 else { return false }
        return name.dropLast(6).utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D
        }
    }

    // MARK: Writing (the app)

    /// What a write did.
    public enum Write: Sendable, Equatable {
        /// The snapshot is on disk, and differs from the one before in what an extension shows:
        /// ask WidgetKit to reload.
        case changed
        /// The one on disk shows the same (only the time of writing differs): nothing was written,
        /// and no reload is needed.
        case unchanged
        /// A disconnect came after the snapshot's epoch: nothing was written.
        case refused
    }

    /// Writes `snapshot` in place of the one before, whole or not at all.
    /// - Returns: whether it changed what extensions show, or was refused for a disconnect since
    ///   its ``ExtensionSnapshot/epoch``.
    /// - Throws: ``ExtensionSnapshotError`` with code `.cannotWrite` when the folder cannot be
    ///   written (the file before stays), or `.damaged` when the epoch's file cannot be read.
    @discardableResult
    public func write(_ snapshot: ExtensionSnapshot) throws -> Write {
        try write(snapshot, covers: [])
    }

    /// Writes `snapshot` with the covers its rows name (``ExtensionSnapshot/Playlist/cover``, each
    /// ``coverName(for:)`` of its bytes in `covers`), whole or not at all: the covers first, each
    /// replaced at once under its own name, then the snapshot; the covers no row names any more
    /// are deleted after. A cover larger than ``largestCoverSize`` is not kept.
    /// - Returns: whether it changed what extensions show, or was refused for a disconnect since
    ///   its ``ExtensionSnapshot/epoch``.
    /// - Throws: ``ExtensionSnapshotError`` as ``write(_:)`` does.
    @discardableResult
    public func write(_ snapshot: ExtensionSnapshot, covers: [Data]) throws -> Write {
        guard try epoch() == snapshot.epoch else { return .refused }
        let named = Set(snapshot.playlists.compactMap(\.cover))
        for bytes in covers where bytes.count <= Self.largestCoverSize {
            let name = Self.coverName(for: bytes)
            let url = coversURL.appendingPathComponent(name)
            guard named.contains(name), Self.contents(of: url, limit: Self.largestCoverSize) != bytes else { continue }
            try replace(url, with: bytes, in: coversURL)
        }
        defer { dropCovers(except: named) }
        if case .snapshot(var before) = read() {
            before.writtenAt = snapshot.writtenAt
            if before == snapshot { return .unchanged }
        }
        let data: Data
        do {
            data = try Self.encoder.encode(snapshot)
        } catch {
            throw ExtensionSnapshotError(code: .cannotWrite, message: "The snapshot could not be encoded: \(error).")
        }
        try replace(snapshotURL, with: data)
        // A forget between the check above and the rename: the file goes again, its covers too.
        if readEpoch() != snapshot.epoch {
            try? FileManager.default.removeItem(at: snapshotURL)
            try? FileManager.default.removeItem(at: coversURL)
            return .refused
        }
        return .changed
    }

    /// Deletes the covers not in `kept`; what cannot be deleted now is deleted by a later write.
    private func dropCovers(except kept: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: coversURL.path) else { return }
        for name in names where !kept.contains(name) {
            try? FileManager.default.removeItem(at: coversURL.appendingPathComponent(name))
        }
    }

    /// What a disconnect does: moves the forget epoch on, then deletes the snapshot, so nothing
    /// read from Spotify stays for the extensions, and a snapshot stamped with an earlier epoch is
    /// neither written nor shown.
    /// - Throws: ``ExtensionSnapshotError`` with code `.cannotWrite` when the folder cannot be
    ///   written.
    public func forget() throws {
        let onDisk = Self.contents(of: snapshotURL).flatMap { try? Self.decoder.decode(Format.self, from: $0) }
        let next = max(readEpoch() ?? 0, onDisk?.epoch ?? 0) + 1
        try replace(epochURL, with: Data(String(next).utf8))
        do {
            try FileManager.default.removeItem(at: snapshotURL)
        } catch  where !FileManager.default.fileExists(atPath: snapshotURL.path) {
            // Nothing was written yet.
        } catch {
            throw ExtensionSnapshotError(
                code: .cannotWrite, message: "\(snapshotURL.path) could not be deleted: \(error).")
        }  // The covers go with it: a disconnect leaves nothing read from Spotify for the extensions.
        do {
            try FileManager.default.removeItem(at: coversURL)
        } catch  where !FileManager.default.fileExists(atPath: coversURL.path) {
            // No cover was kept.
        } catch {
            throw ExtensionSnapshotError(
                code: .cannotWrite, message: "\(coversURL.path) could not be deleted: \(error).")
        }
    }

    // MARK: Files

    private struct Format: Decodable {
        var version: Int
        var epoch: UInt64?
    }

    // Dates as Foundation keeps them (seconds since 2001, exactly), so a snapshot read back
    // equals the one written and an unchanged one is not written again.
    private static let decoder = JSONDecoder()

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private func readEpoch() -> UInt64? {
        guard let data = Self.contents(of: epochURL) else {
            return FileManager.default.fileExists(atPath: epochURL.path) ? nil : 0
        }
        return UInt64(String(decoding: data, as: UTF8.self))
    }

    /// The bytes of `url` when it is a regular file (not a link) of at most ``largestSize``
    /// bytes. `lstat` rather than FileManager's attributes, which also look up the owner's name
    /// and so load the system's name services into an extension's process (about 3 MiB).
    private static func contents(of url: URL, limit: Int = largestSize) -> Data? {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else {
            return nil
        }
        return try? Data(contentsOf: url)
    }

    /// Writes `data` to a new file beside `url`, then renames it over `url`: a reader sees the
    /// old file or the new one. A file left by a writer killed before its rename is removed.
    private func replace(_ url: URL, with data: Data, in directory: URL? = nil) throws {
        let prefix = ".\(url.lastPathComponent)."
        let folder = directory ?? self.folder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
            let temporary = folder.appendingPathComponent("\(prefix)\(UUID().uuidString).tmp")
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                let code = errno
                try? FileManager.default.removeItem(at: temporary)
                throw ExtensionSnapshotError(
                    code: .cannotWrite, message: "\(url.path) could not be replaced (errno \(code)).")
            }
        } catch let error as ExtensionSnapshotError {
            throw error
        } catch {
            throw ExtensionSnapshotError(code: .cannotWrite, message: "\(url.path) could not be written: \(error).")
        }
    }
}

/// Why the app could not write the extension snapshot. Extensions never see it: their read
/// returns ``ExtensionSnapshotReading/nothing(_:)``.
public struct ExtensionSnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Equatable {
        /// The folder or a file in it could not be written.
        case cannotWrite
        /// The epoch's file holds something else than an epoch.
        case damaged
    }

    /// What went wrong.
    public let code: Code
    /// What went wrong and what to do, in English (a code an app words itself).
    public let message: String

    /// An error with its code and message.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
