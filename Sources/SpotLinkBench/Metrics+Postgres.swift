import Foundation
import Logging
@_spi(Storage) import PlaylistLinks
import PostgresNIO
@_spi(Storage) import SpotifyAuth
@_spi(Storage) import SpotifyLinkPostgres
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyWebAPI

/// The PostgreSQL group: what a backend's processes pay for the shared ledger and the card read,
/// each beside SQLite's figure from the same run.
extension Metrics {
    /// The server the group measures; `scripts/with-postgres.sh` sets it to a throwaway cluster.
    static let postgresURLVariable = "SPOTLINK_POSTGRES_URL"

    /// Ledger admissions per second from 1 and 8 processes sharing one ledger, and the card read's
    /// p50 and p99 with 100,000 links; skipped, with the reason, when no server is given.
    static func postgres(_ report: Report, quick: Bool) async throws {
        let names = [
            ("ledger_admissions_postgres_1_process", "per s"), ("ledger_admissions_postgres_8_processes", "per s"),
            ("postgres_card_read_p99", "ms"), ("token_store_read_postgres_p50", "ms"),
            ("token_store_refresh_postgres_p50", "ms"),
        ]
        guard let url = ProcessInfo.processInfo.environment[postgresURLVariable], !url.isEmpty else {
            for (name, unit) in names {
                report.metric(
                    name, 0, unit, floor: nil, target: .contrast(),
                    extra: [
                        "skipped":
                            "no PostgreSQL server: set \(postgresURLVariable) or run under scripts/with-postgres.sh"
                    ])
            }
            return
        }
        try await PostgresSchema.migrate(url, logger: quietLogger)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let perProcess = quick ? 300 : 1_000
        for processes in [1, 8] {
            // The file exists before the workers open it, as an app's does after its first launch:
            // the bench measures admissions, not first opens (LedgerStoreConformanceTests has those).
            let file = folder.appendingPathComponent("ledger-\(processes).sqlite")
            _ = try RequestLedger(key: SpotifyAppKey(issuer: "bench", clientID: "setup"), file: file)
            let sqlite = try await admissions(.sqlite, target: file.path, processes: processes, count: perProcess)
            let postgres = try await admissions(.postgres, target: url, processes: processes, count: perProcess)
            report.metric(
                "ledger_admissions_postgres_\(processes)_process\(processes == 1 ? "" : "es")", postgres, "per s",
                floor: nil, target: .machine(.atLeast(100), "per s: far above any rate Spotify allows"),
                extra: [
                    "sqlite_per_s": sqlite.rounded(), "admissions": processes * perProcess,
                    "note": "cooldown read, budgeted count and settle per admission",
                ])
        }

        let links = 100_000
        let reads = quick ? 2_000 : 10_000
        let sqlite = try await sqliteCardSamples(links: links, reads: reads)
        let postgres = try await postgresCardSamples(url: url, links: links, reads: reads)
        report.metric(
            "postgres_card_read_p50", percentile(postgres, 0.5), "ms", floor: nil, target: .contrast(),
            extra: ["links": links, "sqlite_p50_ms": percentile(sqlite, 0.5)])
        report.metric(
            "postgres_card_read_p99", percentile(postgres, 0.99), "ms", floor: nil,
            target: .machine(.atMost(2), "ms, one query over loopback"),
            extra: ["links": links, "sqlite_p99_ms": percentile(sqlite, 0.99)])
        try await tokenStores(report, url: url, quick: quick)
    }

    /// The sealed PostgreSQL token store beside the 0600 file store: a read (a launch, a request
    /// after the cache), and a refresh's store work (the cross-process lock, a read under it, the
    /// save, the release) without the HTTP exchange.
    static func tokenStores(_ report: Report, url: String, quick: Bool) async throws {
        let rounds = quick ? 200 : 1_000
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: quietLogger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let postgres = try PostgresTokenStore(
            client: client, user: "bench-\(UUID())", keys: try TokenSealingKeys(parsing: "bench:\(secret)"),
            logger: quietLogger)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tokens-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = FileTokenStore(directory: folder)
        let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "bench")
        let tokens = StoredTokens(
            accessToken: AccessToken(String(repeating: "A", count: 240)),
            refreshToken: RefreshToken(String(repeating: "R", count: 130)), expiresAt: Date(),
            scopes: SpotifyScope.all, signedInAt: Date(), issuer: key.issuer, clientID: key.clientID)

        func samples(_ store: any TokenStore, _ body: (any TokenStore) async throws -> Void) async throws -> [Double] {
            try await body(store)  // a warm pool and a warm page cache, as a running server has
            var samples: [Double] = []
            for _ in 0..<rounds {
                let start = ContinuousClock.now
                try await body(store)
                samples.append((ContinuousClock.now - start).seconds * 1000)
            }
            return samples
        }
        let read: (any TokenStore) async throws -> Void = { _ = try await $0.load(key) }
        let refresh: (any TokenStore) async throws -> Void = { store in
            let lock = try await store.acquireLock(key)
            _ = try await store.load(key)
            try await store.save(tokens, for: key)
            lock.release()
        }
        for store in [file, postgres] as [any TokenStore] { try await store.save(tokens, for: key) }
        let fileReads = try await samples(file, read)
        let postgresReads = try await samples(postgres, read)
        let fileRefreshes = try await samples(file, refresh)
        let postgresRefreshes = try await samples(postgres, refresh)
        try await postgres.remove(key)
        report.metric(
            "token_store_read_postgres_p50", percentile(postgresReads, 0.5), "ms", floor: nil,
            target: .machine(.atMost(2), "ms, one query and an AES-GCM open"),
            extra: [
                "p99_ms": percentile(postgresReads, 0.99), "file_p50_ms": percentile(fileReads, 0.5),
                "file_p99_ms": percentile(fileReads, 0.99), "rounds": rounds,
            ])
        report.metric(
            "token_store_refresh_postgres_p50", percentile(postgresRefreshes, 0.5), "ms", floor: nil,
            target: .machine(.atMost(10), "ms: lock, read, sealed save, release; Spotify's answer takes longer"),
            extra: [
                "p99_ms": percentile(postgresRefreshes, 0.99), "file_p50_ms": percentile(fileRefreshes, 0.5),
                "file_p99_ms": percentile(fileRefreshes, 0.99), "rounds": rounds,
                "note": "the store's part of a refresh, without the HTTP exchange",
            ])
    }

    enum LedgerKind: String {
        case sqlite, postgres
    }

    /// Admissions per second from `processes` processes at once, each admitting `count` requests to
    /// one ledger: the processes are this binary (`--ledger-worker`), started and connected first,
    /// then released together; the time runs from their release to the last one's end.
    static func admissions(_ kind: LedgerKind, target: String, processes: Int, count: Int) async throws -> Double {
        let key = "bench-\(UUID().uuidString)"
        var workers: [(process: Process, input: Pipe, output: Pipe)] = []
        defer { for worker in workers where worker.process.isRunning { worker.process.terminate() } }
        for _ in 0..<processes {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [
                "--ledger-worker", kind.rawValue, "--ledger-target", target, "--ledger-count", "\(count)",
                "--ledger-key", key,
            ]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            workers.append((process, input, output))
        }
        for worker in workers {
            let line = await readLine(worker.output.fileHandleForReading)
            guard line.hasPrefix("ready") else { throw BenchFailure("a \(kind) ledger worker did not start: \(line)") }
        }
        let start = ContinuousClock.now
        for worker in workers { worker.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        for worker in workers {
            let line = await readLine(worker.output.fileHandleForReading)
            guard line.hasPrefix("done") else { throw BenchFailure("a \(kind) ledger worker failed: \(line)") }
        }
        return Double(processes * count) / (ContinuousClock.now - start).seconds
    }

    /// `spotlink-bench --ledger-worker`: opens the ledger, admits one request to connect, says
    /// `ready`, waits for a line on standard input, admits `count` more and says `done`.
    static func ledgerWorker(_ kind: LedgerKind, target: String, count: Int, key: String) async throws {
        let quota = SpotifyAppKey(issuer: "bench", clientID: key)
        let budget = 100_000_000
        var postgres: Task<Void, Never>?
        let ledger: RequestLedger
        switch kind {
        case .sqlite:
            ledger = try RequestLedger(key: quota, file: URL(fileURLWithPath: target), dailyBudget: budget)
        case .postgres:
            let client = PostgresClient(
                configuration: try PostgresURL.configuration(target), backgroundLogger: quietLogger)
            postgres = Task { await client.run() }
            ledger = RequestLedger(key: quota, postgres: client, dailyBudget: budget, logger: quietLogger)
        }
        defer { postgres?.cancel() }
        try await admit(ledger)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        _ = Swift.readLine()
        for _ in 0..<count { try await admit(ledger) }
        FileHandle.standardOutput.write(Data("done\n".utf8))
    }

    /// What a request asks of the ledger: the cooldown, a count within the budget, the answer's status.
    private static func admit(_ ledger: RequestLedger) async throws {
        let now = Date()
        _ = try await ledger.activeCooldown(at: now)
        let id = try await ledger.reserve(route: "GET /me", background: true, at: now)
        await ledger.settle(id, status: 200)
    }

    /// Card reads from PostgreSQL with `links` links of one user, filled in one statement each.
    static func postgresCardSamples(url: String, links: Int, reads: Int) async throws -> [Double] {
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: quietLogger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let user = "bench-\(UUID().uuidString)"
            try await client.query(
                """
                INSERT INTO spotlink_playlist (user_key, id, name, track_count, duration_ms, availability, fetched_at)
                SELECT \(user), lpad(i::text, 22, '0'), 'Playlist ' || i, 40, 9000000, 'available', 0
                FROM generate_series(0, \(links - 1)) AS i
                """, logger: quietLogger)
            try await client.query(
                """
                INSERT INTO spotlink_link (user_key, namespace, record_id, playlist_id, linked_at)
                SELECT \(user), 'session', i::text, lpad(i::text, 22, '0'), 0 FROM generate_series(0, \(links - 1)) AS i
                """, logger: quietLogger)
            try await client.query("ANALYZE spotlink_link", logger: quietLogger)
            try await client.query("ANALYZE spotlink_playlist", logger: quietLogger)
            let store = try PostgresPlaylistLinkStore(client: client, user: user, logger: quietLogger)
            let samples = try await cardSamples(links: links, reads: reads) { try await store.card(for: $0) }
            try await client.query("DELETE FROM spotlink_link WHERE user_key = \(user)", logger: quietLogger)
            try await client.query("DELETE FROM spotlink_playlist WHERE user_key = \(user)", logger: quietLogger)
            return samples
        }
    }

    /// One line from a worker's output, read on a thread of its own.
    private static func readLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                var data = Data()
                while !data.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    data += chunk
                }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
    }

    static let quietLogger = Logger(label: "spotlink-bench.postgres") { _ in SwiftLogNoOpLogHandler() }
}

/// A bench step that could not measure what it set out to.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
