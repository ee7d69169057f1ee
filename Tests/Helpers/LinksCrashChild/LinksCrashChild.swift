import Dispatch
import Foundation
import PlaylistLinks
import SpotifyWebAPI

/// Test helper for checklist row 40: links records and writes refresh metadata in a loop,
/// printing `saved N` after each committed link, until it is killed.
///
/// Usage: `LinksCrashChild DATABASE FIRST COUNT KILL_AFTER_MS`: the process sends itself SIGKILL
/// that many milliseconds after its first commit, wherever it is in its work.
@main
struct LinksCrashChild {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let first = Int(arguments[2]), let count = Int(arguments[3]), let killAfter = Int(arguments[4])
        else {
            FileHandle.standardError.write(Data("usage: LinksCrashChild DATABASE FIRST COUNT KILL_AFTER_MS\n".utf8))
            exit(2)
        }
        let links = try PlaylistLinks(location: .file(URL(fileURLWithPath: arguments[1])))
        for index in first..<(first + count) {
            let id = try SpotifyID(String(format: "%022d", index % 97).replacingOccurrences(of: " ", with: "0"))
            try links.link(RecordID(namespace: "crash", id: "\(index)"), to: id)
            FileHandle.standardOutput.write(Data("saved \(index)\n".utf8))
            if index == first {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(killAfter)) { kill(getpid(), SIGKILL) }
            }
            var metadata = PlaylistMetadata(id: id, availability: .available)
            metadata.name = "Playlist \(index)"
            metadata.trackCount = index
            metadata.totalDuration = .seconds(index)
            try links.store(metadata)
            try links.storeCover(Data(repeating: UInt8(index % 256), count: 4096), for: id)
        }
    }
}
