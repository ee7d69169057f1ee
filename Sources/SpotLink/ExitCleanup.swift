import Foundation
import SpotifyLinkSupport
import Synchronization

/// Folders a command made for itself (the demo's data, with its token file) removed however the
/// process ends: on return and on error (`defer`), on Ctrl-C, SIGTERM or SIGHUP (its terminal
/// closed), and when stdout's reader goes away (``Output``'s closed pipe). Signals are caught on a
/// queue of their own, so the cleanup runs outside the signal handler.
enum ExitCleanup {
    private static let folders = Lock<[URL]>([])
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Removes `folder` when the process ends, and from now on on SIGINT, SIGTERM and SIGHUP too.
    static func remove(_ folder: URL) {
        folders.withLock { $0.append(folder) }
        installOnce
    }

    /// Removes every registered folder now (the process is ending). The command may still be
    /// writing into a folder (SQLite's journal, a token file) while it is removed, so removing the
    /// last entry can meet a new one: the removal is tried again, a few milliseconds apart, until
    /// the folder is gone (for at most two seconds).
    static func run() {
        for folder in folders.withLock({ list in
            defer { list = [] }; return list
        }) {
            for _ in 0..<200 where FileManager.default.fileExists(atPath: folder.path) {
                try? FileManager.default.removeItem(at: folder)
                if FileManager.default.fileExists(atPath: folder.path) { usleep(10_000) }
            }
        }
    }

    private static let installOnce: Void = {
        Output.onClosedPipe = { ExitCleanup.run() }
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                ExitCleanup.run()
                // `_exit`, not `exit`: the command's other threads are still running, and exit
                // handlers run beside them can deadlock. Output is written unbuffered, so nothing
                // is lost.
                _exit(128 + signal)
            }
            source.resume()
            sources.append(source)
        }
    }()
}
