import Foundation
import Logging
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyWebAPI

private let key = SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "app")
private let quotaAnswer = ScriptedTransport.Reply.json(
    #"{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}"#, status: 429,
    headers: ["Retry-After": "7200"])

/// A ledger store whose chosen operations fail, as a damaged, newer, read-only or suspended file's
/// do; the rest goes to a memory store. Counts the attempts of each.
private final class BrokenLedgerStore: RequestLedgerStore {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the store is broken" }
    }
    enum Operation: Hashable, Sendable { case read, reserve, write }

    private let memory = MemoryRequestLedgerStore()
    private let state: Lock<(broken: Set<Operation>, attempts: [Operation: Int])>

    init(broken: Set<Operation>) { state = Lock((broken, [:])) }

    func breaking(_ operations: Set<Operation>) { state.withLock { $0.broken = operations } }
    func attempts(_ operation: Operation) -> Int { state.withLock { $0.attempts[operation, default: 0] } }

    private func attempt(_ operation: Operation) throws {
        try state.withLock { state in
            state.attempts[operation, default: 0] += 1
            if state.broken.contains(operation) { throw Broken() }
        }
    }

    func cooldown(for key: SpotifyAppKey) async throws -> Cooldown? {
        try attempt(.read)
        return try await memory.cooldown(for: key)
    }
    func extendCooldown(_ cooldown: Cooldown, for key: SpotifyAppKey) async throws {
        try attempt(.write)
        try await memory.extendCooldown(cooldown, for: key)
    }
    func reserve(_ entry: LedgerEntry, for key: SpotifyAppKey, limit: Int?, windowStart: Date) async throws
        -> LedgerReservation
    {
        try attempt(.reserve)
        return try await memory.reserve(entry, for: key, limit: limit, windowStart: windowStart)
    }
    func settle(_ id: UUID, status: Int, for key: SpotifyAppKey) async throws {
        try await memory.settle(id, status: status, for: key)
    }
    func entries(for key: SpotifyAppKey, since date: Date) async throws -> [LedgerEntry] {
        try await memory.entries(for: key, since: date)
    }
    func recordQuotaRefusal(_ refusal: QuotaRefusal, for key: SpotifyAppKey) async throws {
        try attempt(.write)
        try await memory.recordQuotaRefusal(refusal, for: key)
    }
    func quotaRefusals(for key: SpotifyAppKey, since date: Date) async throws -> [QuotaRefusal] {
        try await memory.quotaRefusals(for: key, since: date)
    }
}

private final class Warnings: Sendable {
    private let lines = Lock<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

private struct WarningHandler: LogHandler {
    let warnings: Warnings
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= .warning { warnings.append("\(event.message) \(event.metadata ?? [:])") }
    }
}

/// Issue 66 item 1: a request ledger the process cannot use holds requests back, never waves them
/// through, and a cooldown it cannot keep still holds.
@Suite("A ledger that fails, fails closed")
struct LedgerFailsClosedTests {
    /// Nothing leaves while the ledger cannot be read: the request fails with the ledger's own
    /// code, once (no retry), and nothing reaches Spotify.
    @Test func aLedgerThatCannotBeReadSendsNothing() async throws {
        let store = BrokenLedgerStore(broken: [.read])
        let transport = ScriptedTransport([.json(meJSON)])
        let client = makeClient(transport, ledger: RequestLedger(key: key, store: store))
        let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(error.code == .ledgerUnavailable)
        #expect(error.message.contains("nothing was sent"), "\(error.message)")
        #expect(transport.requests.isEmpty)
        #expect(store.attempts(.reserve) == 0)
        // Once it can be read again, the request goes.
        store.breaking([])
        #expect(try await client.currentUser().id == "tester")
        #expect(transport.requests.count == 1)
    }

    /// A ledger that can be read but cannot count (a read-only, full or suspended file): the
    /// request stays home, and is not tried again as if the network had failed.
    @Test func aRequestTheLedgerCannotCountIsNotSent() async throws {
        let store = BrokenLedgerStore(broken: [.reserve])
        let transport = ScriptedTransport([.json(meJSON)])
        let client = makeClient(transport, ledger: RequestLedger(key: key, store: store))
        let error = try await #require(throws: SpotifyAPIError.self) { try await client.currentUser() }
        #expect(error.code == .ledgerUnavailable)
        #expect(transport.requests.isEmpty)
        #expect(store.attempts(.reserve) == 1)
    }

    /// A quota cooldown the ledger cannot write holds in the process all the same, for every
    /// client of the ledger, and the failure is said in the client's log; the mirror's file keeps
    /// it for the app's other processes.
    @Test func aCooldownTheLedgerCannotKeepStillHoldsAndIsReported() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mirror-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mirror = CooldownMirror(besideLedger: folder.appendingPathComponent("spotify-requests.sqlite"))
        let store = BrokenLedgerStore(broken: [.write])
        let ledger = RequestLedger(key: key, store: store, mirror: mirror)
        let warnings = Warnings()
        let transport = ScriptedTransport([quotaAnswer, .json(meJSON)])
        let clock = VirtualClock(mode: .automatic)
        let first = SpotifyClient(
            configuration: .live, tokens: CountingTokenProvider(), transport: transport, clock: clock,
            logger: Logger(label: "test") { _ in WarningHandler(warnings: warnings) }, ledger: ledger)
        let refused = try await #require(throws: SpotifyAPIError.self) { try await first.currentUser() }
        #expect(refused.code == .quotaExceeded)
        #expect(store.attempts(.write) == 2, "the cooldown and the refusal were both tried")
        #expect(
            warnings.all.contains { $0.contains("could not keep a quota cooldown") },
            "\(warnings.all)")
        #expect(warnings.all.contains { $0.contains("quota refusal") }, "\(warnings.all)")

        // Another client of the same ledger (another view): the store never learned it.
        let second = makeClient(transport, clock: clock, ledger: ledger)
        let waiting = try await #require(throws: SpotifyAPIError.self) { try await second.currentUser() }
        #expect(waiting.code == .quotaExceeded)
        #expect(transport.requests.count == 1)

        // Another process: a ledger on a healthy store, with the same mirror file.
        let other = RequestLedger(
            key: key, store: MemoryRequestLedgerStore(), mirror: CooldownMirror(file: mirror.file))
        let third = makeClient(transport, clock: clock, ledger: other)
        #expect(
            try await #require(throws: SpotifyAPIError.self) { try await third.currentUser() }.code == .quotaExceeded)
        #expect(transport.requests.count == 1)
        // ...which copied it into its store at the first look.
        #expect(try await other.store.cooldown(for: key)?.kind == .quota)
    }

    /// A cooldown the mirror holds answers for a ledger that cannot be read: the person is told
    /// when requests come back, not that a file is broken.
    @Test func aMirroredCooldownAnswersForAnUnreadableLedger() async throws {
        let store = BrokenLedgerStore(broken: [])
        let ledger = RequestLedger(key: key, store: store)
        let transport = ScriptedTransport([quotaAnswer])
        let clock = VirtualClock(mode: .automatic)
        let client = makeClient(transport, clock: clock, ledger: ledger)
        await #expect(throws: SpotifyAPIError.self) { try await client.currentUser() }
        store.breaking([.read])
        let later = makeClient(transport, clock: clock, ledger: ledger)
        let error = try await #require(throws: SpotifyAPIError.self) { try await later.currentUser() }
        #expect(error.code == .quotaExceeded)
        #expect(transport.requests.count == 1)
    }

    /// The mirror's file reads what it wrote, keeps the longer cooldown, and is refused when it is
    /// not its own: garbage, or a cooldown longer than a day.
    @Test func theMirrorsFileKeepsTheLongerAndDoubtsTheAbsurd() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mirror-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("spotify-requests-cooldown.json")
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let writer = CooldownMirror(file: file)
        try writer.keep(Cooldown(kind: .quota, until: now.addingTimeInterval(7_200), learnedAt: now), for: key)
        try writer.keep(Cooldown(kind: .quota, until: now.addingTimeInterval(600), learnedAt: now), for: key)
        // A rate limit's seconds stay in the process.
        try writer.keep(Cooldown(kind: .rateLimit, until: now.addingTimeInterval(30), learnedAt: now), for: key)
        #expect(
            CooldownMirror(file: file).cooldown(for: key, at: now, readingFile: true)?.until
                == now.addingTimeInterval(7_200))

        try Data("not json".utf8).write(to: file)
        #expect(CooldownMirror(file: file).cooldown(for: key, at: now, readingFile: true) == nil)
        let absurd =
            #"[{"issuer":"https://accounts.spotify.com","clientID":"app","kind":"quota","until":1e300,"learnedAt":1790000000}]"#
        try Data(absurd.utf8).write(to: file)
        #expect(
            CooldownMirror(file: file).cooldown(for: key, at: now, readingFile: true)?.until
                == now.addingTimeInterval(86_400))
    }
}
