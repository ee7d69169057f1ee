import Foundation
import Logging
@_spi(Storage) import PlaylistLinks
import PostgresNIO
@_spi(Storage) import SpotifyLinkPostgres
import SpotifyLinkSupport
import SpotifyWebAPI
import Synchronization

/// Test helper for the restart fault: run under its own `scripts/with-postgres.sh` (a cluster no
/// other test shares). A link save and a ledger count are each held in the middle of their
/// transaction (a blocker holds their tables' locks), the server is restarted in immediate mode
/// (a crash for every open transaction), and what is left is printed, one `name value` per line:
///
///   blocked 2                 both transactions were waiting inside when the server went down
///   link-save failed-database the save's error code: it ended, by its deadline if not before
///   links s1                  the records linked afterwards (only the one saved before)
///   playlist-rows 1           playlist rows of the user: the half-written one is gone
///   ledger-count failed-database  the count's, likewise
///   ledger-entries 1          the app's requests afterwards (only the one counted before)
///   after-restart ok          a save and a count on the same client, once the server is back
let environment = ProcessInfo.processInfo.environment
guard let url = environment["SPOTLINK_POSTGRES_URL"], let data = environment["SPOTLINK_POSTGRES_DATA"],
    let bin = environment["SPOTLINK_POSTGRES_BIN"]
else {
    FileHandle.standardError.write(Data("run under scripts/with-postgres.sh\n".utf8))
    exit(2)
}
func say(_ line: String) { FileHandle.standardOutput.write(Data("\(line)\n".utf8)) }

/// How a piece of work ended, as it reports it: `pending` until it does, then `succeeded` or
/// `failed-CODE`.
final class Outcome: Sendable {
    private let state = Lock("pending")
    var value: String { state.withLock { $0 } }

    /// Runs `body` in a task of its own and keeps how it ended.
    init(_ body: @escaping @Sendable () async throws -> Void) {
        Task { [self] in
            do {
                try await body()
                self.state.withLock { $0 = "succeeded" }
            } catch let error as PlaylistLinksError {
                self.state.withLock { $0 = "failed-\(error.code)" }
            } catch {
                self.state.withLock { $0 = "failed-\(type(of: error))" }
            }
        }
    }

    /// How it ended, or `hung` when it still has not 20 s from now (its deadline is 10 s).
    func settled() async -> String {
        for _ in 0..<200 where value == "pending" { try? await Task.sleep(for: .milliseconds(100)) }
        return value == "pending" ? "hung" : value
    }
}

/// In a function, where PostgresNIO's async `query` is chosen over its future-returning twin.
func run(url: String, data: String, bin: String) async throws {
    let logger = Logger(label: "restart-child")
    try await PostgresSchema.migrate(url)
    let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
    let running = Task { await client.run() }
    // Deadlines longer than the restart takes, so the calls it interrupts end by them.
    let store = try PostgresPlaylistLinkStore(client: client, user: "user-1", deadline: .seconds(10))
    let ledger = PostgresRequestLedgerStore(client: client, logger: logger, deadline: .seconds(10))
    let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "restart")
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Sendable func metadata(_ id: String, _ name: String) -> PlaylistMetadata {
        var metadata = PlaylistMetadata(id: SpotifyID(unchecked: id), availability: .available)
        metadata.name = name
        return metadata
    }
    @Sendable func entry(_ offset: Double) -> LedgerEntry {
        LedgerEntry(sentAt: start.addingTimeInterval(offset), route: "GET /me", status: nil, background: false)
    }

    // Saved before the fault.
    try await store.saveLink(
        RecordID(namespace: "session", id: "s1"), to: metadata("37i9dQZF1DXcBWIGoYBM5M", "Focus"))
    _ = try await ledger.reserve(entry(0), for: key, limit: nil, windowStart: start.addingTimeInterval(-60))

    // A blocker holds both tables, so each write stops inside its transaction.
    let connection = try PostgresURL.connectionConfiguration(url)
    let blocker = try await PostgresConnection.connect(configuration: connection, id: 1, logger: logger)
    try await blocker.query(PostgresQuery(unsafeSQL: "BEGIN"), logger: logger)
    try await blocker.query(
        PostgresQuery(unsafeSQL: "LOCK TABLE spotlink_link, spotlink_request IN ACCESS EXCLUSIVE MODE"), logger: logger)

    let save = Outcome {
        try await store.saveLink(
            RecordID(namespace: "session", id: "s2"), to: metadata("4rOoJ6Egrf8K2IrywzwOMk", "Deep Work"))
    }
    let count = Outcome {
        _ = try await ledger.reserve(entry(1), for: key, limit: 12, windowStart: start.addingTimeInterval(-60))
    }

    var waiting = 0
    for _ in 0..<1_000 {
        let rows = try await blocker.query(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM pg_locks WHERE NOT granted"), logger: logger)
        for try await (n) in rows.decode(Int.self) { waiting = n }
        if waiting >= 2 { break }
        try await Task.sleep(for: .milliseconds(10))
    }
    say("blocked \(waiting)")

    // The server goes down with both transactions open, and comes back.
    // Through the shell, not `Process`: Foundation learns that a child ended when a socket the
    // child inherited closes, and the restarted server (a grandchild) would hold it open for ever.
    let folder = URL(fileURLWithPath: data).deletingLastPathComponent().path
    let pgctl = "'\(bin)/pg_ctl' -D '\(data)' -l '\(folder)/server.log' -m immediate -w -t 60 restart >/dev/null 2>&1"
    let command = getuid() == 0 ? "runuser -u postgres -- \(pgctl)" : pgctl
    let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
        Thread { done.resume(returning: system(command)) }.start()
    }
    guard status == 0 else {
        FileHandle.standardError.write(Data("pg_ctl restart failed (\(status))\n".utf8))
        exit(3)
    }

    // The pool finds the server again; what is there is what was committed.
    func retrying<T>(_ body: () async throws -> T) async throws -> T {
        for _ in 0..<50 {
            if let value = try? await body() { return value }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await body()
    }
    let links = try await retrying { try await store.links() }
    say("links \(links.map(\.record.id).sorted().joined(separator: ","))")
    say("playlist-rows \(try await store.snapshot().metadata.count)")
    say("ledger-entries \(try await ledger.entries(for: key, since: .distantPast).count)")

    try await store.saveLink(
        RecordID(namespace: "session", id: "s2"), to: metadata("4rOoJ6Egrf8K2IrywzwOMk", "Deep Work"))
    let again = try await ledger.reserve(entry(2), for: key, limit: 12, windowStart: start.addingTimeInterval(-60))
    let relinked = try await store.links().count == 2 && again == .counted
    say("after-restart \(relinked ? "ok" : "wrong")")
    // PostgresNIO 1.33.2 does not always end a query whose connection the restart closed (seen: a
    // save waiting on a lock never returns, even cancelled): the stores' deadlines end them.
    say("link-save \(await save.settled())")
    say("ledger-count \(await count.settled())")
    running.cancel()
    exit(0)
}

try await run(url: url, data: data, bin: bin)
