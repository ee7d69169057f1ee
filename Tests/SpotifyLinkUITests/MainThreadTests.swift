import Foundation
import GRDB
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

/// The journal app's plan allows the main thread 16 ms of I/O: what the README's app code does
/// (connect, pick, link, show a card, paste a link, search, follow what plays, delete a session,
/// disconnect), awaited from the main actor as a view does, runs no SQLite statement there. A
/// database trace hook on both of the data folder's files sees every statement and the queue it
/// ran on.
/// The concurrency runtime's `swift_task_isCurrentExecutorWithFlags` (exported, and what
/// `assumeIsolated` asks), called with flags 0 so that it answers instead of trapping. Its two
/// arguments of an executor and the flags travel in the registers of a C call.
private let isCurrentExecutor: @convention(c) (UnsafeRawPointer, UInt, UInt64) -> Bool = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_task_isCurrentExecutorWithFlags") else {
        fatalError("the concurrency runtime exports no swift_task_isCurrentExecutorWithFlags")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer, UInt, UInt64) -> Bool).self)
}()

@MainActor
@Suite("No SQLite on the main thread in the app's paths")
struct MainThreadTests {
    /// Every statement the data folder's databases ran, and those that ran on the main queue.
    final class Statements: Sendable {
        private let traced = Lock<(count: Int, onMain: [String])>((0, []))

        /// How many statements ran.
        var count: Int { traced.withLock { $0.count } }
        /// The statements that ran on the main queue (the main actor's executor).
        var onMain: [String] { traced.withLock { $0.onMain } }

        /// GRDB's configuration of the folder's databases, tracing each statement.
        var configuration: DatabaseConfiguration {
            var configuration = DatabaseConfiguration()
            configuration.prepareDatabase { db in
                db.trace(options: .statement) { event in self.note("\(event)") }
            }
            return configuration
        }

        private func note(_ statement: String) {
            let onMain = MainThreadTests.onMainActor()
            traced.withLock { traced in
                traced.count += 1
                if onMain { traced.onMain.append(statement) }
            }
        }
    }

    /// Whether the caller runs on the main actor, also inside a synchronous call into another
    /// queue (GRDB's `queue.sync`), where `DispatchQueue.getSpecific` sees that queue instead:
    /// the concurrency runtime's own check, asked not to trap (flags 0).
    nonisolated static func onMainActor() -> Bool {
        let main = unsafeBitCast(MainActor.sharedUnownedExecutor, to: (UnsafeRawPointer, UInt).self)
        return isCurrentExecutor(main.0, main.1, 0)
    }

    @Test func theReadmesAppCodeRunsNoStatementOnTheMainThread() async throws {
        _ = LaunchTests.FileCalls.mainQueue
        #expect(
            DispatchQueue.getSpecific(key: LaunchTests.FileCalls.mainQueue) == true,
            "the main actor must run on the main queue")
        let folder = LaunchTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let statements = Statements()
        let harness = try await UIHarness(folder: folder, database: statements.configuration)
        let spotify = harness.spotify

        try await harness.connect()
        // The journal: pick a playlist for a session, show its card.
        let session = RecordID(namespace: "session", id: "42")
        let picker = spotify.picker()
        await picker.appear()
        picker.query = "deep"
        let chosen = try #require(picker.results.first { $0.name == "Deep Work" })
        #expect(try await picker.select(chosen, for: session) != nil)
        let card = spotify.card(for: session)
        await card.load()
        #expect(card.card?.metadata.name == "Deep Work")
        // The routine app: a pasted link, then what plays while the routine runs.
        let routine = RecordID(namespace: "routine", id: "morning")
        let pasted = "https://open.spotify.com/playlist/\(chosen.id.rawValue)"
        try await spotify.links.link(routine, to: SpotifyReference(parsing: pasted, expecting: .playlist).id)
        // The learning app: a search in Japanese.
        let search = spotify.songSearch()
        search.query = "よあけ"
        await harness.clock.play(for: .seconds(1))
        try await waitUntil("the search's results") { !search.results.isEmpty }
        let indicator = spotify.nowPlaying()
        #expect(indicator.start(routine: .playlist(chosen.id)) != nil)
        await harness.clock.play(for: .seconds(120))
        #expect(indicator.callCount > 0)
        indicator.finishRoutine()
        // Deleting the session, then disconnecting (which forgets the saved details).
        #expect(try await spotify.links.removeLink(for: session))
        await spotify.connection.disconnect()
        #expect(try await spotify.links.card(for: routine)?.metadata.name == nil)

        #expect(statements.count > 50, "the trace hook saw \(statements.count) statements")
        #expect(
            statements.onMain.isEmpty,
            "SQLite on the main thread: \(statements.onMain.prefix(5)) (\(statements.onMain.count) statements)")
        await harness.stop()
    }
}
