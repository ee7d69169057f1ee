import Foundation

/// The virtual player of the signed-in user: a timeline on the emulator's clock.
struct PlayerState: Sendable {
    var queue: [CatalogItem] = []
    var contextURI: String?
    var index = 0
    /// When position 0 of the current item was (or would have been) while playing, in ms since 1970.
    /// The timeline counts whole milliseconds so that track boundaries land exactly.
    var itemStartedMs: Int64 = 0
    /// Position of the current item while paused.
    var pausedProgressMs = 0
    var isPlaying = false
    /// An advertisement playing now, and when it ends (ms since 1970).
    var adEndsMs: Int64?
    var adDurationMs: Int64 = 0

    var current: CatalogItem? { queue.indices.contains(index) ? queue[index] : nil }
}

extension EmulatorState {
    var nowMs: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded()) }

    /// Moves the timeline to now: ends ads, and walks over every item that finished.
    func settlePlayer() {
        let now = nowMs
        if let adEnds = player.adEndsMs {
            guard now >= adEnds else { return }
            player.adEndsMs = nil
            player.itemStartedMs += player.adDurationMs
        }
        guard player.isPlaying else { return }
        while let item = player.current, now - player.itemStartedMs >= Int64(item.durationMs) {
            player.itemStartedMs += Int64(item.durationMs)
            player.index += 1
        }
        if player.current == nil { player = PlayerState() }
    }

    private func progressMs() -> Int {
        if player.adEndsMs != nil || !player.isPlaying { return player.pausedProgressMs }
        return Int(max(0, nowMs - player.itemStartedMs))
    }

    /// Starts a playlist context at `offset` (entries without a playable item are skipped), or a
    /// single item by URI.
    package func play(contextURI: String?, itemURI: String?, offset: Int, positionMs: Int) -> Bool {
        var queue: [CatalogItem] = []
        var context: String?
        if let contextURI, contextURI.hasPrefix("spotify:playlist:"),
            let playlist = catalog.playlists[String(contextURI.dropFirst("spotify:playlist:".count))]
        {
            queue = Array(playlist.entries.dropFirst(max(0, offset)).compactMap { $0 }.filter { $0.kind != .local })
            context = contextURI
        } else if let itemURI {
            let all = catalog.playlists.values.flatMap { $0.entries.compactMap { $0 } }
            queue = all.first { $0.uri == itemURI }.map { [$0] } ?? []
        }
        guard !queue.isEmpty else { return false }
        player = PlayerState(queue: queue, contextURI: context)
        player.isPlaying = true
        player.itemStartedMs = nowMs - Int64(positionMs)
        return true
    }

    package func pause() {
        settlePlayer()
        guard player.isPlaying else { return }
        player.pausedProgressMs = progressMs()
        player.isPlaying = false
    }

    package func resume() {
        settlePlayer()
        guard !player.isPlaying, player.current != nil else { return }
        player.isPlaying = true
        player.itemStartedMs = nowMs - Int64(player.pausedProgressMs)
    }

    package func skip() {
        settlePlayer()
        guard player.current != nil else { return }
        player.index += 1
        player.itemStartedMs = nowMs
        player.pausedProgressMs = 0
        if player.current == nil { player = PlayerState() }
    }

    package func seek(toMs position: Int) {
        settlePlayer()
        if player.isPlaying {
            player.itemStartedMs = nowMs - Int64(position)
        } else {
            player.pausedProgressMs = position
        }
    }

    package func stopPlayback() {
        player = PlayerState()
    }

    /// Plays an advertisement of `seconds` now; the track resumes where it was afterwards.
    package func playAd(seconds: Int) {
        settlePlayer()
        guard player.isPlaying, player.current != nil else { return }
        player.pausedProgressMs = progressMs()
        player.adEndsMs = nowMs + Int64(seconds) * 1000
        player.adDurationMs = Int64(seconds) * 1000
    }

    func currentlyPlayingJSON(episodes: Bool, full: Bool) -> JSONValue? {
        settlePlayer()
        guard let item = player.current else { return nil }
        let isAd = player.adEndsMs != nil
        let type = isAd ? "ad" : (item.kind == .episode ? "episode" : "track")
        var itemValue: JSONValue = .null
        if !isAd, item.kind != .episode || episodes {
            itemValue = renderer.itemJSON(item, episodes: episodes, in: .player)
        }
        let contextID = player.contextURI.map { String($0.split(separator: ":").last ?? "") }
        let context: JSONValue =
            player.contextURI.map { uri in
                .object([
                    (
                        "external_urls",
                        .object([("spotify", .string("https://open.spotify.com/playlist/\(contextID ?? "")"))])
                    ),
                    ("href", .string("\(baseURL)/v1/playlists/\(contextID ?? "")")),
                    ("type", .string("playlist")),
                    ("uri", .string(uri)),
                ])
            } ?? .null
        var fields: [(String, JSONValue)] = []
        if full {
            fields += [
                (
                    "device",
                    .object([
                        ("id", .string("emulator-device")), ("is_active", .bool(true)),
                        ("is_private_session", .bool(false)),
                        ("is_restricted", .bool(false)), ("name", .string("Emulator Speaker")),
                        ("supports_volume", .bool(true)),
                        ("type", .string("Computer")), ("volume_percent", .int(60)),
                    ])
                ),
                ("shuffle_state", .bool(false)), ("smart_shuffle", .bool(false)), ("repeat_state", .string("off")),
            ]
        }
        let adProgress = player.adEndsMs.map { Int(nowMs - ($0 - player.adDurationMs)) }
        fields += [
            ("timestamp", .int(Int(nowMs))),
            ("context", context),
            ("progress_ms", .int(adProgress ?? progressMs())),
            ("item", itemValue),
            ("currently_playing_type", .string(type)),
            ("actions", .object([("disallows", .object([("resuming", .bool(player.isPlaying))]))])),
            ("is_playing", .bool(player.isPlaying)),
        ]
        return .object(fields)
    }
}
