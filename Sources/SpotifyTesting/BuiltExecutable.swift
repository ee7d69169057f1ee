package import Foundation

/// The executable `name` built beside the running test bundle (`.build/<triple>/debug/`), for
/// tests that run the package's own programs as real processes.
package func builtExecutable(named name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: ".build/debug/\(name)")
}

/// A path named `name` in a folder of its own under the temporary directory (the folder is not
/// made): files of different tests never meet.
package func temporaryFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-\(UUID().uuidString)")
        .appendingPathComponent(name)
}
