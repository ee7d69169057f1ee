import Foundation
import HTTPTypes
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyWebAPI

@Suite("Reading every page")
struct PagingTests {
    /// Serves a playlist of `total` numbered tracks, 50 a page, by offset.
    static func playlistServer(total: Int?, count: Int) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            let components = URLComponents(string: "https://x" + (request.path ?? ""))
            let offset = Int(components?.queryItems?.first { $0.name == "offset" }?.value ?? "0") ?? 0
            let entries = (offset..<max(offset, min(offset + 50, count))).map { index in
                index == 7
                    ? "null" : #"{"is_local":false,"item":{"type":"track","name":"T\#(index)","duration_ms":1000}}"#
            }
            let next = offset + 50 < count ? #""https://x/next""# : "null"
            let body =
                #"{"items":[\#(entries.joined(separator: ","))],"limit":50,"offset":\#(offset),"next":\#(next),"total":\#(total.map(String.init) ?? "null")}"#
            return .json(body)
        }
    }

    @Test(arguments: [0, 1, 49, 50, 51, 500, 1234])
    func allEntriesInOrder(count: Int) async throws {
        let transport = Self.playlistServer(total: count, count: count)
        let progress = Lock<[FetchProgress]>([])
        let result = try await makeClient(transport).allPlaylistEntries(
            try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"), concurrency: 4
        ) { step in progress.withLock { $0.append(step) } }
        let expected = (0..<count).filter { $0 != 7 }.map { "T\($0)" }
        #expect(result.items.map(\.item.name) == expected)
        #expect(result.nullCount == (count > 7 ? 1 : 0))
        #expect(result.pageCount == max(1, (count + 49) / 50))
        #expect(progress.withLock { $0.last?.fetched } == count)
        #expect(transport.requests.count == max(1, (count + 49) / 50))
    }

    @Test func withoutTotalFollowsNextSequentially() async throws {
        let transport = Self.playlistServer(total: nil, count: 120)
        let result = try await makeClient(transport).allPlaylistEntries(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        #expect(result.items.count == 119)
        #expect(result.pageCount == 3)
    }

    /// A total no list has (a broken or hostile answer) neither sizes the result nor plans a
    /// request per page: the list is read by following `next`, one real page after another.
    @Test(arguments: [100_001, 1_000_000_000_000_000, Int.max, -5])
    func anUnbelievableTotalIsReadByFollowingNext(total: Int) async throws {
        let transport = Self.playlistServer(total: total, count: 120)
        let result = try await makeClient(transport).allPlaylistEntries(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        #expect(result.items.count == 119)
        #expect(transport.requests.count == 3)
    }

    @Test func oneFailingPageFailsTheWholeReadWithItsError() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.path?.contains("offset=100") == true { return .apiError(404, "Resource not found") }
            return .json(#"{"items":[],"limit":50,"offset":0,"next":null,"total":300}"#)
        }
        await #expect {
            try await makeClient(transport).allPlaylistEntries(try SpotifyID("37i9dQZF1DXcBWIGoYBM5M"))
        } throws: { error in
            (error as? SpotifyAPIError)?.code == .notFound
        }
    }
}
