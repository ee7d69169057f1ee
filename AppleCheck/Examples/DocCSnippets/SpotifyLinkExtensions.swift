// swift-format-ignore-file
// The Swift block of SpotifyLinkExtensions.docc's SpotifyLinkExtensions.md, as a widget's code (see
// PlaylistLinks-GettingStarted.swift).
import SpotifyLinkExtensions

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
