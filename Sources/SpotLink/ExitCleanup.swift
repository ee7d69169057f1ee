import Foundation
import SpotifyLinkSupport
import Synchronization

/// Folders a command made for itself (the demo's data, with its token file) removed however the
/// process ends: on return and on error (`defer`), on Ctrl-C or SIGTERM, and when stdout's reader
/// goes away (``Output``'s closed pipe). Signals are caught on a queue of their own, so the cleanup
/// runs outside the signal handler.
enum ExitCleanup {
    private static let folders = Lock<[URL]>([])
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Removes `folder` when the process ends, and from now on on SIGINT and SIGTERM too.
    static func remove(_ folder: URL) {
        folders.withLock { $0.append(folder) }
        installOnce
    }

    /// Removes every registered folder now (the process is ending).
    static func run() {
        for folder in folders.withLock({ list in
            defer { list = [] }; return list
        }) {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private static let installOnce: Void = {
        Output.onClosedPipe = { ExitCleanup.run() }
        for signal in [SIGINT, SIGTERM] {
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                ExitCleanup.run()
                exit(128 + signal)
            }
            source.resume()
            sources.append(source)
        }
    }()
}
