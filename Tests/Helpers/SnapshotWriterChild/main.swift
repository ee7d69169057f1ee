import Dispatch
import Foundation
import SpotifyLinkExtensions

// Test helper for the extension snapshot's kill test: writes snapshots into FOLDER in a loop, each
// a different size, and prints `wrote N` after each write returned, until it sends itself SIGKILL
// KILL_AFTER_US microseconds after it started, wherever it is in a write.
//
// Usage: `SnapshotWriterChild FOLDER FIRST KILL_AFTER_US`, or `SnapshotWriterChild --peak FOLDER READS`.
let arguments = CommandLine.arguments
// `SnapshotWriterChild --peak FOLDER READS`: reads the snapshot READS times (none with 0), as a widget
// does on each timeline reload, then prints the process's resident high-water mark and its dirty pages in KiB
// (spotlink-bench compares 0 reads with many: what reading adds to an extension's memory).
if arguments.count == 4, arguments[1] == "--peak", let reads = Int(arguments[3]) {
    let file = ExtensionSnapshotFile(folder: URL(fileURLWithPath: arguments[2]))
    var shown = 0
    for _ in 0..<reads { shown += file.read().snapshot?.playlists.count ?? 0 }
    // What iOS counts against an extension's limit is its footprint: dirty pages (the heap, written
    // data), not the clean pages of the libraries' code. Linux's nearest figure is Private_Dirty.
    func kibibytes(_ field: String, in file: String) -> Substring {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(field) }?.split(separator: " ").dropFirst().first ?? "0"
    }
    let peak = kibibytes("VmHWM:", in: "/proc/self/status")
    let dirty = kibibytes("Private_Dirty:", in: "/proc/self/smaps_rollup")
    print("\(peak) \(dirty) \(shown)")
    exit(0)
}
guard arguments.count == 4, let first = Int(arguments[2]), let killAfter = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: SnapshotWriterChild FOLDER FIRST KILL_AFTER_US\n".utf8))
    exit(2)
}
let file = ExtensionSnapshotFile(folder: URL(fileURLWithPath: arguments[1]))
DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(killAfter)) { kill(getpid(), SIGKILL) }
var index = first
while true {
    try file.write(SnapshotWriterChild.snapshot(index, epoch: try file.epoch()))
    FileHandle.standardOutput.write(Data("wrote \(index)\n".utf8))
    index += 1
}

/// The snapshot write `index` makes: `index % 40 + 1` playlists, each naming `index`, so a reader
/// can tell a whole snapshot from a mixed one.
enum SnapshotWriterChild {
    static func snapshot(_ index: Int, epoch: UInt64) -> ExtensionSnapshot {
        ExtensionSnapshot(
            epoch: epoch, writtenAt: Date(timeIntervalSinceReferenceDate: Double(index)), isConnected: true,
            playlists: (0...(index % 40)).map { row in
                ExtensionSnapshot.Playlist(
                    namespace: "routine", recordID: "\(row)", title: "Routine \(index)", name: "Playlist \(index)",
                    trackCount: index)
            })
    }
}
