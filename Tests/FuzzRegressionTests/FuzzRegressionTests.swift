import Foundation
import SpotLinkFuzzTargets
import Testing

/// Replays every fuzz seed, every recorded fixture and every input a fuzzer ever crashed on through
/// the targets of `scripts/fuzz.sh`, without libFuzzer: a fixed crash that comes back fails here.
@Suite("Fuzz targets replay their seeds and past crashes")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func files(in folder: URL) -> [URL] {
        (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))?
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path } ?? []
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndPastCrashesRunClean(_ target: FuzzTarget) async throws {
        let fuzz = Self.root.appendingPathComponent("Fuzz")
        var inputs = Self.files(in: fuzz.appendingPathComponent("seeds/\(target.rawValue)"))
        try #require(!inputs.isEmpty, "no seeds for \(target.rawValue) in Fuzz/seeds")
        inputs += Self.files(in: fuzz.appendingPathComponent("crashes/\(target.rawValue)"))
        if target == .decoders {
            inputs += Self.files(in: Self.root.appendingPathComponent("Sources/SpotifyTesting/Fixtures"))
                .filter { $0.pathExtension == "json" }
        }
        for input in inputs { await target.runAwaiting(try Data(contentsOf: input)) }
    }
}
