public import Foundation
import SpotifyLinkSupport
public import SpotifyWebAPI

/// A record of the host app that a playlist can be attached to: a namespace and an ID, as `session/42`.
public struct RecordID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of record, as `session` or `routine`.
    public var namespace: String
    /// The record's ID within its namespace.
    public var id: String

    /// The record `id` of kind `namespace`.
    public init(namespace: String, id: String) {
        self.namespace = namespace
        self.id = id
    }

    /// `namespace/id`.
    public var description: String { "\(namespace)/\(id)" }

    /// Refuses a record without a namespace or an ID: ``LinkedPlaylists`` checks every record it
    /// links or restores before the store sees it.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidArgument`.
    package func check() throws {
        guard !namespace.isEmpty, !id.isEmpty else {
            throw PlaylistLinksError(
                code: .invalidArgument, message: "A record needs a namespace and an ID, as session/42.")
        }
    }
}

/// Whether Spotify still serves a linked playlist.
public enum PlaylistAvailability: String, Sendable, Codable, CaseIterable {
    /// Spotify served it when last asked.
    case available
    /// Spotify answered 404: the playlist was deleted.
    case notFound
    /// Spotify answered 403: the playlist is no longer accessible to this user.
    case forbidden
    /// One of Spotify's own editorial or algorithmic playlists (IDs `37i9dQZ…`): Spotify answers
    /// 404 to apps, though the playlist opens in Spotify.
    case spotifyOwned
    /// Spotify serves its name, cover, owner and count, never its songs: the user follows it and
    /// neither owns it nor collaborates on it (Development Mode). Its duration stays unknown.
    case detailsOnly
    /// Not fetched yet.
    case unknown
}

/// What a Development Mode app can read of a playlist, known from Spotify's list of the user's
/// playlists without a further request: who owns it and whether it is collaborative.
public enum PlaylistAccess: String, Sendable, Codable, CaseIterable {
    /// The user owns it or collaborates on it: its name, cover, count and songs, so its duration
    /// and time in songs.
    case complete
    /// The user follows it: its name, cover, owner and count, not its songs, so no duration and no
    /// time in songs (``PlaylistAvailability/detailsOnly``).
    case detailsOnly
    /// One of Spotify's own playlists: nothing can be read by an app, though it can be linked and
    /// opened in Spotify (``PlaylistAvailability/spotifyOwned``).
    case openOnly

    /// What the user `userID` can read of `playlist`; `nil` when it depends on a user ID not known.
    package init?(_ playlist: SimplifiedPlaylist, userID: String?) {
        let ownerID = playlist.owner?.id
        if SpotifyID.isEditorial(playlist.id) || ownerID == "spotify" {
            self = .openOnly
        } else if playlist.collaborative || (userID != nil && ownerID == userID) {
            self = .complete
        } else if userID != nil, ownerID != nil {
            self = .detailsOnly
        } else {
            return nil
        }
    }

    /// The availability a card starts from for a playlist of this access, before Spotify is asked.
    var availability: PlaylistAvailability {
        switch self {
        case .complete: .available
        case .detailsOnly: .detailsOnly
        case .openOnly: .spotifyOwned
        }
    }
}

extension SpotifyID {
    /// Whether `id` is one of Spotify's own editorial or algorithmic playlists (`37i9dQZ…`), which
    /// Spotify serves to no Development Mode app.
    package static func isEditorial(_ id: SpotifyID) -> Bool { id.rawValue.hasPrefix("37i9dQZ") }
}

/// What is known about a playlist, as cached.
public struct PlaylistMetadata: Sendable, Codable, Equatable {
    /// The playlist's ID.
    public var id: SpotifyID
    /// Its name, once known.
    public var name: String?
    /// Its description as Spotify sends it (may hold HTML entities).
    public var description: String?
    /// The owner's display name, or their user ID when they have none.
    public var ownerName: String?
    /// `nil` when Spotify does not say (never a made-up zero).
    public var trackCount: Int?
    /// Sum of the entries' durations; `nil` when the entries could not be read.
    public var totalDuration: Duration?
    /// Entries whose item is no longer available, skipped in the duration.
    public var unavailableCount: Int?
    /// Entries Spotify marks explicit, counted from the entries read for the duration (no request of
    /// its own); `nil` when the entries could not be read, as for ``totalDuration``.
    public var explicitCount: Int?
    /// Spotify's version of the playlist when last read: unchanged means the entries are too.
    public var snapshotID: String?
    /// When Spotify was last asked; `nil` when never.
    public var fetchedAt: Date?
    /// Whether Spotify still serves it.
    public var availability: PlaylistAvailability
    /// The cover URL last seen (they expire within a day; the bytes are cached separately).
    public var coverURL: URL?
    /// When these details were last taken from Spotify; a store stamps it with its clock when
    /// details are saved without one. A ``RetentionPolicy`` drops details by it.
    public var savedAt: Date?
    /// When the store dropped this playlist's details for their age; `nil` once details are saved
    /// again.
    public var droppedAt: Date?

    /// Whether any detail from Spotify is known (name, owner, counts, duration, cover URL…).
    public var hasDetails: Bool {
        name != nil || description != nil || ownerName != nil || trackCount != nil || totalDuration != nil
            || unavailableCount != nil || explicitCount != nil || snapshotID != nil || coverURL != nil
    }

    /// What is known of playlist `id` before anything is fetched.
    @_spi(Storage) public init(id: SpotifyID, availability: PlaylistAvailability = .unknown) {
        self.id = id
        self.availability = availability
    }

    /// This metadata as it is saved at `now`: details without a ``savedAt`` are stamped `now`, and
    /// details clear ``droppedAt``. ``LinkedPlaylists`` stamps every save with it before the store
    /// writes it.
    @_spi(Storage) public func stamped(_ now: Date) -> PlaylistMetadata {
        var stamped = self
        if hasDetails {
            stamped.savedAt = savedAt ?? now
            stamped.droppedAt = nil
        } else {
            stamped.savedAt = nil
        }
        return stamped
    }

    /// The playlist as a Spotify reference (URI and universal link).
    public var reference: SpotifyReference { .playlist(id) }

    /// The facts a card shows, in English for the `spotlink` tool: "12 tracks · 48 min", "1 track",
    /// "2 h 50 min"; `nil` when neither the count nor the duration is known. Apps word them with
    /// `SpotifyText` (`.playlistSummary`), in the user's language.
    package var summaryLine: String? {
        var parts: [String] = []
        if let trackCount { parts.append("\(trackCount) track\(trackCount == 1 ? "" : "s")") }
        if let totalDuration { parts.append(Self.durationText(totalDuration)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// A playlist or listening length to the nearest minute, in English: "48 min", "2 h 50 min",
    /// "0 min". `SpotifyText` words it for people.
    package static func durationText(_ duration: Duration) -> String {
        let minutes = Int((max(duration.seconds, 0) / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }

    /// Takes what Spotify says of the playlist: name, description, owner, and the cover URL (kept
    /// when Spotify sends no images, as `/me/playlists` sometimes does). The one mapping from
    /// Spotify's playlist to the cache.
    /// - Returns: the best cover image, to fetch.
    @discardableResult
    mutating func update(from playlist: SimplifiedPlaylist) -> SpotifyImage? {
        name = playlist.name
        description = playlist.description
        ownerName = playlist.owner?.displayName ?? playlist.owner?.id ?? ownerName
        let cover = SpotifyImage.best(in: playlist.images)
        coverURL = cover?.url ?? coverURL
        return cover
    }
}

/// Everything a screen shows for a record's playlist, read from the database alone.
public struct PlaylistCard: Sendable, Equatable {
    /// The host app's record.
    public var record: RecordID
    /// What is cached of its playlist.
    public var metadata: PlaylistMetadata
    /// When the record was linked.
    public var linkedAt: Date
    /// The cached cover bytes (PNG or JPEG as Spotify served them).
    public var cover: Data?

    /// A card from what a store holds.
    @_spi(Storage) public init(record: RecordID, metadata: PlaylistMetadata, linkedAt: Date, cover: Data? = nil) {
        self.record = record
        self.metadata = metadata
        self.linkedAt = linkedAt
        self.cover = cover
    }

    /// The `spotify:` URI, which opens the Spotify app.
    public var uri: String { metadata.reference.uri }
    /// The universal link: opens the app, or the web player without it.
    public var webURL: URL { metadata.reference.webURL }
}

/// One of the user's own playlists, cached for the picker.
public struct LibraryPlaylist: Sendable, Equatable, Codable {
    /// The playlist's ID.
    public var id: SpotifyID
    /// Its name.
    public var name: String
    /// The owner's display name, or their user ID when they have none.
    public var ownerName: String?
    /// Its number of entries, when Spotify says.
    public var trackCount: Int?
    /// The cover URL Spotify listed (URLs expire within a day; a card fetches the bytes once).
    public var coverURL: URL?
    /// Spotify's version of the playlist when listed.
    public var snapshotID: String?
    /// What the app can read of it: a picker marks each playlist by it, and can offer only the
    /// ``PlaylistAccess/complete`` ones; `nil` when not known (listed before the user was known).
    public var access: PlaylistAccess?

    /// A library entry from what a store holds.
    @_spi(Storage) public init(
        id: SpotifyID, name: String, ownerName: String? = nil, trackCount: Int? = nil, coverURL: URL? = nil,
        snapshotID: String? = nil, access: PlaylistAccess? = nil
    ) {
        self.id = id
        self.name = name
        self.ownerName = ownerName
        self.trackCount = trackCount
        self.coverURL = coverURL
        self.snapshotID = snapshotID
        self.access = access
    }

    /// The library entry of a playlist Spotify listed to the user `userID`: the one mapping from
    /// Spotify's playlist to it.
    package init(playlist: SimplifiedPlaylist, userID: String?) {
        self.init(
            id: playlist.id, name: playlist.name, ownerName: playlist.owner?.displayName ?? playlist.owner?.id,
            trackCount: playlist.itemCount, coverURL: SpotifyImage.best(in: playlist.images)?.url,
            snapshotID: playlist.snapshotID, access: PlaylistAccess(playlist, userID: userID))
    }
}

/// The one error of this module.
public struct PlaylistLinksError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, to match on: `catch PlaylistLinksError.Code.database`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package init(name: String) { self.name = name }
        /// The database could not be opened, read or written.
        public static let database = Code(name: "database")
        /// An import file could not be read.
        public static let invalidImport = Code(name: "invalidImport")
        /// A bad argument (an empty record ID, say).
        public static let invalidArgument = Code(name: "invalidArgument")

        /// The code's name, as its static property is spelled.
        public var description: String { name }

        /// Matches a ``PlaylistLinksError`` of this code, so `catch PlaylistLinksError.Code.x { … }` and
        /// `case PlaylistLinksError.Code.x:` read as the code they handle.
        public static func ~= (code: Self, error: any Error) -> Bool { code.matches(error) }
    }

    /// What went wrong, to match on.
    public var code: Code
    /// A sentence for people: what happened and what to do.
    public var message: String
    /// The error of the storage below, when there was one.
    public var underlying: (any Error & Sendable)?

    /// An error with `code` and `message`; store implementations throw these too.
    @_spi(Storage) public init(code: Code, message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The type, the code, the HTTP status where there was one, and the message.
    public var description: String { codedDescription }

    /// Errors are equal when their codes are: what happened, not how it was worded.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}

extension PlaylistLinksError: CodedError {}

extension PlaylistLinksError.Code: ErrorCode {
    package typealias Failure = PlaylistLinksError
}
