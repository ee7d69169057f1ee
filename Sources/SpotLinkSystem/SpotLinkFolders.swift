package import Foundation
import SpotifyLinkSupport

/// Where `spotlink` keeps its journal, tokens and configuration when `--data-dir` is not given:
/// `~/Library/Application Support/spotlink` on macOS (one folder, as Apple's guidelines place an
/// app's files), the XDG data and configuration folders elsewhere.
package enum SpotLinkFolders {
    /// The data folder and the configuration folder for `environment` (`HOME`, `XDG_*`).
    package static func standard(_ environment: [String: String]) -> (data: URL, config: URL) {
        #if os(macOS)
            let support = BaseDirectories.home(environment).appendingPathComponent(
                "Library/Application Support/spotlink")
            return (support, support.appendingPathComponent("config"))
        #else
            return (
                BaseDirectories.data(environment).appendingPathComponent("spotlink"),
                BaseDirectories.config(environment).appendingPathComponent("spotlink")
            )
        #endif
    }
}

/// Opens URLs with the system's opener when there is one: `open` on macOS, `xdg-open` elsewhere.
package enum SystemOpener {
    /// Starts the opener on `url` and returns whether it started (not whether a browser showed it).
    @discardableResult
    package static func open(_ url: URL) -> Bool {
        #if os(macOS)
            let candidates = ["/usr/bin/open"]
        #else
            let candidates = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"]
        #endif
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return false
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return (try? process.run()) != nil
    }
}
