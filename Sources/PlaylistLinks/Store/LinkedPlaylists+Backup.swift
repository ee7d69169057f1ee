public import Foundation
import SpotifyLinkSupport
import SpotifyWebAPI

/// The backup file: every link and the cached metadata, as JSON. A caller that writes it inside a
/// document of its own (the CLI's backup, with its sessions) encodes and decodes this value in
/// place, so the links are read once and never turned into text and back.
package struct LinksExport: Codable, Sendable {
    package struct Link: Codable, Sendable {
        package var record: RecordID
        package var playlist: String
        package var linkedAt: Date
    }
    package var format = "spotifylink-links"
    package var version = 1
    package var links: [Link]
    package var playlists: [PlaylistMetadata]
}

extension LinkedPlaylists {
    /// All links and cached metadata as JSON, for a backup or a move to another store. Covers are
    /// left out (they can be fetched again); no token or secret is in the store, so none is in the
    /// export.
    public func exportJSON() async throws -> Data {
        try Self.exportEncoder.encode(try await exportDocument())
    }

    /// What ``exportJSON()`` writes, as a value.
    package func exportDocument() async throws -> LinksExport {
        let snapshot = try await store.snapshot()
        let links = snapshot.links.map {
            LinksExport.Link(record: $0.record, playlist: $0.playlist.rawValue, linkedAt: $0.linkedAt)
        }
        return LinksExport(links: links, playlists: snapshot.metadata)
    }

    /// The encoder of exports: sorted keys, indented, ISO 8601 dates.
    package static var exportEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The decoder of exports: ISO 8601 dates.
    package static var exportDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Restores an export, all or nothing. A record linked here more recently than in the export,
    /// to another playlist, keeps its link unless `replacingNewer`; every other record of the export
    /// gets the export's link. Records the export does not name are left alone.
    /// - Returns: what became of each link of the export.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidImport` when `data` is not an export
    ///   this version reads; nothing is changed then.
    @discardableResult
    public func importJSON(_ data: Data, replacingNewer: Bool = false) async throws -> RestoreReport {
        let (links, metadata) = try decodedExport(data)
        return try await store.restore(links: links, metadata: metadata, replacingNewer: replacingNewer)
    }

    /// What an export restores, read and checked with nothing written: for a caller that restores
    /// it in a transaction of its own (the CLI's journal, with its sessions).
    /// - Throws: ``PlaylistLinksError`` with code `.invalidImport` when `data` is not an export
    ///   this version reads.
    package func decodedExport(_ data: Data) throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
        let backup: LinksExport
        do {
            backup = try Self.exportDecoder.decode(LinksExport.self, from: data)
        } catch {
            throw PlaylistLinksError(
                code: .invalidImport, message: Self.whyNotAnExport(error, data), underlying: error)
        }
        return try decodedExport(backup)
    }

    /// What an export already decoded restores, checked with nothing written.
    /// - Throws: ``PlaylistLinksError`` with code `.invalidImport` when `backup` is not an export
    ///   this version reads.
    package func decodedExport(_ backup: LinksExport) throws -> (links: [PlaylistLink], metadata: [PlaylistMetadata]) {
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
            guard (try? link.record.check()) != nil else {
                throw PlaylistLinksError(
                    code: .invalidImport, message: "The export names a record without a namespace or an ID.")
            }
            return PlaylistLink(record: link.record, playlist: id, linkedAt: link.linkedAt)
        }
        let now = store.clock.now
        // A total no playlist can have (edited, damaged) is read as the nearest bound: kept, it
        // would trap wherever it is turned into numbers.
        let metadata = backup.playlists.map { playlist in
            var playlist = playlist.stamped(now)
            playlist.totalDuration = playlist.totalDuration?.clamped(to: .longestTotal)
            return playlist
        }
        return (links, metadata)
    }

    /// Why `data` is not an export, in words: what was expected and where it went wrong, never the
    /// decoder's debug description.
    package static func whyNotAnExport(_ error: any Error, _ data: Data) -> String {
        let start = "This file is not a SpotifyLink export (one is written by exportJSON or `spotlink export`)"
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            return start + ": it is not JSON."
        }
        func place(_ path: [any CodingKey]) -> String {
            let names = path.map { $0.intValue.map { "item \($0 + 1)" } ?? $0.stringValue }
            return names.isEmpty ? "at its top" : "at " + names.joined(separator: " › ")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return start + ": “\(key.stringValue)” is missing \(place(context.codingPath))."
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return start + ": the value \(place(context.codingPath)) is not of the kind an export has."
        case .dataCorrupted(let context)?:
            return start + ": the value \(place(context.codingPath)) cannot be read."
        default:
            return start + "."
        }
    }
}
