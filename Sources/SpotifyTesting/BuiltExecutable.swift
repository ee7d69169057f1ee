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
