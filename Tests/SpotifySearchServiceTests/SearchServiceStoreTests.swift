import AppAttest
import Foundation
import PropertyBased
import SpotifySearchService
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Testing

/// The rules the service keeps in its database, held against a model over random histories: the
/// same rules for SQLite and PostgreSQL (each case names its own keys, challenges and buckets, so
/// the cases share one PostgreSQL database).
enum StoreRules {
    typealias Make = @Sendable () async throws -> any SearchServiceStore

    static func device(_ keyID: [UInt8]) -> DeviceKey {
        DeviceKey(
            key: AttestedKey(
                keyID: keyID, publicKey: [4] + Array(repeating: 1, count: 64), environment: .production, receipt: []),
            appID: TestAttester.appID.description, counter: 0)
    }

    static func newKeyID() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255) } }

    static func aCounterMovesOnlyUpOnceForEachValue(_ make: Make) async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...40).array(of: 1...40)) { counters in
            let store = try! await make()
            let keyID = newKeyID()
            #expect(try! await store.saveKey(device(keyID), at: Date()))
            var highest = 0
            for counter in counters {
                let moved = try! await store.advanceCounter(keyID, to: UInt32(counter))
                #expect(moved == (counter > highest), "\(counters)")
                highest = max(highest, counter)
            }
            #expect(try! await store.key(keyID)?.counter == UInt32(highest))
        }
    }

    static func requestsRacingWithOneCounterLetOneThrough(_ make: Make) async throws {
        let store = try await make()
        let keyID = newKeyID()
        #expect(try await store.saveKey(device(keyID), at: Date()))
        // A second attestation of the same key is refused, its counter untouched.
        #expect(try await !store.saveKey(device(keyID), at: Date()))
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 { group.addTask { try await store.advanceCounter(keyID, to: 5) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
        // Racing whole requests: fifty accepts of one challenge, one counter; one wins.
        let issued = Date(timeIntervalSince1970: 1_795_000_000)
        let challenge = UUID().uuidString
        try await store.issueChallenge(challenge, expiresAt: issued.addingTimeInterval(300), now: issued)
        let accepted = try await withThrowingTaskGroup(of: SearchServiceAcceptance.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await store.accept(
                        challenge: challenge, counter: (keyID, 6), device: "device:" + challenge, limit: 100,
                        window: .seconds(60), next: UUID().uuidString, expiresAt: issued.addingTimeInterval(300),
                        now: issued)
                }
            }
            return try await group.reduce(into: [SearchServiceAcceptance]()) { $0.append($1) }
        }
        #expect(accepted.filter { $0 == .accepted(deviceReopens: nil) }.count == 1)
        #expect(accepted.filter { $0 == .challengeUnknown }.count == 49)
    }

    static func aChallengeIsUsedOnceBeforeItExpires(_ make: Make) async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...600).array(of: 1...12)) { uses in
            let store = try! await make()
            let issued = Date(timeIntervalSince1970: 1_795_000_000)
            let challenge = UUID().uuidString
            try! await store.issueChallenge(challenge, expiresAt: issued.addingTimeInterval(300), now: issued)
            var used = false
            for offset in uses.sorted() {
                let ok = try! await store.consumeChallenge(challenge, now: issued.addingTimeInterval(Double(offset)))
                #expect(ok == (!used && offset < 300), "\(uses)")
                used = used || ok
            }
        }
    }

    static func aWindowAdmitsItsLimitAndNoMore(_ make: Make) async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...400).array(of: 1...60), Gen.int(in: 1...6)) {
            times, limit in
            let store = try! await make()
            let bucket = "device:" + UUID().uuidString
            let start = 1_795_000_020.0
            var model: [Int: Int] = [:]
            for offset in times.sorted() {
                let now = start + Double(offset)
                let window = Int((now / 60).rounded(.down))
                let reopens = try! await store.admit(
                    bucket, limit: limit, window: .seconds(60), now: Date(timeIntervalSince1970: now))
                if model[window, default: 0] < limit {
                    #expect(reopens == nil, "\(times) \(limit)")
                    model[window, default: 0] += 1
                } else {
                    #expect(reopens == Date(timeIntervalSince1970: Double(window + 1) * 60), "\(times) \(limit)")
                }
            }
        }
    }

    /// A signed request's first trip: its address counted and the key it names read together; past
    /// the limit, no key is read and the request is not counted.
    static func anAdmissionReadsTheNamedKey(_ make: Make) async throws {
        let store = try await make()
        let keyID = newKeyID()
        #expect(try await store.saveKey(device(keyID), at: Date()))
        let now = Date(timeIntervalSince1970: 1_795_000_020)
        let bucket = "address:" + UUID().uuidString
        let first = try await store.admit(bucket, limit: 2, window: .seconds(60), now: now, readingKey: keyID)
        #expect(first == SearchServiceAdmission(reopens: nil, key: device(keyID)))
        let unknown = try await store.admit(bucket, limit: 2, window: .seconds(60), now: now, readingKey: newKeyID())
        #expect(unknown == SearchServiceAdmission(reopens: nil, key: nil))
        let over = try await store.admit(bucket, limit: 2, window: .seconds(60), now: now, readingKey: keyID)
        #expect(over == SearchServiceAdmission(reopens: Date(timeIntervalSince1970: 1_795_000_080), key: nil))
        let none = try await store.admit(
            "address:" + UUID().uuidString, limit: 2, window: .seconds(60), now: now, readingKey: nil)
        #expect(none == SearchServiceAdmission(reopens: nil, key: nil))
    }

    /// A thousand devices seen in one minute leave no row once the minute has passed: the next
    /// request counted drops them (they would otherwise stay for ever, one per device).
    static func endedWindowsAreDropped(_ make: Make) async throws {
        let store = try await make()
        let minute = Date(timeIntervalSince1970: 1_795_000_020)
        let before = try await store.keptWindows()
        for index in 0..<200 {
            #expect(try await store.admit("device:\(index)", limit: 5, window: .seconds(60), now: minute) == nil)
        }
        #expect(try await store.keptWindows() == before + 200)
        let next = minute.addingTimeInterval(60)
        #expect(try await store.admit("address:one", limit: 5, window: .seconds(60), now: next) == nil)
        #expect(try await store.keptWindows() == 1)
        // Within its window, a device keeps its count.
        for _ in 0..<4 {
            #expect(try await store.admit("address:one", limit: 5, window: .seconds(60), now: next) == nil)
        }
        #expect(try await store.admit("address:one", limit: 5, window: .seconds(60), now: next) != nil)
    }
}

@Suite("The search service's store in SQLite: challenges, counters and limits")
struct SearchServiceStoreTests {
    static let make: StoreRules.Make = {
        try SQLiteSearchServiceStore(url: temporaryFile("search-store").appendingPathComponent("search.sqlite"))
    }

    @Test func aCounterMovesOnlyUpOnceForEachValue() async {
        await StoreRules.aCounterMovesOnlyUpOnceForEachValue(Self.make)
    }
    @Test func requestsRacingWithOneCounterLetOneThrough() async throws {
        try await StoreRules.requestsRacingWithOneCounterLetOneThrough(Self.make)
    }
    @Test func aChallengeIsUsedOnceBeforeItExpires() async {
        await StoreRules.aChallengeIsUsedOnceBeforeItExpires(Self.make)
    }
    @Test func aWindowAdmitsItsLimitAndNoMore() async { await StoreRules.aWindowAdmitsItsLimitAndNoMore(Self.make) }
    @Test func endedWindowsAreDropped() async throws { try await StoreRules.endedWindowsAreDropped(Self.make) }
    @Test func anAdmissionReadsTheNamedKey() async throws {
        try await StoreRules.anAdmissionReadsTheNamedKey(Self.make)
    }
}

/// What the app signs is what the service checks, whatever the search text: the app's
/// percent-encoding read back by the service's parser gives the same canonical query.
@Suite("The signed query, both sides")
struct SignedQueryTests {
    @Test func anyTextSignsTheSameOnBothSides() async {
        let scalar = Gen.int(in: 0x20...0x30FF).map { Unicode.Scalar(UInt32($0)) ?? "+" }
        let text = scalar.array(of: 0...24).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 400, input: text, text) { search, other in
            let items = [(name: "q", value: search), (name: "limit", value: "10"), (name: other, value: search)]
            let sent = items.map {
                "\(SearchServiceSignature.encode($0.name))=\(SearchServiceSignature.encode($0.value))"
            }.joined(separator: "&")
            let read = SearchServiceResponder.parseQuery(sent)
            #expect(
                SearchServiceSignature.canonicalQuery(read) == SearchServiceSignature.canonicalQuery(items),
                "\(sent)")
        }
    }
}
