import Foundation
@_spi(Storage) import PlaylistLinks
import PostgresNIO
import SpotifyLinkSupport
import SpotifyWebAPI

/// A row of `spotlink_playlist`: what is saved of one of a user's playlists, its columns listed
/// once (``columns``), read by name and written in that order. The store reads and writes whole
/// rows through it; the rules of what a row holds are `PlaylistMetadata`'s, in `PlaylistLinks`.
enum PostgresPlaylistRow {
    /// The columns besides `user_key` and `id`, in the order ``bindDetails(_:into:)`` appends their
    /// values.
    static let detailColumns = [
        "availability", "name", "description", "owner_name", "track_count", "duration_ms", "unavailable_count",
        "explicit_count", "snapshot_id", "fetched_at", "cover_url", "saved_at", "dropped_at",
    ]

    /// When a row's details were taken from Spotify, in SQL: ``PlaylistMetadata/detailsSavedAt``,
    /// the expression of the index `spotlink_playlist_detail_age`.
    static let detailsSavedAt = "COALESCE(saved_at, fetched_at)"

    /// Every column besides `user_key`: the ID, then ``detailColumns``.
    static let columns = ["id"] + detailColumns

    /// The row's columns as a select list, each qualified by `table` when given (`p.id, p.name, …`).
    static func selectList(_ table: String? = nil) -> String {
        columns.map { (table.map { "\($0)." } ?? "") + $0 }.joined(separator: ", ")
    }

    /// Appends `metadata`'s values but its ID, in the order of ``detailColumns``.
    static func bindDetails(_ metadata: PlaylistMetadata, into bindings: inout PostgresBindings) {
        bindings.append(metadata.availability.rawValue)
        bindings.append(metadata.name)
        bindings.append(metadata.description)
        bindings.append(metadata.ownerName)
        bindings.append(metadata.trackCount)
        bindings.append(metadata.totalDuration?.clampedMilliseconds)
        bindings.append(metadata.unavailableCount)
        bindings.append(metadata.explicitCount)
        bindings.append(metadata.snapshotID)
        bindings.append(metadata.fetchedAt?.timeIntervalSince1970)
        bindings.append(metadata.coverURL?.absoluteString)
        bindings.append(metadata.savedAt?.timeIntervalSince1970)
        bindings.append(metadata.droppedAt?.timeIntervalSince1970)
    }

    /// What a row read with ``selectList(_:)`` saves.
    static func metadata(_ row: PostgresRandomAccessRow) throws -> PlaylistMetadata {
        var metadata = PlaylistMetadata(
            id: SpotifyID(unchecked: try row["id"].decode(String.self)),
            availability: PlaylistAvailability(rawValue: try row["availability"].decode(String.self)) ?? .unknown)
        metadata.name = try row["name"].decode(String?.self)
        metadata.description = try row["description"].decode(String?.self)
        metadata.ownerName = try row["owner_name"].decode(String?.self)
        metadata.trackCount = try row["track_count"].decode(Int?.self)
        metadata.totalDuration = try row["duration_ms"].decode(Int64?.self).map { .milliseconds($0) }
        metadata.unavailableCount = try row["unavailable_count"].decode(Int?.self)
        metadata.explicitCount = try row["explicit_count"].decode(Int?.self)
        metadata.snapshotID = try row["snapshot_id"].decode(String?.self)
        metadata.fetchedAt = try row["fetched_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:))
        metadata.coverURL = try row["cover_url"].decode(String?.self).flatMap(URL.init(string:))
        metadata.savedAt = try row["saved_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:))
        metadata.droppedAt = try row["dropped_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:))
        return metadata
    }

    /// Saves `metadata` as `user`'s row, over the one saved.
    static func upsert(_ metadata: PlaylistMetadata, user: String) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(user)
        bindings.append(metadata.id.rawValue)
        bindDetails(metadata, into: &bindings)
        let updates = detailColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO spotlink_playlist (user_key, \(selectList()))
                VALUES (\(placeholders(1...bindings.count)))
                ON CONFLICT (user_key, id) DO UPDATE SET \(updates)
                """, binds: bindings)
    }

    /// Makes every column but the ID of `user`'s rows that `condition` selects what `rule` saves
    /// of a playlist: a rule that depends on the ID alone (``PlaylistMetadata/forgotten(_:)``,
    /// ``PlaylistMetadata/expired(_:at:)``), written to many rows in one statement. `condition`
    /// names the user as `$1` and `arguments` as `$2` and on.
    static func update(
        user: String, to rule: (SpotifyID) -> PlaylistMetadata, where condition: String = "TRUE",
        arguments: [Double] = []
    ) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(user)
        for argument in arguments { bindings.append(argument) }
        let first = bindings.count + 1
        bindDetails(PlaylistMetadata.template(of: rule), into: &bindings)
        return PostgresQuery(
            unsafeSQL: """
                UPDATE spotlink_playlist SET (\(detailColumns.joined(separator: ", "))) =
                    ROW(\(placeholders(first...bindings.count)))
                WHERE user_key = $1 AND (\(condition))
                """, binds: bindings)
    }

    private static func placeholders(_ numbers: ClosedRange<Int>) -> String {
        numbers.map { "$\($0)" }.joined(separator: ", ")
    }
}
