import Foundation
import PropertyBased
import SpotifyLinkExtensions
import Testing

/// A routine Live Activity's state stays small whatever Spotify names a song: ActivityKit refuses
/// more than 4 KB, and the package's target is 1 KB.
@Suite("A routine Live Activity's state")
struct RoutineActivityStateTests {
    /// Any text (control characters, combining marks, emoji, quotes that JSON escapes) keeps the
    /// encoded state under 1 KB, and a text within the limit is kept whole.
    @Test func anyTextKeepsItUnderOneKilobyte() async {
        let scalar = Gen.int(in: 0...0x10FFFF).map { Unicode.Scalar(UInt32($0)) ?? "\"" }
        let text = scalar.array(of: 0...400).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 300, input: text, text, text) { song, title, playlist in
            let attributes = RoutineActivityAttributes(
                namespace: "routine", recordID: "1", title: title, playlistName: playlist)
            let state = RoutineActivityAttributes.ContentState(
                startedAt: Date(timeIntervalSince1970: 1_800_000_000),
                endsAt: Date(timeIntervalSince1970: 1_800_003_600),
                song: Int.max, songsInRoutine: 12_345.678, nowPlaying: song, status: song)
            let size = try state.encodedSize()
            // The package's target: 1 KB, a quarter of the limit ActivityKit refuses beyond.
            let limit = RoutineActivityAttributes.ContentState.sizeLimit
            #expect(size <= limit / 4, "\(size) bytes of \(limit) for \(song.debugDescription)")
            #expect(try JSONEncoder().encode(attributes).count <= 1024)
            for kept in [state.nowPlaying, state.status, attributes.title, attributes.playlistName] {
                let kept = try #require(kept)
                #expect(kept.utf8.count <= RoutineActivityAttributes.ContentState.textLimit)
                #expect(!kept.unicodeScalars.contains { $0.properties.generalCategory == .control })
            }
            let clean = !song.unicodeScalars.contains { $0.properties.generalCategory == .control }
            if clean && song.utf8.count <= RoutineActivityAttributes.ContentState.textLimit {
                #expect(state.nowPlaying == song, "a short name is kept whole")
            }
        }
    }

    /// A long name is cut at a character's end, with "…", never inside an emoji or an accent.
    @Test func aLongNameIsCutAtACharactersEnd() throws {
        let name = String(repeating: "🇯🇵さくら", count: 40)
        let state = RoutineActivityAttributes.ContentState(
            startedAt: .distantPast, endsAt: .distantPast, nowPlaying: name, status: "Song 1")
        let kept = try #require(state.nowPlaying)
        #expect(kept.hasSuffix("…") && kept.utf8.count <= RoutineActivityAttributes.ContentState.textLimit)
        #expect(name.hasPrefix(String(kept.dropLast())))
        #expect(
            state.timerInterval.lowerBound == state.timerInterval.upperBound, "an end before the start is the start")
        let decoded = try JSONDecoder().decode(
            RoutineActivityAttributes.ContentState.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
    }
}
