import ArgumentParser
import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyAuthLoopback
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyNowPlaying
import SpotifyTesting
import SpotifyWebAPI

/// `spotlink-bench`: speed, calls and memory, each measured against the floor the protocol or
/// physics sets, reported as ratios from one run.
@main
struct SpotLinkBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotlink-bench", abstract: "Measure SpotifyLink against its floors (run with -c release).")

    @Flag(help: "A shorter run that finishes in under a minute.")
    var quick = false
    @Flag(help: "One JSON object per metric and line.")
    var json = false
    @Flag(
        help:
            "Exit non-zero when an exact target (a count or a virtual-clock time) is missed or a metric is skipped; machine-dependent misses are reported only."
    )
    var check = false
    @Option(
        help:
            "Run only these groups: fetch, decode, decode-typed, refresh, bulk, now-playing, cards, cold-start, launch, quota, journal, extensions, large-journal, anchors, request-cost, postgres, search-service (repeatable; decode-typed and large-journal only when named)."
    )
    var only: [String] = []
    @Option(help: .private) var ledgerWorker: String?
    @Option(help: .private) var peakOf: String?
    @Option(help: .private) var ledgerTarget: String = ""
    @Option(help: .private) var ledgerCount: Int = 0
    @Option(help: .private) var ledgerKey: String = ""

    func run() async throws {
        if let ledgerWorker {
            guard let kind = Metrics.LedgerKind(rawValue: ledgerWorker) else {
                throw ValidationError("sqlite or postgres")
            }
            return try await Metrics.ledgerWorker(kind, target: ledgerTarget, count: ledgerCount, key: ledgerKey)
        }
        if let peakOf {
            let status = try Metrics.peakOf(peakOf)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let report = Report(json: json)
        func wanted(_ group: String) -> Bool { only.isEmpty || only.contains(group) }
        if wanted("fetch") {
            try await Metrics.clientPeakMemory(report)
            try await Metrics.playlistFetch(report, sequential: true)
        }
        if wanted("decode") { try Metrics.decode(report, iterations: quick ? 200 : 2000) }
        if only.contains("decode-typed") { try Metrics.decodeTyped(report, iterations: quick ? 2000 : 20000) }
        if wanted("refresh") { try await Metrics.refreshSingleFlight(report) }
        if wanted("bulk") { try await Metrics.bulkUnderRateLimit(report, playlists: 50) }
        if wanted("now-playing") {
            try await Metrics.nowPlaying(report, policy: .init(), name: "budgeted")
            try await Metrics.nowPlaying(
                report, policy: .responsive, name: "responsive", callsTarget: .contrast("opt-in: calls bought for lag"))
            try await Metrics.nowPlaying(report, policy: .economical, name: "economical")
        }
        if wanted("cards") { try await Metrics.offlineCards(report, links: 100_000, reads: quick ? 5_000 : 50_000) }
        if wanted("cold-start") { try Metrics.coldStart(report, runs: quick ? 5 : 20) }
        if wanted("launch") { try await Metrics.launch(report, runs: quick ? 20 : 100) }
        if wanted("anchors") {
            try Metrics.decodeVersusPython(report, iterations: quick ? 200 : 2000)
            try await Metrics.fetchVersusSpotipy(report)
        }
        if wanted("quota") {
            try await Metrics.requestsPerUserDay(report)
            try await Metrics.refreshUnchanged(report)
            try await Metrics.quotaCooldown(report)
        }
        if wanted("journal") { try await Metrics.journalBudgets(report) }
        if wanted("extensions") { try await Metrics.extensionsDay(report) }
        if only.contains("large-journal") {
            try await Metrics.largeJournal(report, sessions: quick ? 10_000 : 100_000)
        }
        if wanted("request-cost") { try await Metrics.requestCost(report, quick: quick) }
        if wanted("postgres") { try await Metrics.postgres(report, quick: quick) }
        if wanted("search-service") { try await Metrics.searchService(report, quick: quick) }
        guard report.conclude(check: check) else { throw ExitCode.failure }
    }
}

/// Resident memory high-water mark of this process, in MiB (Linux `/proc/self/status`).
func peakResidentMiB() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kib / 1024
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func elapsedMs(_ start: ContinuousClock.Instant) -> Double { (ContinuousClock.now - start).seconds * 1000 }
