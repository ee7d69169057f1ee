// FoundationEssentials on Linux (no ICU: an extension's process stays small); Apple's SDKs have
// Foundation alone.
#if !canImport(Darwin) && canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif
#if canImport(ActivityKit)
    public import ActivityKit
#endif

/// A running routine's Live Activity: what stays the same while it runs (the routine, its
/// playlist) and, in ``ContentState``, what changes ("song 3 of ≈ 6" and the time left, which
/// counts down on its own with `Text(timerInterval:)`).
///
/// On iOS it is an `ActivityAttributes`, so the app's widget extension shows it with
/// `ActivityConfiguration(for: RoutineActivityAttributes.self)`, linking `SpotifyLinkExtensions`
/// alone. The app starts, updates and ends it through `SpotifyLink.routineActivity()`
/// (`SpotifyLinkUI`), which ends it at every disconnect.
public struct RoutineActivityAttributes: Codable, Hashable, Sendable {
    /// The routine's namespace, as the app's `RecordID` has it.
    public var namespace: String
    /// The routine's ID within its namespace.
    public var recordID: String
    /// The routine's name, the app's words.
    public var title: String
    /// The name of the routine's playlist, if it is known.
    public var playlistName: String?

    /// A routine's attributes; texts longer than ``ContentState/textLimit`` bytes are cut.
    public init(namespace: String, recordID: String, title: String, playlistName: String? = nil) {
        self.namespace = namespace
        self.recordID = recordID
        self.title = ContentState.cut(title)
        self.playlistName = playlistName.map(ContentState.cut)
    }

    /// What a routine's Live Activity shows that changes while it runs. Its encoded size stays
    /// under 1 KB whatever Spotify names a song (ActivityKit refuses more than 4 KB): its texts are
    /// cut at ``textLimit`` bytes, without control characters.
    public struct ContentState: Codable, Hashable, Sendable {
        /// When the routine began.
        public var startedAt: Date
        /// When the routine ends: `Text(timerInterval: state.timerInterval)` counts down to it
        /// with no update.
        public var endsAt: Date
        /// The song playing now, counted from 1 since the routine began; `nil` while nothing plays.
        public var song: Int?
        /// How many songs of the playlist's average length the routine lasts (≈ 6), when its
        /// playlist's songs are known.
        public var songsInRoutine: Double?
        /// The name of what plays now, if anything.
        public var nowPlaying: String?
        /// "Song 3 of ≈ 6" in the user's language: the line to show.
        public var status: String
        /// Whether the routine has ended (its last content, shown until it is dismissed).
        public var hasEnded: Bool

        /// The longest text kept, in bytes of UTF-8: a song's name may be long, the state stays small.
        public static let textLimit = 160
        /// The size ActivityKit refuses beyond, in bytes ("can't exceed 4KB").
        public static let sizeLimit = 4096

        /// A routine's state; texts longer than ``textLimit`` bytes are cut.
        public init(
            startedAt: Date, endsAt: Date, song: Int? = nil, songsInRoutine: Double? = nil, nowPlaying: String? = nil,
            status: String, hasEnded: Bool = false
        ) {
            self.startedAt = startedAt
            self.endsAt = max(startedAt, endsAt)
            self.song = song
            self.songsInRoutine = songsInRoutine.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            self.nowPlaying = nowPlaying.map(Self.cut)
            self.status = Self.cut(status)
            self.hasEnded = hasEnded
        }

        /// From the start to the end, for `Text(timerInterval:)` and `ProgressView(timerInterval:)`.
        public var timerInterval: ClosedRange<Date> { startedAt...max(startedAt, endsAt) }

        /// Its size as JSON, in bytes (what the bench measures and a test holds under 1 KB).
        public func encodedSize() throws -> Int {
            try JSONEncoder().encode(self).count
        }

        /// `text` with control characters made spaces, cut to ``textLimit`` bytes of UTF-8 at a
        /// character's end (a name's accents and emoji stay whole) with "…" where it was cut.
        static func cut(_ text: String) -> String {
            let clean = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            guard clean.utf8.count > textLimit else { return clean }
            var kept = ""
            for character in clean {
                guard kept.utf8.count + character.utf8.count + 3 <= textLimit else { break }
                kept.append(character)
            }
            return kept + "…"
        }
    }
}

#if canImport(ActivityKit)
    extension RoutineActivityAttributes: ActivityAttributes {}
#endif
