import AppAttest
import Foundation
import PropertyBased
import SpotifySearchService
import SpotifyTesting
@_spi(Transport) import SpotifyWebAPI
import Testing

/// The rules the service keeps in its database, held against a model over random histories.
@Suite("The search service's store: challenges, counters and limits")
struct SearchServiceStoreTests {
    func store() throws -> SearchServiceStore {
        try SearchServiceStore(url: temporaryFile("search-store").appendingPathComponent("search.sqlite"))
    }

    func device(_ keyID: [UInt8]) -> DeviceKey {
        DeviceKey(
            key: AttestedKey(
                keyID: keyID, publicKey: [4] + Array(repeating: 1, count: 64), environment: .production, receipt: []),
            appID: TestAttester.appID.description, counter: 0)
    }

    @Test func aCounterMovesOnlyUpOnceForEachValue() async throws {
        await propertyCheck(count: 100, input: Gen.int(in: 0...40).array(of: 1...40)) { counters in
            let store = try! self.store()
            let keyID = Array(repeating: UInt8(7), count: 32)
            #expect(try! await store.saveKey(self.device(keyID), at: Date()))
            var highest = 0
            for counter in counters {
                let moved = try! await store.advanceCounter(keyID, to: UInt32(counter))
                #expect(moved == (counter > highest), "\(counters)")
                highest = max(highest, counter)
            }
            #expect(try! await store.key(keyID)?.counter == UInt32(highest))
        }
    }

    @Test func requestsRacingWithOneCounterLetOneThrough() async throws {
        let store = try store()
        let keyID = Array(repeating: UInt8(9), count: 32)
        #expect(try await store.saveKey(device(keyID), at: Date()))
        // A second attestation of the same key is refused, its counter untouched.
        #expect(try await !store.saveKey(device(keyID), at: Date()))
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 { group.addTask { try await store.advanceCounter(keyID, to: 5) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
    }

    @Test func aChallengeIsUsedOnceBeforeItExpires() async throws {
        await propertyCheck(count: 60, input: Gen.int(in: 0...600).array(of: 1...12)) { uses in
            let store = try! self.store()
            let issued = Date(timeIntervalSince1970: 1_795_000_000)
            try! await store.issueChallenge("c", expiresAt: issued.addingTimeInterval(300), now: issued)
            var used = false
            for offset in uses.sorted() {
                let ok = try! await store.consumeChallenge("c", now: issued.addingTimeInterval(Double(offset)))
                #expect(ok == (!used && offset < 300), "\(uses)")
                used = used || ok
            }
        }
    }

    @Test func aWindowAdmitsItsLimitAndNoMore() async throws {
        await propertyCheck(count: 60, input: Gen.int(in: 0...400).array(of: 1...60), Gen.int(in: 1...6)) {
            times, limit in
            let store = try! self.store()
            let start = 1_795_000_020.0
            var model: [Int: Int] = [:]
            for offset in times.sorted() {
                let now = start + Double(offset)
                let window = Int((now / 60).rounded(.down))
                let reopens = try! await store.admit(
                    "device:a", limit: limit, window: .seconds(60), now: Date(timeIntervalSince1970: now))
                if model[window, default: 0] < limit {
                    #expect(reopens == nil, "\(times) \(limit)")
                    model[window, default: 0] += 1
                } else {
                    #expect(reopens == Date(timeIntervalSince1970: Double(window + 1) * 60), "\(times) \(limit)")
                }
            }
        }
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
