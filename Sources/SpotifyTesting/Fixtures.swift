package import Foundation

/// Recorded 2026 Spotify responses (MIT, see `Fixtures/LICENSE.md`) for users' own tests.
package enum RecordedFixtures {
    /// The names of the recorded files, without `.json`.
    package static let names = [
        "current_playing_track", "current_user", "current_user_playlist_1", "library_contains", "new_playlist",
        "playback_episode_1", "playlist_1", "playlist_4", "playlist_items", "playlist_items_2",
        "playlist_not_found", "playlist_update_items", "rate_limit", "search",
    ]

    /// The bytes of one recorded response.
    package static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures/\(name).json"])
        }
        return try Data(contentsOf: url)
    }
}
