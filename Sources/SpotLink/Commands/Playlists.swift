import ArgumentParser
import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyWebAPI

/// A signed-in client, or exit 3 with the fix.
func signedIn(_ context: Context) async throws -> (SpotifySession, SpotifyClient) {
    let spotify = try context.services()
    guard try await spotify.session.tokens() != nil else {
        throw CLIFailure("Not signed in to \(context.server.issuer). Run 'spotlink login' first.", exitCode: 3)
    }
    return (spotify.session, spotify.client)
}

struct Playlists: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your playlists (cached for the picker).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only playlists whose name matches (case- and accent-insensitive).")
    var filter: String?

    func run() async throws {
        let context = try Context(global)
        let (session, client) = try await signedIn(context)
        let links = try context.links()
        // Spotify out of reach: the list saved by the last listing, said so (the picker's copy).
        var offline = false
        var unavailable = 0
        do {
            let library = try await client.allMyPlaylists()
            try await links.replaceLibrary(library.items, userID: try await session.tokens()?.account?.userID)
            // Spotify lists a playlist it no longer serves as `null`: skipped, and said.
            unavailable = library.nullCount + library.undecodableCount
        } catch  where CLIFailure.isUnreachable(error) {
            guard try await !links.library().isEmpty else { throw error }
            offline = true
        }
        let shown = try await links.filterLibrary(filter ?? "")
        if global.json {
            Output.json(
                LibraryJSON(
                    playlists: shown.map {
                        LibraryJSON.Playlist(
                            id: $0.id.rawValue, name: $0.name, tracks: $0.trackCount, owner: $0.ownerName,
                            access: $0.access?.rawValue)
                    },
                    unavailable: unavailable, offline: offline))
            return
        }
        if offline {
            Output.line(Output.dim("Spotify can't be reached; showing the playlists saved when it last listed them."))
        }
        defer {
            if unavailable > 0 {
                Output.line(
                    Output.dim(
                        "\(Output.count(unavailable, "playlist")) in your library \(unavailable == 1 ? "is" : "are") "
                            + "no longer available on Spotify and \(unavailable == 1 ? "was" : "were") skipped."))
            }
        }
        for playlist in shown {
            let count = playlist.trackCount.map { Output.count($0, "track") } ?? "? tracks"
            let access = Output.accessMark(playlist.access).map { " · \($0)" } ?? ""
            Output.line(
                "\(playlist.id.rawValue)  \(Output.bold(TerminalText(playlist.name)))  \(Output.dim("\(count) · \(TerminalText(playlist.ownerName ?? ""))\(access)"))"
            )
        }
        if shown.isEmpty { Output.line(filter == nil ? "You have no playlists." : "No playlists match '\(filter!)'.") }
    }
}

extension PlaylistCommand.Show {
    /// Before a read of ten requests or more: what it sends, beside what was sent in the last 24
    /// hours and the limit learned from Spotify's refusals (on stderr, so `--json` stays whole).
    static func sayWhatItCosts(_ client: SpotifyClient, entries: Int) async throws {
        let cost = try await client.estimatedCost(of: .readPlaylist(entries: entries))
        guard cost.requests.upperBound >= 10 else { return }
        var text =
            "Reading all \(Output.count(entries, "entry", plural: "entries")) sends "
            + "\(Output.count(cost.requests.upperBound, "request")) to Spotify "
            + "(\(cost.spentToday) sent in the last 24 hours)."
        if let learned = cost.learned {
            text +=
                cost.fitsLearnedLimit == false
                ? " That passes the \(learned.limit) a day at which Spotify refused this app before: "
                    + "it may be refused for hours."
                : " Spotify refused this app after \(learned.limit) in a day before."
        }
        Output.note(Output.dim(TerminalText(text)))
    }
}

struct PlaylistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist", abstract: "Inspect one playlist.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Details and entries of a playlist (ID, URI or link).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A playlist ID, spotify: URI or open.spotify.com link.")
        var playlist: String

        func run() async throws {
            let context = try Context(global)
            let reference = try SpotifyReference(parsing: playlist, expecting: .playlist)
            let (_, client) = try await signedIn(context)
            let details = try await client.playlist(reference.id)
            var entries: PagedCollection<PlaylistEntry>?
            if details.items != nil {
                let json = global.json
                try await Self.sayWhatItCosts(client, entries: details.itemCount ?? 0)
                entries = try await client.allPlaylistEntries(reference.id) { progress in
                    if !json { Output.progress("Reading entries", progress.fetched, progress.total) }
                }
            }
            let items = entries?.items ?? []
            let duration = items.compactMap(\.item.duration).reduce(Duration.zero, +)
            if global.json {
                Output.json(
                    PlaylistJSON(
                        id: reference.id.rawValue, name: details.name, owner: details.summary.owner?.displayName,
                        tracks: details.itemCount,
                        durationMs: entries == nil ? nil : Int(clamping: duration.clampedMilliseconds),
                        uri: reference.uri, link: reference.webURL.absoluteString,
                        // Every entry: a script must not get a silently shortened list.
                        entries: items.map {
                            PlaylistJSON.Entry(
                                name: $0.item.name,
                                durationMs: $0.item.duration.map { Int(clamping: $0.clampedMilliseconds) })
                        }))
                return
            }
            Output.line(
                Output.bold(TerminalText(details.name))
                    + "  by \(TerminalText(details.summary.owner?.displayName ?? "?"))")
            Output.line(
                "\(details.itemCount.map { Output.count($0, "entry", plural: "entries") } ?? "unknown entries") · \(entries == nil ? "duration unknown (Spotify shows entries only to owners and collaborators)" : Output.duration(duration))"
            )
            Output.line("\(reference.uri)  \(reference.webURL.absoluteString)")
            for (index, entry) in items.prefix(20).enumerated() {
                Output.line(
                    "\(String(format: "%3d", index + 1))  \(entry.item.name ?? "(unavailable)")  "
                        + Output.dim("\(Output.duration(entry.item.duration))"))
            }
            if items.count > 20 { Output.line(Output.dim("… and \(items.count - 20) more")) }
        }
    }
}

/// `playlists --json`.
private struct LibraryJSON: Encodable {
    /// A playlist of the library.
    struct Playlist: Encodable {
        let id: String
        let name: String
        @Nullable var tracks: Int?
        @Nullable var owner: String?
        @Nullable var access: String?
    }

    let playlists: [Playlist]
    let unavailable: Int
    /// Whether Spotify could not be reached, and the list is the one saved by the last listing.
    let offline: Bool
}

/// `playlist show --json`: the details, and with the entries read, each entry.
private struct PlaylistJSON: Encodable {
    /// An entry: its name and length, `null` where Spotify gives none.
    struct Entry: Encodable {
        @Nullable var name: String?
        @Nullable var durationMs: Int?

        enum CodingKeys: String, CodingKey {
            case name
            case durationMs = "duration_ms"
        }
    }

    let id: String
    let name: String
    @Nullable var owner: String?
    @Nullable var tracks: Int?
    @Nullable var durationMs: Int?
    let uri: String
    let link: String
    let entries: [Entry]

    enum CodingKeys: String, CodingKey {
        case id, name, owner, tracks, uri, link, entries
        case durationMs = "duration_ms"
    }
}
