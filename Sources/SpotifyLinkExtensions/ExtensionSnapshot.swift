// FoundationEssentials on Linux (no ICU: an extension's process stays small); Apple's SDKs have
// Foundation alone.
#if !canImport(Darwin) && canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What an app's extensions show (a widget, a Live Activity, an App Intent, a control), written by
/// the app into its App Group container and read by the extensions, which send no Spotify request
/// and open no database: each app record with its playlist's facts, the learner's recent songs,
/// and the words for them already in the user's language.
///
/// Everything in it was read from Spotify by the app, so it is temporary as the cards are: a
/// disconnect clears it (``ExtensionSnapshotFile/forget()``), and a snapshot written before a
/// disconnect is never shown after it.
public struct ExtensionSnapshot: Codable, Sendable, Equatable {
    /// The format this version of the package writes; a reader refuses a newer one.
    public static let currentVersion = 1

    /// The format of this snapshot.
    public var version: Int
    /// The forget epoch it was written under (``ExtensionSnapshotFile/epoch()``): a disconnect
    /// since makes it unreadable.
    public var epoch: UInt64
    /// When the app wrote it.
    public var writtenAt: Date
    /// Whether Spotify was connected when it was written.
    public var isConnected: Bool
    /// The app's records with their playlists, in the app's order (the next routines, the latest
    /// sessions).
    public var playlists: [Playlist]
    /// The learner's recent songs, newest first.
    public var recentTracks: [Track]
    /// What an extension shows when there is nothing to list ("Connect Spotify in the app"), in
    /// the user's language.
    public var emptyText: String?

    /// A snapshot of the present format.
    /// - Parameters:
    ///   - epoch: the file's epoch (``ExtensionSnapshotFile/epoch()``), read before gathering
    ///     what the snapshot holds.
    ///   - writtenAt: when the app writes it.
    ///   - isConnected: whether Spotify is connected.
    ///   - playlists: the app's records with their playlists, in the app's order.
    ///   - recentTracks: the learner's recent songs, newest first.
    ///   - emptyText: what an extension shows when there is nothing to list, in the user's language.
    public init(
        epoch: UInt64, writtenAt: Date, isConnected: Bool, playlists: [Playlist] = [], recentTracks: [Track] = [],
        emptyText: String? = nil
    ) {
        self.version = Self.currentVersion
        self.epoch = epoch
        self.writtenAt = writtenAt
        self.isConnected = isConnected
        self.playlists = playlists
        self.recentTracks = recentTracks
        self.emptyText = emptyText
    }

    /// One of the app's records and the playlist linked to it, as its card shows it.
    public struct Playlist: Codable, Sendable, Equatable, Identifiable {
        /// The record's namespace and ID, as the app's `RecordID` has them.
        public var namespace: String
        /// The record's ID within its namespace.
        public var recordID: String
        /// The record's own title (the routine's name, the session's date), the app's words.
        public var title: String?
        /// When the record next starts (a routine), if it has a time.
        public var startsAt: Date?
        /// The playlist's name; `nil` while no details are saved.
        public var name: String?
        /// The number of songs.
        public var trackCount: Int?
        /// The playlist's length in seconds.
        public var durationSeconds: Double?
        /// The card's facts in words ("50 songs · 3 h 20 min"), in the user's language.
        public var summary: String?
        /// The same facts as VoiceOver reads them.
        public var spokenSummary: String?
        /// The playlist's page in Spotify (`https://open.spotify.com/playlist/…`); an extension
        /// opens the app, which opens it.
        public var spotifyURL: URL?
        /// The playlist's cover, as the card shows it: the name of its file beside the snapshot,
        /// read with ``ExtensionSnapshotFile/cover(of:)``; `nil` while no cover is kept (or the
        /// retention rules dropped it).
        public var cover: String?

        /// The identity of a row: the record.
        public var id: String { "\(namespace)/\(recordID)" }

        /// A record's row; only the record is required.
        public init(
            namespace: String, recordID: String, title: String? = nil, startsAt: Date? = nil, name: String? = nil,
            trackCount: Int? = nil, durationSeconds: Double? = nil, summary: String? = nil,
            spokenSummary: String? = nil, spotifyURL: URL? = nil, cover: String? = nil
        ) {
            self.namespace = namespace
            self.recordID = recordID
            self.title = title
            self.startsAt = startsAt
            self.name = name
            self.trackCount = trackCount
            self.durationSeconds = durationSeconds
            self.summary = summary
            self.spokenSummary = spokenSummary
            self.spotifyURL = spotifyURL
            self.cover = cover
        }
    }

    /// A song the learner played or saved.
    public struct Track: Codable, Sendable, Equatable {
        /// The song's name.
        public var name: String
        /// Its artists, joined for display.
        public var artists: String
        /// The song's page in Spotify.
        public var spotifyURL: URL?

        /// A song's row.
        public init(name: String, artists: String, spotifyURL: URL? = nil) {
            self.name = name
            self.artists = artists
            self.spotifyURL = spotifyURL
        }
    }
}

/// What reading the snapshot gave: the snapshot, or nothing to show and why. A read never throws
/// and never crashes: whatever is on disk, an extension shows the snapshot or its empty state.
public enum ExtensionSnapshotReading: Sendable, Equatable {
    /// A snapshot written under the present epoch.
    case snapshot(ExtensionSnapshot)
    /// Nothing to show.
    case nothing(Reason)

    /// Why there is nothing to show.
    public enum Reason: Sendable, Equatable {
        /// The app has written none (never launched, or disconnected since).
        case notWritten
        /// The file is damaged, truncated or too large: the app's next write replaces it.
        case unreadable
        /// A newer version of the app wrote it (the extension runs an older build for a moment
        /// during an update): the number is its format.
        case newerVersion(Int)
        /// It was written before a disconnect: its details are forgotten, and never shown.
        case forgotten
    }

    /// The snapshot, when there is one to show.
    public var snapshot: ExtensionSnapshot? {
        if case .snapshot(let snapshot) = self { snapshot } else { nil }
    }
}
