// swift-format-ignore-file
// The Swift blocks of SpotifyLinkExtensions.docc's SpotifyLinkExtensions.md: a widget's code, then the
// app's (see PlaylistLinks-GettingStarted.swift).
import Foundation
import SpotifyLinkExtensions
import SpotifyLinkUI

/// A widget's line for the next routine, from the snapshot alone.
func nextRoutineLine() -> String {
    // SpotifyLinkExtensions/SpotifyLinkExtensions example 1 begins
    let file = ExtensionSnapshotFile(appGroup: "group.com.example.routines")
    guard let snapshot = file?.read().snapshot, let next = snapshot.playlists.first else {
        return "Open the app to connect Spotify"   // missing, damaged, or forgotten by a disconnect
    }
    // "Morning routine · Deep Work · 50 songs · 3 h 20 min"
    return [next.title, next.name, next.summary].compactMap { $0 }.joined(separator: " · ")
    // SpotifyLinkExtensions/SpotifyLinkExtensions example 1 ends
}

/// The routine app's records as the example has them.
struct Routine {
    var linkKey = UUID()
    var name: String
    var nextStart: Date?
}

@MainActor func showRoutinesInExtensions(_ routines: [Routine], spotify: SpotifyLink) async {
    // SpotifyLinkExtensions/SpotifyLinkExtensions example 2 begins
    await spotify.showInExtensions(routines.map { routine in
        ExtensionRecord(
            RecordID(namespace: "routine", id: routine.linkKey.uuidString), title: routine.name,
            startsAt: routine.nextStart)
    })
    // SpotifyLinkExtensions/SpotifyLinkExtensions example 2 ends
}
