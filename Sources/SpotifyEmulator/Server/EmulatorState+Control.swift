import Foundation
import SpotifyLinkSupport

/// `/emulator/...`: the control API tests and demos drive the emulator with (not Spotify's).
extension EmulatorState {
    func handleControl(_ request: EmulatorRequest) -> EmulatorResponse {
        let segments = request.path.split(separator: "/").dropFirst().map(String.init)
        let route = "\(request.method) " + segments.joined(separator: "/")
        if request.method == "GET", segments.count == 3, segments[0] == "images" {
            return cover(id: segments[1], file: segments[2])
        }
        if request.method == "POST", segments.count == 2, segments[0] == "player" {
            return playerControl(segments[1], request)
        }
        if request.method == "POST", segments.count == 3, segments[0] == "playlists" {
            return playlistControl(id: segments[1], action: segments[2], request)
        }
        switch route {
        case "GET stats":
            return .json(statistics())
        case "POST stats/reset":
            resetStatistics()
            return .ok
        case "GET clock":
            return .json(.object([("now_ms", .int(Int(now.timeIntervalSince1970 * 1000)))]))
        case "POST clock/advance":
            // A century at most in all: the clock is read as whole milliseconds, which a step of
            // 1e300 seconds (or infinity) would overflow.
            let text = request.parameter("seconds") ?? "0"
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0,
                clockOffset + seconds <= Self.longestClockAdvance
            else {
                return .apiError(
                    400,
                    "seconds must be a number from 0 to \(Int(Self.longestClockAdvance - clockOffset)) "
                        + "(the clock moves at most a century in all).")
            }
            advanceClock(by: seconds)
            return .json(.object([("now_ms", .int(Int(now.timeIntervalSince1970 * 1000)))]))
        case "POST tokens/expire":
            expireAccessTokens()
            return .ok
        case "POST faults":
            guard let kind = request.parameter("kind").flatMap(FaultRule.Kind.init(rawValue:)) else {
                return .apiError(
                    400, "kind must be one of \(FaultRule.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            addFault(
                FaultRule(
                    kind: kind, count: request.integer("count", default: 1), pathPrefix: request.parameter("path"),
                    retryAfter: request.parameter("retry_after")))
            return .ok
        case "POST faults/clear":
            clearFaults()
            return .ok
        case "POST config":
            if let limit = request.parameter("rate_limit") { rateLimit = Int(limit).flatMap { $0 > 0 ? $0 : nil } }
            if let limit = request.parameter("quota") { quota = Int(limit).flatMap { $0 > 0 ? $0 : nil } }
            if let window = request.parameter("quota_window").flatMap(Double.init), window > 0 { quotaWindow = window }
            if let ms = request.parameter("latency_ms").flatMap(Int.init) { latency = .milliseconds(ms) }
            if let rate = request.parameter("server_error_rate").flatMap(Double.init) { serverErrorRate = rate }
            return .ok
        case "GET playlists":
            let list = catalog.allOrder.compactMap { catalog.playlists[$0] }.map { playlist in
                JSONValue.object([
                    ("id", .string(playlist.id)), ("name", .string(playlist.name)),
                    ("entries", .int(playlist.entries.count)),
                    ("owner", .string(playlist.ownerID)), ("in_library", .bool(playlist.inLibrary)),
                    ("deleted", .bool(playlist.deleted)),
                ])
            }
            return .json(.array(list))
        default:
            return .apiError(404, "Unknown emulator control")
        }
    }

    private func playerControl(_ action: String, _ request: EmulatorRequest) -> EmulatorResponse {
        switch action {
        case "play":
            let started = play(
                contextURI: request.parameter("context_uri"), itemURI: request.parameter("uri"),
                offset: request.integer("offset"), positionMs: request.integer("position_ms"))
            return started ? .ok : .apiError(404, "Nothing playable for that context or URI")
        case "pause": pause()
        case "resume": resume()
        case "next": skip()
        case "seek": seek(toMs: request.integer("position_ms"))
        case "stop": stopPlayback()
        case "ad": playAd(seconds: request.integer("seconds", default: 30))
        default: return .apiError(404, "Unknown player action")
        }
        return .ok
    }

    private func playlistControl(id: String, action: String, _ request: EmulatorRequest) -> EmulatorResponse {
        guard catalog.playlists[id] != nil else { return .apiError(404, "Resource not found") }
        switch action {
        case "rename": catalog.playlists[id]?.name = request.parameter("name") ?? "Renamed"
        case "delete": catalog.playlists[id]?.deleted = true
        case "forbid": catalog.playlists[id]?.forbidden = true
        case "restore":
            catalog.playlists[id]?.deleted = false
            catalog.playlists[id]?.forbidden = false
        case "add-track":
            var song = CatalogItem(
                kind: .track, id: random.base62ID(), name: request.parameter("name") ?? "New Song",
                durationMs: request.integer("duration_ms", default: 180_000), artist: "Emulator", album: "Emulator",
                albumID: catalog.albums.values.first { $0.name == "Emulator" }?.id ?? random.base62ID())
            song.explicit = request.parameter("explicit") == "true"
            catalog.playlists[id]?.entries.append(song)
            catalog.register(song)
        default: return .apiError(404, "Unknown playlist action")
        }
        catalog.playlists[id]?.revision += 1
        return .ok
    }

    /// The image of a playlist (its cover, which changes with it), an album, a show, an episode or
    /// the user, at one of the sizes Spotify serves.
    private func cover(id: String, file: String) -> EmulatorResponse {
        let revision: Int?
        if let playlist = catalog.playlists[id] {
            revision = playlist.hasCover ? playlist.revision : nil
        } else {
            let known =
                catalog.albums[id] != nil || catalog.shows[id] != nil || catalog.episodes[id] != nil
                || id == catalog.userID
            revision = known ? 1 : nil
        }
        guard let revision, file.hasSuffix(".png"), let size = Int(file.dropLast(4)),
            [60, 64, 300, 640].contains(size)
        else { return EmulatorResponse(status: 404, headers: [], body: Data()) }
        let key = "\(id)/\(size)/\(revision)"
        let bytes =
            configuration.placeholderImages
            ? PNG.placeholder(width: size, height: size)
            : coverCache[key]
                ?? {
                    let seed = UInt64(id.utf8.reduce(0) { ($0 &* 31) &+ Int($1) }.magnitude)
                    let color = UInt32(truncatingIfNeeded: seed) & 0xFFFFFF
                    return PNG.image(width: size, height: size, colors: (color, ~color & 0xFFFFFF), seed: seed)
                }()
        coverCache[key] = bytes
        return EmulatorResponse(
            status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=86400")], body: bytes)
    }
}

extension EmulatorResponse {
    static let ok = EmulatorResponse.json(.object([("ok", .bool(true))]))
}

extension EmulatorRequest {
    func integer(_ name: String, default fallback: Int = 0) -> Int { parameter(name).flatMap { Int($0) } ?? fallback }
}
