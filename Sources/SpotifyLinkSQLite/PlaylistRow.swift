import Foundation
import GRDB
@_spi(Storage) import PlaylistLinks
import SpotifyLinkSupport
import SpotifyWebAPI

/// A row of the `playlist` table: what is saved of one playlist, its columns stated once, by its
/// coding keys (as GRDB's demo `Player` is). The store reads and writes whole rows through it, and
/// clears many rows at once with ``assignments(_:)``; the rules of what a row holds are
/// `PlaylistMetadata`'s, in `PlaylistLinks`.
struct PlaylistRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "playlist"

    var id: String
    var name: String?
    var description: String?
    var ownerName: String?
    var trackCount: Int?
    var durationMs: Int64?
    var unavailableCount: Int?
    var explicitCount: Int?
    var snapshotID: String?
    var fetchedAt: Double?
    var availability: String
    var coverURL: String?
    var savedAt: Double?
    var droppedAt: Double?

    /// The row that saves `metadata`.
    init(_ metadata: PlaylistMetadata) {
        id = metadata.id.rawValue
        name = metadata.name
        description = metadata.description
        ownerName = metadata.ownerName
        trackCount = metadata.trackCount
        durationMs = metadata.totalDuration?.clampedMilliseconds
        unavailableCount = metadata.unavailableCount
        explicitCount = metadata.explicitCount
        snapshotID = metadata.snapshotID
        fetchedAt = metadata.fetchedAt?.timeIntervalSince1970
        availability = metadata.availability.rawValue
        coverURL = metadata.coverURL?.absoluteString
        savedAt = metadata.savedAt?.timeIntervalSince1970
        droppedAt = metadata.droppedAt?.timeIntervalSince1970
    }

    /// What the row saves.
    var metadata: PlaylistMetadata {
        var metadata = PlaylistMetadata(
            id: SpotifyID(unchecked: id), availability: PlaylistAvailability(rawValue: availability) ?? .unknown)
        metadata.name = name
        metadata.description = description
        metadata.ownerName = ownerName
        metadata.trackCount = trackCount
        metadata.totalDuration = durationMs.map { .milliseconds($0) }
        metadata.unavailableCount = unavailableCount
        metadata.explicitCount = explicitCount
        metadata.snapshotID = snapshotID
        metadata.fetchedAt = fetchedAt.map(Date.init(timeIntervalSince1970:))
        metadata.coverURL = coverURL.flatMap(URL.init(string:))
        metadata.savedAt = savedAt.map(Date.init(timeIntervalSince1970:))
        metadata.droppedAt = droppedAt.map(Date.init(timeIntervalSince1970:))
        return metadata
    }

    /// The assignments that make every column but the ID what `rule` saves of a playlist: a rule
    /// that depends on the ID alone (``PlaylistMetadata/forgotten(_:)``,
    /// ``PlaylistMetadata/expired(_:at:)``), written to many rows in one statement.
    static func assignments(_ rule: (SpotifyID) -> PlaylistMetadata) throws -> [ColumnAssignment] {
        var columns = try PlaylistRow(PlaylistMetadata.template(of: rule)).databaseDictionary
        columns[CodingKeys.id.stringValue] = nil
        return columns.sorted { $0.key < $1.key }.map { Column($0.key).set(to: $0.value) }
    }

    /// When a row's details were taken from Spotify, in SQL: ``PlaylistMetadata/detailsSavedAt``,
    /// the expression of the index `playlist_detail_age`, which answers every query by it.
    static let detailsSavedAt = "COALESCE(savedAt, fetchedAt)"

    /// The rows whose details were taken from Spotify before `limit` (seconds since 1970):
    /// ``PlaylistMetadata/isSaved(before:)`` in SQL.
    static func saved(before limit: Double) -> QueryInterfaceRequest<PlaylistRow> {
        filter(sql: "\(detailsSavedAt) < ?", arguments: [limit])
    }
}
