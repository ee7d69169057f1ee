public import Foundation
public import SpotifyWebAPI

/// A routine's listening, summed up in songs: the tracks completed plus the part of the current one.
public struct RoutineListening: Sendable {
    /// The end-of-routine summary.
    public struct Summary: Sendable, Equatable {
        /// Songs heard: whole tracks plus fractions; `nil` when no music played at all.
        public var songs: Double?
        /// Distinct tracks or episodes heard at least in part.
        public var tracksPlayed: Int
        /// Time music was playing during the routine.
        public var timeListened: Duration
    }

    /// The links to open the playlist in Spotify.
    public var webURL: URL
    /// The `spotify:` URI of the playlist.
    public var uri: String
    private var heard: [String: (fraction: Double, time: Duration)] = [:]
    private var order: [String] = []
    private var current: (item: NowPlayingItem, playing: Bool)?

    /// Starts a routine with the playlist linked to it.
    public init(playlist: SpotifyReference) {
        webURL = playlist.webURL
        uri = playlist.uri
    }

    /// Feeds one monitor state observed at `now`.
    public mutating func observe(_ state: NowPlayingState, at now: Date) {
        settle(at: now)
        switch state {
        case .playing(let item): current = (item, true)
        case .paused(let item): current = (item, false)
        default: current = nil
        }
        settle(at: now)
    }

    /// The item playing or paused now, counted from 1 in the order the routine first heard each
    /// ("song 3"); `nil` while nothing is loaded. An item heard again keeps its number.
    public var currentSong: Int? {
        guard let current else { return nil }
        return order.firstIndex(of: current.item.uri).map { $0 + 1 } ?? order.count + 1
    }

    /// Records how far the current item got by `now`.
    private mutating func settle(at now: Date) {
        guard let (item, playing) = current, item.duration > .zero else { return }
        let progress = item.progress(at: now, playing: playing)
        if heard[item.uri] == nil { order.append(item.uri) }
        let fraction = min(1, progress / item.duration)
        let previous = heard[item.uri]
        heard[item.uri] = (max(previous?.fraction ?? 0, fraction), max(previous?.time ?? .zero, progress))
    }

    /// The summary at `now`.
    public func summary(at now: Date) -> Summary {
        var copy = self
        copy.settle(at: now)
        let played = copy.order.filter { (copy.heard[$0]?.time ?? .zero) > .zero }
        guard !played.isEmpty else { return Summary(songs: nil, tracksPlayed: 0, timeListened: .zero) }
        let songs = played.reduce(0.0) { $0 + (copy.heard[$1]?.fraction ?? 0) }
        let time = played.reduce(Duration.zero) { $0 + (copy.heard[$1]?.time ?? .zero) }
        return Summary(songs: songs, tracksPlayed: played.count, timeListened: time)
    }
}
