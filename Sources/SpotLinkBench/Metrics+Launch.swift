import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyLinkUI
import SpotifyWebAPI

extension Metrics {
    /// 9: the main actor's share of an app's launch: making `SpotifyLink` with the platform's
    /// defaults (the token store aside: no keyring here), in a data folder that does not exist yet
    /// (the first launch) and in one whose databases exist (every later launch). The first card
    /// read, which opens and migrates the databases off the main actor, is reported beside it.
    static func launch(_ report: Report, runs: Int) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bench-launch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var first: [Double] = []
        var later: [Double] = []
        var firstRead: [Double] = []
        for run in 0..<runs {
            var configuration = SpotifyLink.Configuration(clientID: "bench", redirectURI: "myapp://spotify-callback")
            configuration.folder = root.appendingPathComponent("\(run)")
            configuration.tokenStore = MemoryTokenStore()
            let made = configuration
            let (fresh, spotify) = await MainActor.run {
                let start = ContinuousClock.now
                let spotify = SpotifyLink(made)
                return (elapsedMs(start), spotify)
            }
            first.append(fresh)
            let card = await spotify.card(for: RecordID(namespace: "session", id: "1"))
            let start = ContinuousClock.now
            await card.load()
            firstRead.append(elapsedMs(start))
            guard await card.note == nil else {
                throw BenchFailure("the first card read failed: \(await card.note!)")
            }
            let relaunch = await MainActor.run {
                let start = ContinuousClock.now
                _ = SpotifyLink(made)
                return elapsedMs(start)
            }
            later.append(relaunch)
        }
        report.metric(
            "launch_main_actor_first", percentile(first, 0.5), "ms", floor: nil,
            target: .machine(.atMost(5), "ms on the main actor"),
            extra: ["p99_ms": percentile(first, 0.99), "runs": runs])
        report.metric(
            "launch_main_actor_later", percentile(later, 0.5), "ms", floor: nil,
            target: .machine(.atMost(5), "ms on the main actor"),
            extra: ["p99_ms": percentile(later, 0.99), "runs": runs])
        report.metric(
            "launch_first_card_read", percentile(firstRead, 0.5), "ms", floor: nil,
            target: .contrast("off the main actor: opens and migrates the links database"),
            extra: ["p99_ms": percentile(firstRead, 0.99)])
    }
}
