import Foundation
import SpotifyLinkSupport
import Testing

/// A file written piece by piece (`spotlink export` of a large journal) replaces its destination
/// only whole: a writer that fails halfway leaves the old file and no temporary file.
@Suite("Private files written piece by piece")
struct PrivateFilesTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func piecesReplaceTheFileWhole() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("backup.json")
        try Data("old".utf8).write(to: file)
        let bytes = try await PrivateFiles.replaceFile(at: file) { append in
            for piece in ["{", "\"a\"", ":", "1", "}"] { try append(Data(piece.utf8)) }
        }
        #expect(bytes == 7)
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"a":1}"#)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backup.json"])
    }

    struct Halfway: Error {}

    @Test func aWriterThatFailsHalfwayLeavesTheOldFileAndNoTemporary() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("backup.json")
        try Data("old".utf8).write(to: file)
        var temporary: URL?
        await #expect(throws: Halfway.self) {
            try await PrivateFiles.replaceFile(at: file, temporaryCreated: { temporary = $0 }) { append in
                try append(Data("{\"half".utf8))
                throw Halfway()
            }
        }
        #expect(temporary != nil, "a temporary file was made first")
        #expect(try String(contentsOf: file, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backup.json"])
    }
}
