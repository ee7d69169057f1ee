// swift-format-ignore-file
// The Swift block of SpotifyNowPlaying.docc/SpotifyNowPlaying.md, as an app's code (see
// PlaylistLinks-GettingStarted.swift).
import Foundation
import PlaylistLinks
import SpotifyNowPlaying
import SpotifyWebAPI

func nowPlayingRoutine(card: PlaylistCard, client: SpotifyClient, routineIsOver: Bool) async {
    // SpotifyNowPlaying/SpotifyNowPlaying example 1 begins
    var routine = RoutineListening(playlist: card.metadata.reference)
    for await state in NowPlayingMonitor(client: client).states() {
        routine.observe(state, at: Date())
        if routineIsOver { break }
    }
    let summary = routine.summary(at: Date())   // summary.songs == 4.5: "You got through 4.5 songs."
    // SpotifyNowPlaying/SpotifyNowPlaying example 1 ends
    _ = summary
}
