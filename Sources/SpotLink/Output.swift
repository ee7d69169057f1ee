import Foundation
import PlaylistLinks
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyWebAPI

/// Printing for people and for programs: colours only on a terminal and never with `NO_COLOR`,
/// progress on stderr, JSON on stdout.
enum Output {
    static let isTerminal = isatty(STDOUT_FILENO) == 1
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1
    static let colors = isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// An error on stderr; it may quote Spotify, so it passes through ``safe(_:)``.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("error: " + safe(text) + "\n").utf8))
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func bold(_ text: String) -> String { colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    static func dim(_ text: String) -> String { colors ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    static func green(_ text: String) -> String { colors ? "\u{1B}[32m\(text)\u{1B}[0m" : text }

    /// One JSON object on stdout.
    static func json(_ value: Any) {
        let data =
            (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// A progress bar on stderr when it is a terminal; silent otherwise.
    static func progress(_ label: String, _ done: Int, _ total: Int?) {
        guard errorIsTerminal else { return }
        let width = 30
        let fraction = total.map { $0 > 0 ? Double(done) / Double($0) : 1 } ?? 0
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let count = total.map { "\(done)/\($0)" } ?? "\(done)"
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(count)".utf8))
        if let total, done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// "1 track", "2 tracks"; "1 entry", "2 entries" with the plural given.
    static func count(_ value: Int, _ noun: String, plural: String? = nil) -> String {
        "\(value) " + (value == 1 ? noun : plural ?? noun + "s")
    }

    /// A track length as a clock shows it: "3:34".
    static func clock(_ duration: Duration) -> String {
        let total = Int(duration.seconds.rounded())
        return String(format: "%d:%02d", total / 60, total % 60)
    }

    /// A text from Spotify made safe for a terminal: control characters, escape sequences, line
    /// and paragraph separators and bidirectional overrides become spaces.
    static func safe(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar.value {
                    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: " "
                    default: scalar
                    }
                }))
    }

    /// A length to the nearest minute, as cards show it; "unknown" when Spotify did not say.
    static func duration(_ duration: Duration?) -> String {
        duration.map(PlaylistMetadata.durationText) ?? "unknown"
    }
}

extension Output {
    /// A routine's end in words: "You got through 4.5 songs.", or an honest "no music was playing".
    static func sentence(_ summary: RoutineListening.Summary) -> String {
        guard let songs = summary.songs, summary.tracksPlayed > 0 else {
            return "No music was playing during this routine."
        }
        return "You got through \(SongTime.label(songs))."
    }

    /// What a card says of a playlist's availability, or `nil` when there is nothing to say.
    static func statusLine(_ availability: PlaylistAvailability) -> String? {
        switch availability {
        case .available: nil
        case .notFound: "This playlist was deleted on Spotify; the details below are what was saved."
        case .forbidden: "This playlist is no longer accessible on Spotify; the details below are what was saved."
        case .spotifyOwned:
            "Spotify doesn't share the details of its own playlists (such as Today's Top Hits or Discover Weekly) "
                + "with apps. It still opens in Spotify."
        case .unknown: "Details will appear once Spotify has been reached."
        }
    }
}
