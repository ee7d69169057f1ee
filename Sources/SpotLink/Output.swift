import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyWebAPI
import Synchronization

/// A line for the terminal, the only text ``Output`` prints for people: its literal parts are the
/// command's own words, and every value interpolated into it (a playlist's or a session's name, a
/// message, a path) passes through ``Output/safe(_:)``, so a name Spotify or the user controls cannot
/// move the cursor, set the title, write the clipboard or forge a line. A `String` is not a
/// `TerminalText`: a new command cannot print one without interpolating it, and so making it safe.
struct TerminalText: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    /// The text as it is written, escape sequences of its styling included.
    fileprivate(set) var rendered: String

    /// The safe text, for a `String` that reaches the terminal through ``Output`` later.
    var description: String { rendered }

    init(stringLiteral literal: String) { rendered = literal }

    init(stringInterpolation: StringInterpolation) { rendered = stringInterpolation.rendered }

    /// `value` shown as text, made safe.
    init(_ value: some CustomStringConvertible) { rendered = Output.safe(value.description) }

    fileprivate init(styled: String) { rendered = styled }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var rendered = ""

        init(literalCapacity: Int, interpolationCount: Int) { rendered.reserveCapacity(literalCapacity) }

        mutating func appendLiteral(_ literal: String) { rendered += literal }

        /// A value: made safe for the terminal.
        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            rendered += Output.safe(value.description)
        }

        /// Text already made for the terminal (styled, or built from other lines).
        mutating func appendInterpolation(_ text: TerminalText) { rendered += text.rendered }
    }

    /// Two safe texts one after the other.
    static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        TerminalText(styled: lhs.rendered + rhs.rendered)
    }

    /// Lines joined by line breaks, each already safe.
    static func lines(_ lines: [TerminalText]) -> TerminalText {
        TerminalText(styled: lines.map(\.rendered).joined(separator: "\n"))
    }
}

/// Printing for people and for programs: colours only on a terminal and never with `NO_COLOR`,
/// progress on stderr, JSON on stdout. A closed pipe (`spotlink demo --json | head -1`) ends the
/// command quietly with the status a shell expects (141, as SIGPIPE), never a crash.
enum Output {
    static let isTerminal = isatty(STDOUT_FILENO) == 1
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1
    static let colors = isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    static func line(_ text: TerminalText = "") {
        write(text.rendered + "\n", to: STDOUT_FILENO)
    }

    /// An error on stderr; it may quote Spotify, so it passes through ``safe(_:)``.
    static func error(_ text: String) {
        write("error: " + safe(text) + "\n", to: STDERR_FILENO)
    }

    static func note(_ text: TerminalText) {
        write(text.rendered + "\n", to: STDERR_FILENO)
    }

    static func bold(_ text: TerminalText) -> TerminalText { styled(text, "1") }
    static func dim(_ text: TerminalText) -> TerminalText { styled(text, "2") }
    static func green(_ text: TerminalText) -> TerminalText { styled(text, "32") }

    private static func styled(_ text: TerminalText, _ code: String) -> TerminalText {
        TerminalText(styled: colors ? "\u{1B}[\(code)m\(text.rendered)\u{1B}[0m" : text.rendered)
    }

    /// One JSON object on stdout, its keys sorted: each command's answer is an `Encodable` value,
    /// so the keys the README promises are stated once and checked by the compiler. Characters a
    /// terminal would act on inside a string (C1 controls, line and paragraph separators,
    /// bidirectional overrides and isolates) are written as `\\u` escapes, as JSONEncoder already
    /// writes C0 controls: the same value, nothing to act on.
    static func json(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        write(jsonEscapingTerminalControls(String(decoding: data, as: UTF8.self)) + "\n", to: STDOUT_FILENO)
    }

    /// `json` with every scalar ``safe(_:)`` would replace written as a `\\uXXXX` escape. Such a
    /// scalar is inside a JSON string wherever it appears (JSON allows no other place), so the
    /// document means the same.
    static func jsonEscapingTerminalControls(_ json: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if scalar.isInvisibleControl {
                escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Writes all of `text`, or ends the process as a closed pipe would: quietly, status 141.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { closedPipe() }
                if descriptor == STDOUT_FILENO { stdoutFailures.withLock { $0 = $0 ?? errno } }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The error of the first write to stdout that failed (a full disk, `> /dev/full`), if one did:
    /// the command then ends with status 1 instead of reporting a success nobody could read.
    private static let stdoutFailures = Lock<Int32?>(nil)

    /// Said on stderr, and the process ends with status 1, when a write to stdout failed.
    static func exitIfOutputWasLost() {
        guard let code = stdoutFailures.withLock({ $0 }) else { return }
        error(
            "The output could not be written (\(String(cString: strerror(code)))). What the command did is done; "
                + "run it again where its output has room (a status or list command changes nothing).")
        exit(1)
    }

    /// What runs when stdout or stderr is a pipe whose reader went away: the command's cleanup
    /// (the demo's folder), then exit 141, as a process killed by SIGPIPE reports.
    nonisolated(unsafe) static var onClosedPipe: @Sendable () -> Void = {}

    private static func closedPipe() -> Never {
        onClosedPipe()
        _exit(141)  // no exit handlers beside the command's running threads; output is unbuffered
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
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.isInvisibleControl ? " " : $0 }))
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
        case .detailsOnly:
            "You follow this playlist but don't own it, so Spotify doesn't show apps its songs and its length is "
                + "unknown. To see them, add its songs to a playlist of your own in Spotify, then attach that one."
        case .unknown: "Details will appear once Spotify has been reached."
        }
    }

    /// The picker's mark of what the app can read of a playlist; `nil` when not known.
    static func accessMark(_ access: PlaylistAccess?) -> String? {
        switch access {
        case .complete: "songs and length"
        case .detailsOnly: "followed: name and cover only"
        case .openOnly: "Spotify's own: opens in Spotify only"
        case nil: nil
        }
    }

    /// Why a time cannot be put in songs, in a few words.
    static func songTimeReason(_ reason: SongTime.Reason) -> String {
        switch reason {
        case .songsHidden: "can't count songs: Spotify doesn't show apps the songs of a playlist you only follow"
        case .spotifyOwned: "can't count songs: Spotify shows apps nothing of its own playlists"
        case .unavailable: "can't count songs: the playlist is no longer on Spotify"
        case .notReadYet: "songs will be counted once Spotify has been reached"
        case .empty: "the playlist has no songs"
        }
    }
}

/// An optional value of a `--json` answer whose key is there either way: `null` when it is `nil`
/// (a plain optional leaves its key out).
@propertyWrapper
struct Nullable<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
