// swift-format-ignore-file
// The routine app's App Intents, as one file in both targets (the app and its widget extension), as
// Xcode has it: Siri, Shortcuts and the control (iOS 18) find them in either, and with
// `openAppWhenRun` the system runs them in the app, whose root follows `RoutineInbox`. They read the
// extensions' snapshot (SpotifyLinkExtensions alone): no Spotify request, no database.
// DocC: SpotifyLinkExtensions/AppIntentsAndControls.
import AppIntents
import Observation
import SpotifyLinkExtensions

/// What the intents ask of the app: a link its root opens (the routine, or its playlist in Spotify).
@MainActor @Observable final class RoutineInbox {
    static let shared = RoutineInbox()
    var link: ExtensionLink?
}

/// The routines the app last wrote for its extensions.
func savedRoutines() -> [ExtensionSnapshot.Playlist] {
    ExtensionSnapshotFile(appGroup: "group.com.example.routines")?.read().snapshot?.playlists ?? []
}

// SpotifyLinkExtensions/AppIntentsAndControls example 1 begins
/// "Start ‹routine›": opens the app at that routine.
struct StartRoutineIntent: AppIntent {
    static let title: LocalizedStringResource = "Start a routine"
    static let openAppWhenRun = true
    @Parameter(title: "Routine") var name: String

    @MainActor func perform() async throws -> some IntentResult {
        let routine = savedRoutines().first { $0.title?.localizedCaseInsensitiveCompare(name) == .orderedSame }
        RoutineInbox.shared.link = routine?.link(.show)
        return .result()
    }
}
// SpotifyLinkExtensions/AppIntentsAndControls example 1 ends

/// The control's action: opens the app, which opens the next routine's playlist in Spotify.
struct OpenRoutinePlaylistIntent: AppIntent {
    static let title: LocalizedStringResource = "Open the routine's playlist"
    static let openAppWhenRun = true

    @MainActor func perform() async throws -> some IntentResult {
        RoutineInbox.shared.link = savedRoutines().first?.link(.openPlaylist)
        return .result()
    }
}
