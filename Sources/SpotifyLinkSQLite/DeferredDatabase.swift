public import GRDB
import SpotifyLinkSupport
import Synchronization

/// A database opened (and migrated) at its first use rather than when its store is made, so an app
/// can make its stores on the main actor at launch without touching the disk there: the first read
/// or write, which the models run off the main actor, opens it. An opening that fails is tried
/// again at the next use (the disk may have been full, the device locked), and until then every use
/// fails with its error.
package final class DeferredDatabase: Sendable {
    private let open: @Sendable () throws -> any DatabaseWriter
    private let opened: Lock<(any DatabaseWriter)?>

    /// A database that `open` opens and migrates at the first use.
    package init(_ open: @escaping @Sendable () throws -> any DatabaseWriter) {
        self.open = open
        opened = Lock(nil)
    }

    /// A database that is already open.
    package init(opened writer: any DatabaseWriter) {
        open = { writer }
        opened = Lock(writer)
    }

    /// The open database, opened now if it is not yet; callers wait for one opening.
    package func writer() throws -> any DatabaseWriter {
        try opened.withLock { writer in
            if let writer { return writer }
            let new = try open()
            writer = new
            return new
        }
    }

    /// Whether it has been opened (tests check that making a store did not).
    package var isOpen: Bool { opened.withLock { $0 != nil } }
}

/// GRDB's configuration of a database connection, as the stores take it: an app passes its own, for
/// example with `observesSuspensionNotifications` for a file in an App Group container.
public typealias DatabaseConfiguration = GRDB.Configuration
