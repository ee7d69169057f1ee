package import Foundation
import SpotifyLinkSupport
import Synchronization

/// A second copy of the cooldowns a ``RequestLedger`` learns, where a failure of the ledger's own
/// storage cannot erase them: in this process's memory always, and for a quota cooldown in a small
/// file of its own beside the ledger.
///
/// The ledger's store is the authority; the mirror is what is left when it is not there. A
/// ledger file that cannot be read (damaged, written by a newer version of the package, refused as
/// a symbolic link) holds every request back, and its advice is to move it aside: the quota
/// cooldown it held still holds from the mirror then, and is copied into the new ledger at the
/// first request. A cooldown the store could not write (a read-only or full disk) still holds in
/// this process, and in the others through the file when the file could be written.
///
/// Only quota cooldowns (hours, and sending during one lengthens it) go to the file: a rate
/// limit's lasts seconds, and this process keeps it. Two processes learning quota cooldowns at the
/// same instant may leave either one in the file; the store, which is transactional, keeps the
/// longer.
package final class CooldownMirror: Sendable {
    /// The mirror's file, or `nil` for this process's memory alone.
    package let file: URL?
    private let held = Lock([SpotifyAppKey: Cooldown]())
    /// The app keys whose file copy this process has read since it started.
    private let looked = Lock(Set<SpotifyAppKey>())

    /// The longest file the mirror reads: a cooldown is some eighty bytes.
    static let largestFile = 64 * 1024

    /// A mirror kept in `file`, or in this process's memory alone when `file` is `nil`.
    package init(file: URL?) {
        self.file = file
    }

    /// The mirror of the ledger file at `ledger`: `spotify-requests-cooldown.json` beside
    /// `spotify-requests.sqlite`.
    package convenience init(besideLedger ledger: URL) {
        let name = ledger.deletingPathExtension().lastPathComponent
        self.init(file: ledger.deletingLastPathComponent().appendingPathComponent("\(name)-cooldown.json"))
    }

    /// Keeps `cooldown` for `key` unless one ending later is kept: in memory, and in the file for a
    /// quota cooldown.
    /// - Throws: the file system's error when the file could not be written; memory keeps it still.
    package func keep(_ cooldown: Cooldown, for key: SpotifyAppKey) throws {
        held.withLock { $0[key] = Self.stronger($0[key], cooldown, now: cooldown.learnedAt) }
        guard let file, cooldown.kind == .quota else { return }
        var entries = Self.read(file)
        if let kept = entries[key], kept.until >= cooldown.until { return }
        entries[key] = cooldown
        let records = entries.sorted { $0.key.clientID < $1.key.clientID }.map { key, cooldown in
            Record(
                issuer: key.issuer, clientID: key.clientID, kind: cooldown.kind.rawValue,
                until: cooldown.until.timeIntervalSince1970, learnedAt: cooldown.learnedAt.timeIntervalSince1970)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try PrivateFiles.replaceFile(at: file, with: try encoder.encode(records))
    }

    /// The cooldown kept for `key`, in memory or in the file, whichever holds longer at `now`.
    /// - Parameter readingFile: whether to read the file; without it only this process's memory,
    ///   and the file the first time this process asks for `key`.
    package func cooldown(for key: SpotifyAppKey, at now: Date, readingFile: Bool) -> Cooldown? {
        let first = looked.withLock { $0.insert(key).inserted }
        let fromFile = (readingFile || first) ? file.flatMap { Self.read($0)[key] } : nil
        let inMemory = held.withLock { $0[key] }
        return Self.stronger(inMemory, fromFile, now: now)
    }

    /// Of two cooldowns, the one that holds at `now`: a quota cooldown in force before a rate
    /// limit's, else the one that ends later.
    package static func stronger(_ first: Cooldown?, _ second: Cooldown?, now: Date) -> Cooldown? {
        let active = [first, second].compactMap { $0 }.filter { $0.isActive(at: now) }
        return active.max { ($0.kind == .quota ? 1 : 0, $0.until) < ($1.kind == .quota ? 1 : 0, $1.until) }
            ?? first ?? second
    }

    private struct Record: Codable {
        var issuer: String
        var clientID: String
        var kind: String
        var until: Double
        var learnedAt: Double
    }

    /// The file's cooldowns; an empty mirror when it is missing, too large or unreadable (the
    /// ledger is the authority, and a mirror it cannot read holds nothing back).
    private static func read(_ file: URL) -> [SpotifyAppKey: Cooldown] {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return [:] }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: largestFile + 1), data.count <= largestFile,
            let records = try? JSONDecoder().decode([Record].self, from: data)
        else { return [:] }
        var entries: [SpotifyAppKey: Cooldown] = [:]
        for record in records {
            guard let kind = Cooldown.Kind(rawValue: record.kind), record.until.isFinite, record.learnedAt.isFinite
            else { continue }
            // A cooldown is at most a day long: a file saying more was not written by a ledger.
            let learnedAt = Date(timeIntervalSince1970: record.learnedAt)
            let until = Date(
                timeIntervalSince1970: min(record.until, record.learnedAt + RequestLedger.maximumCooldown.seconds))
            entries[SpotifyAppKey(issuer: record.issuer, clientID: record.clientID)] = Cooldown(
                kind: kind, until: until, learnedAt: learnedAt)
        }
        return entries
    }
}
