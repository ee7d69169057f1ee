import Dispatch
import Foundation
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyWebAPI

/// Test helper for the crash-safety tests: for each record in turn it links a playlist, stores the
/// playlist's details, stores its cover and unlinks every third record, printing a line after each
/// committed step (`linked N`, `described N`, `covered N`, `unlinked N`), until it is killed.
///
/// Usage: `LinksCrashChild DATABASE FIRST COUNT KILL_AFTER_US`: the process sends itself SIGKILL
/// that many microseconds after it has opened the database, wherever it is in its work.
///
/// `LinksCrashChild DATABASE forget` is a second process of the app instead (its widget, say): it
/// forgets the Spotify details of the file, as a disconnect there does, prints `forgot EPOCH` with
/// the file's new forget epoch, and exits.
@main
struct LinksCrashChild {
    /// The playlist record `index` links to.
    static func playlist(_ index: Int) throws -> SpotifyID { try SpotifyID(String(format: "%022d", index)) }

    /// The cover stored for record `index`: a size and a fill that say which record wrote it.
    static func cover(_ index: Int) -> Data { Data(repeating: UInt8(index % 251), count: 4096 + index % 512) }

    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[2] == "forget" {
            let store = try SQLitePlaylistLinkStore(location: .file(URL(fileURLWithPath: arguments[1])))
            try await store.linked.forgetSpotifyDetails()
            print("forgot \(try await store.forgetEpoch())")
            return
        }
        guard arguments.count == 5, let first = Int(arguments[2]), let count = Int(arguments[3]),
            let killAfter = Int(arguments[4])
        else {
            FileHandle.standardError.write(Data("usage: LinksCrashChild DATABASE FIRST COUNT KILL_AFTER_US\n".utf8))
            exit(2)
        }
        // Covers are a cache, bounded at 20 MiB by default: past it the oldest go, by design (its
        // own tests cover that). A slow run (ThreadSanitizer) writes more than 4,500 covers, so the
        // bound is lifted here: what this test checks is that a kill loses nothing reported.
        let links = try SQLitePlaylistLinkStore(
            location: .file(URL(fileURLWithPath: arguments[1])), coverCacheLimit: 1 << 30)
        DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(killAfter)) { kill(getpid(), SIGKILL) }
        func report(_ step: String, _ index: Int) { FileHandle.standardOutput.write(Data("\(step) \(index)\n".utf8)) }
        for index in first..<(first + count) {
            let record = RecordID(namespace: "crash", id: "\(index)")
            let id = try playlist(index)
            try await links.linked.link(record, to: id)
            report("linked", index)
            var metadata = PlaylistMetadata(id: id, availability: .available)
            metadata.name = "Playlist \(index)"
            metadata.trackCount = index
            metadata.totalDuration = .seconds(index)
            try await links.saveMetadata(metadata)
            report("described", index)
            try await links.saveCover(cover(index), for: id)
            report("covered", index)
            if index.isMultiple(of: 3) {
                _ = try await links.removeLink(for: record)
                report("unlinked", index)
            }
        }
    }
}
