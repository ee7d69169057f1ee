import Foundation
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// After a disconnect forgets, no playlist name and no cover byte is left anywhere in the
/// database's files: not in a free page, not in the write-ahead log.
@Suite("Forgetting leaves nothing on disk")
struct ForgetOnDiskTests {
    @Test func noNameOrCoverByteRemainsInTheFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forget-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("links.sqlite")
        let store = try SQLitePlaylistLinkStore(location: .file(file), clock: VirtualClock())
        let playlists = (0..<40).map { SpotifyID(unchecked: String(format: "4rOoJ6Egrf8K2Iryw%05d", $0)) }
        for (index, id) in playlists.enumerated() {
            var metadata = PlaylistMetadata(id: id, availability: .available)
            metadata.name = "SENTINEL_NAME_\(index)"
            metadata.ownerName = "SENTINEL_OWNER_\(index)"
            try await store.saveMetadata(metadata)
            try await store.saveCover(
                Data(repeating: 0x5A, count: 3000) + Data("SENTINEL_COVER_\(index)".utf8), for: id)
            try await store.linked.link(RecordID(namespace: "session", id: "\(index)"), to: id)
        }
        try await store.replaceLibrary(playlists.map { LibraryPlaylist(id: $0, name: "SENTINEL_LIBRARY") })
        #expect(try bytes(in: folder).contains(Data("SENTINEL_NAME_7".utf8)))

        try await store.forgetSpotifyDetails()

        let left = try bytes(in: folder)
        for sentinel in ["SENTINEL_NAME", "SENTINEL_OWNER", "SENTINEL_COVER", "SENTINEL_LIBRARY"] {
            #expect(!left.contains(Data(sentinel.utf8)), "\(sentinel) is still in the database's files")
        }
        #expect(left.range(of: Data(repeating: 0x5A, count: 3000)) == nil, "cover bytes are still on disk")
        // The links are still there.
        #expect(try await store.links().count == 40)
        #expect(try store.integrityCheck() == ["ok"])
    }

    /// Every file of the database (the file, its write-ahead log and shared memory), concatenated.
    private func bytes(in folder: URL) throws -> Data {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.path < $1.path }
            .reduce(into: Data()) { $0 += try Data(contentsOf: $1) }
    }
}
