import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI

/// The same work measured against the anchors in the same run: Python's `json.loads` on the
/// same bytes, and spotipy walking `next` against the same emulator.
extension Metrics {
    /// Runs `python3` with `arguments`; the last line of its stdout, or `nil` with the reason.
    static func python(_ arguments: [String]) -> (output: String?, reason: String?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        do { try process.run() } catch { return (nil, "python3 could not be started: \(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            return (nil, text.split(separator: "\n").last.map(String.init) ?? "python3 failed")
        }
        return (text.split(separator: "\n").last.map(String.init), nil)
    }

    /// Typed decoding of a 50-entry items page, as the client decodes it, against `json.loads` on
    /// the identical bytes.
    static func decodeVersusPython(_ report: Report, iterations: Int) throws {
        let page = try pageBytes()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-page-\(UUID().uuidString).json")
        try page.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for _ in 0..<20 { _ = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: page) }
        let start = ContinuousClock.now
        for _ in 0..<iterations { _ = try decodeSpotifyResponse(Page<PlaylistEntry>.self, from: page) }
        let ours = Double(page.count * iterations) / 1_048_576 / (ContinuousClock.now - start).seconds
        let script = """
            import json, sys, time
            data = open(sys.argv[1], 'rb').read()
            n = int(sys.argv[2])
            for _ in range(20): json.loads(data)
            t = time.perf_counter()
            for _ in range(n): json.loads(data)
            print(len(data) * n / 1048576 / (time.perf_counter() - t))
            """
        let (output, reason) = python(["-c", script, file.path, "\(iterations)"])
        guard let output, let theirs = Double(output) else {
            report.metric(
                "decode_vs_python", 0, "ratio", floor: nil, target: .machine(.atLeast(2)),
                extra: ["skipped": reason ?? "no answer", "ours_mb_s": ours.rounded()])
            return
        }
        report.metric(
            "decode_vs_python", ours / theirs, "ratio", floor: 1, target: .machine(.atLeast(2)),
            extra: [
                "ours_mb_s": (ours * 10).rounded() / 10, "python_mb_s": (theirs * 10).rounded() / 10,
                "bytes": page.count,
            ])
    }

    /// The 10,000-entry playlist at 40 ms latency: ours (adaptive concurrency) against spotipy 2.26
    /// walking `next`, in the same run against the same emulator.
    static func fetchVersusSpotipy(_ report: Report) async throws {
        var configuration = EmulatorConfiguration()
        configuration.latency = .milliseconds(40)
        let emulator = try await EmulatorServer.start(configuration)
        defer { Task { await emulator.stop() } }
        let id = await emulator.playlists().first { $0.entries == 10_000 }!.id
        let api = await client(emulator)
        let start = ContinuousClock.now
        let ours = try await api.allPlaylistEntries(try SpotifyID(id))
        let oursMs = elapsedMs(start)
        let floor = Double(adaptiveRounds(pages: ours.pageCount, initial: 4, maximum: 8)) * 40
        report.metric(
            "fetch_10k_adaptive", oursMs, "ms", floor: floor, target: .machine(.atMost(1.2), onRatio: true),
            extra: ["peak_concurrency": ours.peakConcurrency, "pages": ours.pageCount])
        let token = await emulator.issueAccessToken()
        let script = """
            import sys, time
            import spotipy
            sp = spotipy.Spotify(auth=sys.argv[2], retries=0)
            sp.prefix = sys.argv[1] + "/v1/"
            t = time.perf_counter()
            page = sp.playlist_items(sys.argv[3], limit=50, additional_types=("track", "episode"))
            count = len(page["items"])
            while page["next"]:
                page = sp.next(page)
                count += len(page["items"])
            assert count == 10000, count
            from importlib.metadata import version
            print((time.perf_counter() - t) * 1000, version("spotipy"))
            """
        let (output, reason) = python(["-c", script, emulator.baseURL.absoluteString, token, id])
        let answer = output?.split(separator: " ")
        guard let answer, answer.count == 2, let theirs = Double(answer[0]) else {
            let missing = reason?.contains("No module named 'spotipy'") == true
            report.metric(
                "fetch_vs_spotipy", 0, "x faster", floor: nil, target: .machine(.atLeast(7)),
                extra: [
                    "skipped": missing
                        ? "spotipy is not installed for python3: python3 -m pip install spotipy==2.26.0"
                        : reason ?? "no answer from python3"
                ])
            return
        }
        report.metric(
            "fetch_vs_spotipy", theirs / oursMs, "x faster", floor: nil, target: .machine(.atLeast(7)),
            extra: ["spotipy_ms": theirs.rounded(), "ours_ms": oursMs.rounded(), "spotipy": String(answer[1])])
    }

    /// Round trips the adaptive schedule needs for `pages` pages of equal latency: the first page,
    /// then waves whose width grows as ``PageConcurrency`` allows.
    static func adaptiveRounds(pages: Int, initial: Int, maximum: Int) -> Int {
        var allowed = PageConcurrency(initial: initial, maximum: maximum)
        // Event simulation: every request takes one unit; completions in a unit are processed together.
        var remaining = pages - 1
        var inFlight: [Int] = []  // completion times
        var time = 0
        while remaining > 0 || !inFlight.isEmpty {
            while inFlight.count < allowed.current, remaining > 0 {
                inFlight.append(time + 1)
                remaining -= 1
            }
            time = inFlight.min() ?? time
            let done = inFlight.filter { $0 == time }.count
            inFlight.removeAll { $0 == time }
            for _ in 0..<done { allowed.answered(rateLimited: false) }
        }
        return 1 + time
    }
}
