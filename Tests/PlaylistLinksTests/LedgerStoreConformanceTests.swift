import Foundation
import Logging
@_spi(Storage) import PlaylistLinks
import PostgresTestServer
@_spi(Storage) import SpotifyLinkPostgres
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

/// Every ledger store a client can be given, each as two writers over one place: two processes'
/// view of the same file or database.
enum LedgerStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, sqliteFile, postgres

    static var available: [LedgerStoreKind] { allCases.filter { $0 != .postgres || TestPostgres.url != nil } }
    var testDescription: String { rawValue }

    func twoWriters() async throws -> (any RequestLedgerStore, any RequestLedgerStore) {
        switch self {
        case .memory:
            let store = MemoryRequestLedgerStore()
            return (store, store)
        case .sqliteFile:
            let url = temporaryFile("requests.sqlite")
            return (try SQLiteRequestLedgerStore(url: url), try SQLiteRequestLedgerStore(url: url))
        case .postgres:
            let logger = Logger(label: "test.postgres")
            _ = try await TestPostgres.shared.value
            // Counts under a limit take turns behind one advisory lock, and each call's deadline
            // includes its wait in line: under ThreadSanitizer on a loaded two-core machine the
            // 40th of `concurrentReservationsNeverPassTheLimit` once waited past the default 120 s
            // (run 11 of 2026-11-28; the test's three kinds took 170-217 s in passing runs). What
            // these tests check is the count, so the deadline is long; deadlines have their own
            // test (`aServerRestartMidTransactionLeavesNothingHalfWritten`).
            return (
                PostgresRequestLedgerStore(
                    client: try await TestPostgres.shared.value, logger: logger, deadline: .seconds(600)),
                PostgresRequestLedgerStore(client: try TestPostgres.client(), logger: logger, deadline: .seconds(600))
            )
        }
    }
}

@Suite("Every ledger store: one budget for every writer")
struct LedgerStoreConformanceTests {
    /// Spotify refuses the 61st request of a window with `QUOTA_EXCEEDED`: the ledger of one
    /// writer keeps the refusal (60 requests let through, the `Retry-After`), and a client over
    /// the other writer (another process's view) learns the limit from it. A day later, with the
    /// window empty, its background work stops at 45 (three quarters of 60) while what a person
    /// asks still goes; no `dailyBudget` was ever set.
    @Test(arguments: LedgerStoreKind.available)
    func aQuotaRefusalTeachesEveryWriterTheBackgroundBudget(_ kind: LedgerStoreKind) async throws {
        let (first, second) = try await kind.twoWriters()
        let key = SpotifyAppKey(issuer: "http://127.0.0.1", clientID: "learned-\(UUID().uuidString)")
        let clock = VirtualClock(mode: .manual)
        let answered = Lock(0)
        let transport = ScriptedTransport { _, _ in
            let count = answered.withLock { count in
                count += 1
                return count
            }
            return count == 61
                ? .json(
                    #"{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}"#, status: 429,
                    headers: ["Retry-After": "600"])
                : .json(#"{"id":"tester","display_name":"T","uri":"spotify:user:tester"}"#)
        }
        func client(_ store: any RequestLedgerStore) -> SpotifyClient {
            SpotifyClient(
                configuration: .live, tokens: StaticAccessTokenProvider(AccessToken("token")), transport: transport,
                clock: clock, ledger: RequestLedger(key: key, store: store), jitter: { 0 })
        }
        let here = client(first)
        for _ in 0..<60 { _ = try await here.currentUser() }
        let refused = try await #require(throws: SpotifyAPIError.self) { try await here.currentUser() }
        #expect(refused.code == .quotaExceeded)

        let there = RequestLedger(key: key, store: second)
        let learned = try #require(try await there.learnedQuota(at: clock.now))
        #expect(learned.limit == 60 && learned.backgroundBudget == 45)
        #expect(learned.refusals.map(\.retryAfter) == [.seconds(600)])
        #expect(learned.refusals.map(\.at) == [clock.now])

        // A day later the window is empty, and the limit is still the one learned.
        clock.advance(by: .seconds(86_400 + 1))
        let other = client(second)
        for _ in 0..<45 { _ = try await SpotifyClient.withOrigin(.backgroundWork) { try await other.currentUser() } }
        let stopped = try await #require(throws: SpotifyAPIError.self) {
            try await SpotifyClient.withOrigin(.backgroundWork) { try await other.currentUser() }
        }
        #expect(stopped.code == .budgetExhausted)
        #expect(stopped.message.contains("budget of 45"), "\(stopped.message)")
        #expect(try await other.currentUser().id == "tester")
        #expect(transport.requests.count == 61 + 45 + 1)
        #expect(await there.backgroundBudget(at: clock.now) == 45)

        // After 30 days nothing learned is left: the app's own budget (none) applies again.
        clock.advance(by: .seconds(LearnedQuota.memory))
        #expect(try await there.learnedQuota(at: clock.now) == nil)
        #expect(await there.backgroundBudget(at: clock.now) == nil)
    }

    /// Forty requests asked for at once through two writers, under a limit of twelve: exactly
    /// twelve are counted, whoever asked, and every refusal names the request whose leaving the
    /// window reopens it. Read then write, as two steps, would count more.
    @Test(arguments: LedgerStoreKind.available)
    func concurrentReservationsNeverPassTheLimit(_ kind: LedgerStoreKind) async throws {
        let (first, second) = try await kind.twoWriters()
        let key = SpotifyAppKey(issuer: "http://127.0.0.1", clientID: "budget-\(UUID().uuidString)")
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let results = try await withThrowingTaskGroup(of: (LedgerEntry, LedgerReservation).self) { group in
            for index in 0..<40 {
                group.addTask {
                    let entry = LedgerEntry(
                        sentAt: start.addingTimeInterval(Double(index)), route: "GET /me", status: nil,
                        background: true)
                    let store = index.isMultiple(of: 2) ? first : second
                    return (
                        entry,
                        try await store.reserve(entry, for: key, limit: 12, windowStart: start.addingTimeInterval(-60))
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let counted = results.filter { $0.1 == .counted }.map(\.0)
        #expect(counted.count == 12)
        let stored = try await first.entries(for: key, since: start.addingTimeInterval(-60))
        #expect(Set(stored.map(\.id)) == Set(counted.map(\.id)))
        let earliest = try #require(counted.map(\.sentAt).min())
        for case (_, .full(let oldest)) in results { #expect(oldest == earliest) }

        // The answer is filled in through either writer; entries past the window are forgotten.
        try await second.settle(counted[0].id, status: 200, for: key)
        #expect(try await first.entries(for: key, since: start).first { $0.id == counted[0].id }?.status == 200)
        let later = LedgerEntry(
            sentAt: start.addingTimeInterval(200), route: "GET /me", status: nil, background: true)
        #expect(
            try await first.reserve(later, for: key, limit: 12, windowStart: start.addingTimeInterval(100)) == .counted)
        #expect(try await second.entries(for: key, since: .distantPast).map(\.id) == [later.id])
    }

    /// An app and its widget opening a new ledger file at the same moment: GRDB's migrator reads the
    /// applied migrations outside each migration's transaction, so the later opener used to fail
    /// with "duplicate column name: id" (seen in the bench: eight processes, one new file). Here
    /// eight connections open each of 20 new files at once; every one must open.
    @Test func openersOfANewFileAtTheSameMomentAllOpenIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-open-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = Lock<[String]>([])
        for round in 0..<20 {
            let url = folder.appendingPathComponent("ledger-\(round).sqlite")
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do { _ = try SQLiteRequestLedgerStore(url: url) } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.first ?? "" })")
    }
}
