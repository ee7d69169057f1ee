import Foundation
import HTTPTypes
import JSONReading
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Testing

@testable import SpotifyWebAPI

/// What the fast reader made of a document, judged against `JSONDecoder`.
enum Verdict: Equatable, CustomStringConvertible {
    /// The fast reader declined; the client uses JSONDecoder's answer.
    case declined
    /// The fast reader's value is JSONDecoder's.
    case agreed
    /// The fast reader returned a value and JSONDecoder threw: the client would accept what it must not.
    case acceptedWhatJSONDecoderRejects(String)
    /// Both returned a value, and the values differ.
    case disagreed(String)

    var description: String {
        switch self {
        case .declined: "declined"
        case .agreed: "agreed"
        case .acceptedWhatJSONDecoderRejects(let error): "accepted what JSONDecoder rejects: \(error)"
        case .disagreed(let difference): "disagreed: \(difference)"
        }
    }

    /// Either answer the client may give: the same value, or JSONDecoder's.
    var isSound: Bool { self == .declined || self == .agreed }
}

/// Decodes `data` both ways and compares the two answers field by field.
func verdict<T: FastDecodable>(_ type: T.Type, _ data: Data, same: (T, T) -> String?) -> Verdict {
    guard let fast = T.fastDecoded(from: data) else { return .declined }
    let slow: T
    do { slow = try makeSpotifyDecoder().decode(T.self, from: data) } catch {
        return .acceptedWhatJSONDecoderRejects("\(error)")
    }
    return same(fast, slow).map(Verdict.disagreed) ?? .agreed
}

func difference<Item: Equatable>(_ fast: Page<Item>, _ slow: Page<Item>) -> String? {
    if fast.items != slow.items {
        let shared = min(fast.items.count, slow.items.count)
        let index = (0..<shared).first { fast.items[$0] != slow.items[$0] } ?? shared
        let one = index < fast.items.count ? "\(fast.items[index])" : "nothing"
        let other = index < slow.items.count ? "\(slow.items[index])" : "nothing"
        return "item \(index): fast \(one), JSONDecoder \(other)"
    }
    let fields: [(String, AnyHashable?, AnyHashable?)] = [
        ("href", fast.href, slow.href), ("limit", fast.limit, slow.limit), ("offset", fast.offset, slow.offset),
        ("next", fast.next, slow.next), ("previous", fast.previous, slow.previous), ("total", fast.total, slow.total),
        ("nullCount", fast.nullCount, slow.nullCount),
        ("undecodableCount", fast.undecodableCount, slow.undecodableCount),
    ]
    return fields.first { $0.1 != $0.2 }.map {
        "\($0.0): fast \(String(describing: $0.1)), JSONDecoder \(String(describing: $0.2))"
    }
}

func entries(_ data: Data) -> Verdict { verdict(Page<PlaylistEntry>.self, data, same: difference) }
func playlists(_ data: Data) -> Verdict { verdict(Page<SimplifiedPlaylist>.self, data, same: difference) }
func tracks(_ data: Data) -> Verdict { verdict(Page<Track>.self, data, same: difference) }
func trackSearch(_ data: Data) -> Verdict {
    verdict(TrackSearchResults.self, data) { difference($0.tracks, $1.tracks) }
}
func playlistSearch(_ data: Data) -> Verdict {
    verdict(PlaylistSearchResults.self, data) { difference($0.playlists, $1.playlists) }
}

/// Every shape a fast decoder reads, so a document is judged by all of them.
func allVerdicts(_ data: Data) -> [Verdict] {
    [entries(data), playlists(data), tracks(data), trackSearch(data), playlistSearch(data)]
}

@Suite("The fast decoding path gives JSONDecoder's answers")
struct FastDecodingTests {
    @Test(arguments: ["playlist_items", "playlist_items_2"])
    func recordedEntryPagesAreReadFast(name: String) throws {
        #expect(entries(try RecordedFixtures.data(name)) == .agreed)
    }

    @Test func recordedPlaylistAndSearchPagesAreReadFast() throws {
        #expect(playlists(try RecordedFixtures.data("current_user_playlist_1")) == .agreed)
        #expect(trackSearch(try RecordedFixtures.data("search")) == .agreed)
    }

    @Test func everyEmulatorPageIsReadFast() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken(scopes: EmulatorServer.allScopes)
            let http = TestHTTP()
            func get(_ path: String, _ query: String, orNil: Bool = false) async throws -> Data? {
                let url = try #require(URL(string: emulator.baseURL.absoluteString + "/v1/" + path + "?" + query))
                let reply = try await http.send(.get, url, headers: ["Authorization": "Bearer \(token)"])
                if orNil && reply.status != 200 { return nil }
                try #require(reply.status == 200, "\(path): \(reply.status)")
                return reply.body
            }
            func get(_ path: String, _ query: String) async throws -> Data {
                try #require(try await get(path, query, orNil: false))
            }
            var pages = 0
            for playlist in await emulator.playlists() {
                // Other owners' playlists answer 403 since 2026, the deleted one 404.
                guard let data = try await get("playlists/\(playlist.id)/items", "limit=50", orNil: true) else {
                    continue
                }
                #expect(entries(data) == .agreed, "\(playlist.name)")
                pages += 1
            }
            #expect(pages >= 8)
            #expect(playlists(try await get("me/playlists", "limit=50")) == .agreed)
            // Search pages hold at most 10 since 2026.
            for query in ["river", "日本語", "a"] {
                let encoded = try #require(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                #expect(trackSearch(try await get("search", "q=\(encoded)&type=track&limit=10")) == .agreed, "\(query)")
                #expect(
                    playlistSearch(try await get("search", "q=\(encoded)&type=playlist&limit=10")) == .agreed,
                    "\(query)")
            }
        }
    }

    static let track =
        #"{"type":"track","id":"4iV5W9uYEdYUVa79Axb7Rh","name":"Song","duration_ms":200000,"uri":"spotify:track:4iV5W9uYEdYUVa79Axb7Rh","artists":[{"name":"A","id":"x"}],"album":{"id":"a","name":"Al","images":[{"url":"https://i.scdn.co/image/ab","width":640,"height":640}]},"is_playable":true,"explicit":false,"preview_url":null}"#
    static let episode =
        #"{"type":"episode","id":"512ojhOuo1ktJprKbVcKyQ","name":"Ep","duration_ms":1800000,"uri":"spotify:episode:512ojhOuo1ktJprKbVcKyQ","show":{"name":"Show"},"images":[{"url":"https://i.scdn.co/e","width":null}]}"#
    static let local =
        #"{"type":"track","id":null,"name":"Demo take","duration_ms":95000,"uri":"spotify:local:Me:Tapes:Demo+take:95","album":{"name":"Tapes"},"artists":[{"name":"Me"}]}"#

    static func page(_ entries: [String], total: String = "7", extra: String = "") -> String {
        #"{"href":"https://api.spotify.com/v1/x","items":[\#(entries.joined(separator: ","))],"limit":50,"offset":0,"next":null,"previous":null,"total":\#(total)\#(extra)}"#
    }

    /// The lenient shapes the decoders exist for: the fast reader must read every one itself.
    static let lenientShapes: [String] = [
        page([#"{"added_at":"2026-03-01T10:00:00Z","is_local":false,"item":\#(track)}"#]),
        page(["null", #"{"added_at":null,"is_local":false,"item":null}"#, "42", #""text""#, "[]"]),
        page([#"{"is_local":true,"track":\#(local)}"#, #"{"item":\#(local),"is_local":true}"#]),
        page([#"{"item":{"type":"track","uri":"spotify:local:a:b:c:1","artists":[{"name":5}],"album":{"name":[]}}}"#]),
        page([#"{"is_local":false,"item":\#(episode),"track":\#(episode)}"#]),
        page([#"{"item":{"type":"audiobook_chapter","id":"x"}}"#, #"{"item":{"type":7,"name":"n"}}"#]),
        page([#"{"item":{}}"#, #"{"track":{}}"#, "{}", #"{"item":{"id":"4iV5W9uYEdYUVa79Axb7Rh","explicit":true}}"#]),
        page([#"{"item":null,"track":\#(track)}"#, #"{"item":\#(track),"track":null}"#, #"{"item":5}"#]),
        page([#"{"track":"text","item":null}"#, #"{"item":[],"track":\#(track)}"#]),
        page([#"{"added_by":{"id":"me","type":"user"},"item":\#(track)}"#, #"{"added_by":{"id":5},"item":null}"#]),
        page([#"{"added_by":"me","added_at":12,"is_local":"yes","item":null}"#]),
        page([], total: "null"), page([], total: #""5""#), page([], total: "-3"), page([], total: "0"),
        page([], total: "99999999999999"),
        #"{"items":null}"#, #"{}"#, #"{"items":[],"limit":"50","offset":null,"next":"not a url with spaces"}"#,
        page([#"{"item":{"name":"\u65e5\u672c\ud83c\udfb5 \"quoted\" \\ \/ \n\t","type":"track"}}"#]),
        page([#"{"item":{"name":"日本語で歌おう ・ ｶﾀｶﾅ","artists":[{"name":"うた"}],"type":"track"}}"#]),
        page([#"{"item":{"type":"track","artists":[{"name":"A"},null],"album":"Tapes","duration_ms":null}}"#]),
        page([
            #"{"item":{"type":"track","artists":{"name":"A"},"album":null,"id":"short","preview_url":"https://p.scdn.co/x"}}"#
        ]),
        page([#"{"item":{"type":"track","album":{"images":[{"url":"https://i/1"},{"url":5}]}}}"#]),
        page([#"{"item":{"type":"track","album":{"images":[{"url":"https://i/1","height":"640"}]}}}"#]),
        page([#"{"item":{"type":"track","album":{"images":[{"url":"https://i/1"},null]}}}"#]),
        page([
            #"{"item":{"type":"episode","show":{"name":5},"images":null}}"#, #"{"item":{"type":"episode","show":"S"}}"#,
        ]),
        page(
            ["   {  \"item\" : null  }  ", "\n\t\r{}"],
            extra: #","unexpected":{"deep":[1,2.5e-3,-0,true,false,null,{}]}"#),
        // Disc and track numbers and the ISRC (late 2026), well and badly typed.
        page([
            #"{"item":{"type":"track","disc_number":2,"track_number":11,"external_ids":{"isrc":"QZABC2500001","upc":"1"}}}"#,
            #"{"item":{"type":"track","disc_number":"1","track_number":null,"external_ids":{"isrc":5}}}"#,
            #"{"item":{"type":"track","external_ids":"x"}}"#, #"{"item":{"type":"track","external_ids":{}}}"#,
        ]),
        page([
            #"{"added_at":"2024-02-29T23:59:59Z"}"#, #"{"added_at":"1900-01-01T00:00:00Z"}"#,
            #"{"added_at":"2099-12-31T12:30:45Z"}"#, #"{"added_at":"1970-01-01T00:00:00Z"}"#,
        ]),
    ]

    static let playlistShapes: [String] = [
        page([
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"Today","description":"","images":null,"owner":{"id":"spotify","display_name":"Spotify"},"public":null,"collaborative":false,"snapshot_id":"s1","uri":"spotify:playlist:37i9dQZF1DXcBWIGoYBM5M","external_urls":{"spotify":"https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M"},"items":{"href":"https://api.spotify.com/v1/playlists/37i9dQZF1DXcBWIGoYBM5M/items","total":4}}"#,
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"Old","tracks":{"href":null,"total":12},"owner":{"id":5},"description":"d"}"#,
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","items":null,"tracks":{"total":"3"},"owner":{"id":"o","display_name":5},"collaborative":"no"}"#,
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","items":7,"tracks":{"total":3},"external_urls":{"spotify":5},"public":true}"#,
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","items":{},"owner":null,"external_urls":"x","images":[{"url":"https://i/1","width":300,"height":300}]}"#,
            #"{"id":"not an id","name":"Bad"}"#, #"{"name":"No id"}"#, #"{"id":null}"#, #"{"id":5}"#, "null", "3",
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","owner":{"display_name":"no id"},"uri":null}"#,
        ]),
        #"{"playlists":\#(page(["null", #"{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"Focus"}"#]))}"#,
        #"{"tracks":\#(page([track, "null", "5", local, episode]))}"#,
    ]

    @Test func lenientShapesAreReadFastAndAgree() {
        for shape in Self.lenientShapes {
            #expect(entries(Data(shape.utf8)) == .agreed, "\(shape)")
        }
        for shape in Self.playlistShapes {
            let verdicts = allVerdicts(Data(shape.utf8))
            #expect(verdicts.allSatisfy { $0.isSound }, "\(verdicts) for \(shape)")
            #expect(verdicts.contains(.agreed), "none read \(shape) fast")
        }
        #expect(tracks(Data(Self.page([Self.track, Self.episode, Self.local, "null", "[1]"]).utf8)) == .agreed)
    }

    /// A track's URI is made from its ID only when it is that ID's `spotify:track:` URI; any other
    /// is kept as sent, by both readers, and a URI set later is kept too.
    @Test func aTracksURIIsMadeFromItsIDOnlyWhenItIsThatIDsOwn() throws {
        let id = "4iV5W9uYEdYUVa79Axb7Rh"
        let sent: [String?] = [
            "spotify:track:\(id)", "spotify:track:1301WleyT98MSxVHPZCA6M", "spotify:episode:\(id)",
            "spotify:track:\(id)x", "spotify:track:", "spotify:tra", nil,
        ]
        let items = sent.map { uri in
            #"{"type":"track","id":"\#(id)","name":"S","uri":\#(uri.map { "\"\($0)\"" } ?? "null")}"#
        }
        let data = Data(Self.page(items).utf8)
        let fast = try #require(Page<Track>.fastDecoded(from: data))
        let slow = try makeSpotifyDecoder().decode(Page<Track>.self, from: data)
        #expect(fast.items.map(\.uri) == sent)
        #expect(slow.items.map(\.uri) == sent)
        var track = fast.items[0]
        track.uri = "spotify:track:1301WleyT98MSxVHPZCA6M"
        #expect(track.uri == "spotify:track:1301WleyT98MSxVHPZCA6M")
        #expect(track != fast.items[0])
        track.uri = nil
        #expect(track.uri == nil)
        track.uri = "spotify:track:\(id)"
        #expect(track == fast.items[0])
    }

    /// Documents the fast reader must leave to JSONDecoder: where JSONDecoder's reading is its own
    /// (a fraction as an integer, another date form, repeated or escaped names) or the JSON is bad.
    static let declinedShapes: [String] = [
        page([], total: "5.0"), page([], total: "1e2"), page([], total: "-0"), page([], total: "12345678901234567890"),
        page([#"{"added_at":"2026-03-01T10:00:00+01:00"}"#]), page([#"{"added_at":"2026-03-01T10:00:00.5Z"}"#]),
        page([#"{"added_at":"2026-02-29T10:00:00Z"}"#]), page([#"{"added_at":"yesterday"}"#]),
        page([#"{"added_at":"1899-12-31T23:59:59Z"}"#]), page([#"{"added_at":"2026-03-01T10:00:60Z"}"#]),
        page([#"{"item":null,"item":null}"#]), page([], extra: #","total":1"#), #"{"item\u0073":[]}"#,
        page([#"{"item":{"name":"\ud83c"}}"#]), page([#"{"item":{"name":"\udfb5x"}}"#]),
        page([#"{"item":{"name":"\x"}}"#]), page(["{\"item\":{\"name\":\"tab\there\"}}"]),
        page(["1,"]), page(["{},"]), page([#"{"item":null,}"#]), #"{"items":[]} x"#, #"{"items":[]}}"#,
        #"{"items":{}}"#, #"{"items":"none"}"#, "[]", "null", "", " ", "\u{FEFF}{}", #"{"items":[01]}"#,
        #"{"items":[-]}"#, #"{"items":[1.]}"#, #"{"items":[.5]}"#, #"{"items":[tru]}"#, #"{"items":[nul]}"#,
        String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
        #"{"items":[\#(String(repeating: "[", count: 64) + String(repeating: "]", count: 64))]}"#,
    ]

    @Test func irregularDocumentsAreLeftToJSONDecoder() {
        for shape in Self.declinedShapes {
            // The entry reader declines each; the others may read it where they skip the odd part.
            let verdicts = allVerdicts(Data(shape.utf8))
            #expect(verdicts[0] == .declined && verdicts.allSatisfy { $0.isSound }, "\(verdicts) for \(shape)")
        }
        // Invalid UTF-8, in a value read and in one skipped.
        let invalid: [[UInt8]] = [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE3, 0x81]]
        for bytes in invalid {
            for key in ["name", "unknown"] {
                let data = Data(#"{"items":[{"item":{"\#(key)":""#.utf8) + Data(bytes) + Data(#""}}]}"#.utf8)
                #expect(entries(data) == .declined, "\(bytes) in \(key)")
            }
        }
    }

    @Test func theClientDecodesEveryResponseThroughTheFastPathWhereOneExists() throws {
        #expect((Page<PlaylistEntry>.self as Any.Type) is any FastDecodable.Type)
        #expect((Page<SimplifiedPlaylist>.self as Any.Type) is any FastDecodable.Type)
        #expect((TrackSearchResults.self as Any.Type) is any FastDecodable.Type)
        #expect(!((Page<SavedTrack>.self as Any.Type) is any FastDecodable.Type))
        // A declined document still decodes, through JSONDecoder.
        let declined = Data(Self.page([], total: "5.0").utf8)
        #expect(Page<PlaylistEntry>.fastDecoded(from: declined) == nil)
        #expect(try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: declined).total == 5)
        let read = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: Data(Self.lenientShapes[1].utf8))
        #expect(read.nullCount == 1 && read.undecodableCount == 3 && read.items.count == 1)
        // The client's own decoding takes the fast path: a type whose two readings differ on
        // purpose says which one ran.
        let client = makeClient(ScriptedTransport([]))
        #expect(try client.decode(Probe.self, from: Data("{}".utf8)) == .fast)
        #expect(try client.decode(Probe.self, from: Data("[]".utf8)) == .jsonDecoder)
    }

    /// Read `.fast` by the fast path and `.jsonDecoder` by `init(from:)`; the fast path declines
    /// anything but an object.
    enum Probe: FastDecodable, Equatable {
        case fast, jsonDecoder

        init(from decoder: any Decoder) throws { self = .jsonDecoder }

        static func read(_ value: inout FastValue) throws(JSONReader.Declined) -> Probe {
            guard try value.reader.peek() == .object else { throw JSONReader.Declined() }
            try value.reader.skipValue()
            return .fast
        }
    }

    /// Random edits of the shapes above and of the recorded pages: wherever the fast reader gives
    /// an answer, it is JSONDecoder's. Seeded, so a failure names an edit that can be replayed.
    @Test func randomEditsNeverMakeTheTwoPathsDisagree() async throws {
        // Thousands of decodings, off the concurrency pool, which the other tests share; the
        // checks are made here, in the test's task (a thread of its own has no current test).
        let tally = try await onThreadOfItsOwn(named: #function) { try Self.randomEdits() }
        #expect(tally.disagreement == nil)
        // The edits must reach the fast reader's answers, not only its refusals.
        #expect(tally.agreed > 1_000, "agreed \(tally.agreed), declined \(tally.declined)")
    }

    /// What ``randomEditsNeverMakeTheTwoPathsDisagree()`` finds: the verdicts counted, and the
    /// first round on which the two paths disagreed.
    private struct Tally: Sendable {
        var agreed = 0
        var declined = 0
        var disagreement: String?
    }

    private static func randomEdits() throws -> Tally {
        var documents = (Self.lenientShapes + Self.playlistShapes).map { Data($0.utf8) }
        for name in ["playlist_items", "playlist_items_2", "current_user_playlist_1", "search"] {
            documents.append(try RecordedFixtures.data(name))
        }
        var random = SeededGenerator(seed: 2026)
        var tally = Tally()
        for round in 0..<1_500 {
            let source = documents[Int(random.next() % UInt64(documents.count))]
            let edited = JSONEdits.apply(to: source, using: &random)
            for verdict in allVerdicts(edited) {
                switch verdict {
                case .agreed: tally.agreed += 1
                case .declined: tally.declined += 1
                default:
                    tally.disagreement = "round \(round): \(verdict) for \(String(decoding: edited, as: UTF8.self))"
                    return tally
                }
            }
        }
        return tally
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape, a control character or a
    /// non-ASCII character at each position of a word, in a name and in a value, near the end of
    /// the document too, is read as JSONDecoder reads it (or left to it).
    @Test func everyByteOfAWordIsLookedAt() {
        let specials = [#"\""#, #"\\"#, #"\u00e9"#, "\t", "\u{01}", "é", "日", "\u{7F}", "~", " "]
        for length in 0..<20 {
            for position in 0...length {
                for special in specials {
                    let filler = String(repeating: "a", count: length)
                    let text =
                        String(filler.prefix(position)) + special + String(filler.dropFirst(position))
                    let documents = [
                        Self.page([#"{"item":{"type":"track","name":"\#(text)"}}"#]),
                        Self.page([#"{"item":{"type":"track","\#(text)":"x","name":"n"}}"#]),
                        #"{"items":[],"href":"\#(text)"}"#,
                    ]
                    for document in documents {
                        let verdict = entries(Data(document.utf8))
                        #expect(verdict.isSound, "\(verdict) for \(document)")
                    }
                }
            }
        }
        // Plain ASCII of every length is read, not left to JSONDecoder.
        for length in 0..<40 {
            let name = String(repeating: "b", count: length)
            #expect(entries(Data(Self.page([#"{"item":{"type":"track","name":"\#(name)"}}"#]).utf8)) == .agreed)
        }
    }

    @Test func internetDatesMatchFoundationsISO8601() throws {
        var random = SeededGenerator(seed: 7)
        let formatter = ISO8601DateFormatter()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(random.next() % 6_000_000_000) - 2_000_000_000)
            let text = formatter.string(from: date)
            let seconds = JSONReader.internetDateSeconds(text)
            let expected = Int(try #require(formatter.date(from: text)).timeIntervalSince1970)
            #expect(seconds == expected, "\(text)")
        }
        #expect(JSONReader.internetDateSeconds("2000-02-29T00:00:00Z") != nil)
        #expect(JSONReader.internetDateSeconds("2100-02-29T00:00:00Z") == nil)
        #expect(JSONReader.internetDateSeconds("2026-13-01T00:00:00Z") == nil)
        #expect(JSONReader.internetDateSeconds("2026-1-01T00:00:00Z") == nil)
    }
}

/// Edits that keep a document mostly well-formed, so both decoders get far into it: a value
/// replaced by another of any type, a member removed, copied or renamed to a name the decoders
/// read, a byte dropped or changed.
enum JSONEdits {
    static let values = [
        "null", "true", "false", "0", "-1", "7", "1.5", "1e3", "-0", #""""#, #""x""#, #""spotify:local:a:b:c:9""#,
        #""track""#, #""episode""#, #""2026-01-02T03:04:05Z""#, #""2026-01-02T03:04:05+00:00""#,
        #""4iV5W9uYEdYUVa79Axb7Rh""#, #""https://open.spotify.com/x""#, #""\u00e9\n""#, "{}", "[]", "[null]", "[{}]",
        #"{"name":5}"#, #"{"name":"n"}"#, #"{"id":"o"}"#, #"[{"name":"A"}]"#, #"{"url":"https://i/1","width":3}"#,
        #"[{"url":"https://i/1"}]"#, #"{"total":3}"#, #"{"type":"episode"}"#,
    ]
    static let names = [
        "item", "track", "is_local", "added_at", "added_by", "type", "uri", "name", "id", "artists", "album",
        "images", "duration_ms", "total", "limit", "offset", "next", "href", "items", "tracks", "owner", "show",
        "url", "width", "description", "public", "collaborative", "external_urls", "spotify", "display_name",
    ]

    static func apply(to data: Data, using random: inout SeededGenerator) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<(1 + Int(random.next() % 3)) { edit(&bytes, using: &random) }
        return Data(bytes)
    }

    private static func edit(_ bytes: inout [UInt8], using random: inout SeededGenerator) {
        guard !bytes.isEmpty else { return }
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let position = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 10 {
        case 0...3:
            // Replace the value after a colon or a bracket by another.
            guard
                let colon = bytes[position...].firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "[") })
            else { return }
            let start = colon + 1
            guard let end = valueEnd(bytes, from: start) else { return }
            bytes.replaceSubrange(start..<end, with: Array(pick(values).utf8))
        case 4...5:
            // Rename a member.
            guard let quote = bytes[position...].firstIndex(of: UInt8(ascii: "\"")),
                let close = bytes[(quote + 1)...].firstIndex(of: UInt8(ascii: "\"")),
                close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: ":")
            else { return }
            bytes.replaceSubrange((quote + 1)..<close, with: Array(pick(names).utf8))
        case 6:
            // Copy a member (a repeated name) or insert one.
            guard let comma = bytes[position...].firstIndex(of: UInt8(ascii: ",")) else { return }
            bytes.insert(contentsOf: Array("\"\(pick(names))\":\(pick(values)),".utf8), at: comma + 1)
        case 7:
            // Remove a member: from a comma to the next.
            guard let comma = bytes[position...].firstIndex(of: UInt8(ascii: ",")),
                let end = valueEnd(bytes, from: comma + 1)
            else { return }
            bytes.removeSubrange(comma..<end)
        case 8:
            bytes.remove(at: position)
        default:
            bytes[position] = pick(Array("{}[],:\"\\0123456789-.eE ntfu".utf8) + [0x00, 0x80, 0xC3, 0xFF])
        }
    }

    /// The end of the value (or `"name": value` member) starting at `start`: the first comma or
    /// closing bracket at its own depth, outside strings.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","):
                    if depth == 0 { return index }
                    if byte != UInt8(ascii: ",") { depth -= 1 }
                default: break
                }
            }
            index += 1
        }
        return nil
    }
}

/// The UTF-8 check below iOS 18 and macOS 15, where `String(validating:as:)` is missing: it must
/// accept and refuse exactly what `String(validating:as:)` does, which every platform here has.
@Suite("UTF-8 validation below iOS 18")
struct UTF8BelowIOS18Tests {
    /// Every one- and two-byte sequence, the edges of the three- and four-byte ranges (overlong
    /// forms, surrogates, above U+10FFFF), truncations, and random bytes.
    static var inputs: [[UInt8]] {
        var inputs: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for first in 0xC0...0xFF {
            for second in [0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                inputs.append([UInt8(first), UInt8(second)])
            }
        }
        inputs += [
            [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xE3, 0x81], [0xE3, 0x81, 0x95], Array("さくら café 🎧".utf8),
            Array("さくら".utf8).dropLast(1).map { $0 },
        ]
        var generator = SeededGenerator(seed: 17_4)
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...12, using: &generator)
            inputs.append((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        return inputs
    }

    @Test func itAcceptsAndRefusesWhatStringValidatingDoes() {
        for bytes in Self.inputs {
            #expect(
                JSONReader.stringBelowiOS18(validatingUTF8: bytes) == String(validating: bytes, as: UTF8.self),
                "\(bytes.map { String($0, radix: 16) })")
        }
    }
}
