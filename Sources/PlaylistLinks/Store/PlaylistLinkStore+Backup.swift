public import Foundation
import SpotifyWebAPI

/// The backup file: every link and the cached metadata, as JSON.
private struct Backup: Codable {
    struct Link: Codable {
        var record: RecordID
        var playlist: String
        var linkedAt: Date
    }
    var format = "spotifylink-links"
    var version = 1
    var links: [Link]
    var playlists: [PlaylistMetadata]
}

extension PlaylistLinkStore {
    /// All links and cached metadata as JSON, for a backup or a move to another store. Covers are
    /// left out (they can be fetched again); no token or secret is in the store, so none is in the
    /// export.
    public func exportJSON() async throws -> Data {
        let links = try await links().map {
            Backup.Link(record: $0.record, playlist: $0.playlist.rawValue, linkedAt: $0.linkedAt)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(Backup(links: links, playlists: try await allMetadata()))
    }

    /// Restores an export, all or nothing. Existing links of the same records are replaced; others
    /// are kept.
    /// - Returns: the number of links imported.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidImport` when `data` is not an export
    ///   this version reads; nothing is changed then.
    @discardableResult
    public func importJSON(_ data: Data) async throws -> Int {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let backup: Backup
        do {
            backup = try decoder.decode(Backup.self, from: data)
        } catch {
            throw PlaylistLinksError(
                code: .invalidImport, message: "The file is not a SpotifyLink export: \(error)", underlying: error)
        }
        guard backup.format == "spotifylink-links", backup.version == 1 else {
            throw PlaylistLinksError(
                code: .invalidImport,
                message:
                    "The export has format \(backup.format) version \(backup.version), which this version cannot read.")
        }
        let links = try backup.links.map { link in
            guard let id = try? SpotifyID(link.playlist) else {
                throw PlaylistLinksError(
                    code: .invalidImport, message: "The export names a playlist ID that is not 22 letters and digits.")
            }
            return PlaylistLink(record: link.record, playlist: id, linkedAt: link.linkedAt)
        }
        try await restore(links: links, metadata: backup.playlists)
        return links.count
    }
}
