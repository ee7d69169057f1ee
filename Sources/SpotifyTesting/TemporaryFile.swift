package import Foundation

/// A path named `name` in a folder of its own under the temporary directory (the folder is not
/// made): files of different tests never meet.
package func temporaryFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-\(UUID().uuidString)")
        .appendingPathComponent(name)
}
