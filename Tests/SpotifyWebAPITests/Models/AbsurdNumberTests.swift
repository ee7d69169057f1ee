import Foundation
import Testing

@testable import SpotifyWebAPI

/// Numbers from outside that no song has (issue 66 item 3): a `duration_ms` of `Int.max`, one below
/// zero, a `progress_ms` past any song, are read as a bound, so that no sum or conversion of them
/// can trap in the app.
@Suite("Absurd numbers from Spotify")
struct AbsurdNumberTests {
    let decoder = makeSpotifyDecoder()
    let week = Duration.seconds(7 * 86_400)

    @Test func anItemIsAtMostAWeekAndNeverNegative() throws {
        func track(_ milliseconds: String) throws -> Track {
            try decoder.decode(
                Track.self,
                from: Data(
                    #"{"type":"track","id":"4rOoJ6Egrf8K2IrywzwOMk","name":"S","duration_ms":\#(milliseconds)}"#.utf8))
        }
        #expect(try track("9223372036854775807").duration == week)
        #expect(try track("-9223372036854775808").duration == .zero)
        #expect(try track("-1").duration == .zero)
        #expect(try track("200000").duration == .milliseconds(200_000))
    }

    @Test func aPlaylistOfAbsurdEntriesSumsWithoutTrapping() throws {
        let entry =
            #"{"item":{"type":"track","name":"S","duration_ms":9223372036854775807,"uri":"spotify:track:4rOoJ6Egrf8K2IrywzwOMk","id":"4rOoJ6Egrf8K2IrywzwOMk"}}"#
        let page =
            #"{"items":[\#(Array(repeating: entry, count: 50).joined(separator: ","))],"limit":50,"offset":0,"total":50}"#
        let decoded = try decoder.decode(Page<PlaylistEntry>.self, from: Data(page.utf8))
        let total = decoded.items.compactMap(\.item.duration).reduce(Duration.zero, +)
        #expect(total == week * 50)
        // What the stores and `--json` do with it: whole milliseconds, no trap.
        #expect(Int(total.components.seconds) == 50 * 7 * 86_400)
    }

    @Test func nowPlayingProgressIsBoundedToo() throws {
        let body = #"""
            {"timestamp":1790000000000,"progress_ms":9223372036854775807,"is_playing":true,
             "currently_playing_type":"track",
             "item":{"type":"track","id":"4rOoJ6Egrf8K2IrywzwOMk","name":"Song","duration_ms":9223372036854775807}}
            """#
        let playing = try decoder.decode(CurrentlyPlaying.self, from: Data(body.utf8))
        #expect(playing.progress == week)
        guard case .track(let track) = playing.item else {
            Issue.record("expected a track, got \(playing.item)")
            return
        }
        #expect(track.duration == week)
    }
}
