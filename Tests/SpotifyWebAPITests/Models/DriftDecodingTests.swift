import Foundation
import Testing

@testable import SpotifyWebAPI

@Suite("Lenient where the service varies")
struct DriftDecodingTests {
    let decoder = makeSpotifyDecoder()

    @Test func currentlyPlayingWithoutItsTypeReadsTheItemsOwn() throws {
        let body = #"""
            {"timestamp":1790000000000,"progress_ms":1000,"is_playing":true,
             "item":{"type":"track","id":"4rOoJ6Egrf8K2IrywzwOMk","name":"Song","duration_ms":200000,
                     "uri":"spotify:track:4rOoJ6Egrf8K2IrywzwOMk","artists":[{"name":"A"}]}}
            """#
        let playing = try decoder.decode(CurrentlyPlaying.self, from: Data(body.utf8))
        guard case .track(let track) = playing.item else {
            Issue.record("expected a track, got \(playing.item)")
            return
        }
        #expect(track.name == "Song")
        let episode =
            #"{"is_playing":true,"item":{"type":"episode","id":"x","name":"Ep","duration_ms":5000,"show":{"name":"S"}}}"#
        guard case .episode = try decoder.decode(CurrentlyPlaying.self, from: Data(episode.utf8)).item else {
            Issue.record("expected an episode")
            return
        }
        let nothing = #"{"is_playing":false,"item":null}"#
        #expect(try decoder.decode(CurrentlyPlaying.self, from: Data(nothing.utf8)).item == .unknown(type: "unknown"))
    }

    @Test func anEmptyItemFromAnOldNameFilterIsUnavailableNotANamelessTrack() throws {
        let page =
            #"{"items":[{"item":{}},{"track":{}},{},{"item":{"type":"track","name":"Kept","duration_ms":1000,"uri":"spotify:track:4rOoJ6Egrf8K2IrywzwOMk","id":"4rOoJ6Egrf8K2IrywzwOMk"}}],"limit":50,"offset":0,"total":4}"#
        let decoded = try decoder.decode(Page<PlaylistEntry>.self, from: Data(page.utf8))
        #expect(decoded.items.prefix(3).allSatisfy { $0.item == .unavailable })
        #expect(decoded.items[3].item.duration == .seconds(1))
    }
}
