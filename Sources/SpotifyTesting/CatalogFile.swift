package import Foundation

/// Emulator catalog files (`spotify-emulator --catalog FILE`) for tests and benchmarks.
package enum CatalogFile {
    /// Writes a catalog whose user has `playlists` playlists, all in the library, named
    /// "Collection 1"…, and returns its URL in a fresh temporary folder.
    ///
    /// - Parameters:
    ///   - playlists: how many playlists.
    ///   - tracks: the number of tracks of playlist `index` (3 to 7 by default).
    package static func library(playlists: Int, tracks: (Int) -> Int = { 3 + $0 % 5 }) throws -> URL {
        let list = (0..<playlists).map { index in
            [
                "name": "Collection \(index + 1)",
                "entries": (0..<tracks(index)).map { track in
                    [
                        "name": "Song \(index + 1).\(track + 1)",
                        "duration_ms": 150_000 + (index * 7919 + track * 104_729) % 110_000,
                    ]
                },
            ] as [String: Any]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spotlink-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("catalog.json")
        try JSONSerialization.data(withJSONObject: [
            "user": ["id": "emu-user", "display_name": "Emulator User"], "playlists": list,
        ])
        .write(to: url)
        return url
    }
}
