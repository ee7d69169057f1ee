import ArgumentParser
import Foundation
import PlaylistLinks
import SpotifyAuth
import SpotifyLinkSupport
import SpotifyWebAPI

/// What can be searched for.
enum SearchType: String, ExpressibleByArgument, CaseIterable {
    case playlist, track
}

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search Spotify for playlists or tracks (any language: Japanese, accents …).",
        discussion: """
            --app-only searches without a user, with the app's client credentials: the client ID from \
            SPOTIFY_CLIENT_ID (or --client-id) and the secret from SPOTIFY_CLIENT_SECRET. For servers and \
            tools only: a client secret must never ship inside an app.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument var query: String
    @Option(help: "What to search for: playlist (default) or track.")
    var type: SearchType = .playlist
    @Option(help: "Results per page, 1–10 (Spotify's 2026 maximum).")
    var limit = 10
    @Option(help: "Skip this many results.")
    var offset = 0
    @Flag(help: "Search without a user, with the app's client credentials (SPOTIFY_CLIENT_SECRET).")
    var appOnly = false

    func run() async throws {
        let context = try Context(global)
        let session = appOnly ? nil : try await signedIn(context)
        let client = try session?.1 ?? context.appOnlyClient()
        // What the app can read of each playlist found, marked as `playlists` marks the library.
        let userID = try await session?.0.tokens()?.account?.userID
        let next: (Bool) -> Int? = { hasNext in hasNext ? offset + limit : nil }
        switch type {
        case .playlist:
            let page = try await client.searchPlaylists(query, limit: limit, offset: offset)
            if global.json {
                Output.json(
                    SearchJSON(
                        total: page.total, droppedNull: page.nullCount, nextOffset: next(page.next != nil),
                        playlists: page.items.map {
                            SearchJSON.Playlist(
                                id: $0.id.rawValue, name: $0.name, owner: $0.owner?.displayName, tracks: $0.itemCount,
                                access: PlaylistAccess($0, userID: userID)?.rawValue)
                        }))
                return
            }
            for playlist in page.items {
                let count = playlist.itemCount.map { " · " + Output.count($0, "track") } ?? ""
                let access = Output.accessMark(PlaylistAccess(playlist, userID: userID)).map { " · \($0)" } ?? ""
                Output.line(
                    "\(playlist.id.rawValue)  \(Output.bold(TerminalText(playlist.name)))  "
                        + Output.dim("\(TerminalText(playlist.owner?.displayName ?? ""))\(count)\(access)"))
            }
            if page.items.isEmpty { Output.line("No playlists match '\(TerminalText(query))'.") }
            if page.next != nil { Output.line(Output.dim("More: --offset \(offset + limit)")) }
        case .track:
            let page = try await client.searchTracks(query, limit: limit, offset: offset)
            if global.json {
                Output.json(
                    SearchJSON(
                        total: page.total, droppedNull: page.nullCount, nextOffset: next(page.next != nil),
                        tracks: page.items.map(TrackJSON.init)))
                return
            }
            page.items.forEach(TrackPrinter.line)
            if page.items.isEmpty { Output.line("No tracks match '\(TerminalText(query))'.") }
            if page.next != nil { Output.line(Output.dim("More: --offset \(offset + limit)")) }
        }
    }
}

struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track", abstract: "Inspect one track.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A track's details and where to open it (ID, URI or link).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A track ID, spotify: URI or open.spotify.com link.")
        var track: String

        func run() async throws {
            let context = try Context(global)
            let reference = try SpotifyReference(parsing: track, expecting: .track)
            let (_, client) = try await signedIn(context)
            let details = try await client.track(reference.id)
            if global.json {
                Output.json(TrackJSON(details))
                return
            }
            Output.line(Output.bold(TerminalText(details.name)) + "  by " + TerminalText(details.artistLine))
            if let album = details.album { Output.line("Album: \(album.name)") }
            Output.line("Length: \(Output.clock(details.duration))")
            Output.line("Open in Spotify: \(reference.webURL.absoluteString)  (\(reference.uri))")
            Output.line(
                Output.dim("No preview: Spotify sends none to apps created after November 2024; open it in Spotify."))
        }
    }
}

struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Your Spotify profile.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = try Context(global)
        let (session, client) = try await signedIn(context)
        let user = try await client.currentUser()
        try await session.remember(user)
        let image = SpotifyImage.best(in: user.images)?.url.absoluteString
        if global.json {
            Output.json(
                ProfileJSON(
                    id: user.id, accountID: user.accountID, displayName: user.displayName, image: image,
                    link: user.webURL?.absoluteString))
            return
        }
        Output.line(Output.bold(TerminalText(user.name)) + "  (\(TerminalText(user.id)))")
        if let accountID = user.accountID { Output.line("Account: \(TerminalText(accountID))") }
        if let image { Output.line("Picture: \(image)") }
        if let link = user.webURL { Output.line("Profile: \(link.absoluteString)") }
    }
}

struct Library: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Your saved music.", subcommands: [Tracks.self])

    struct Tracks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Your saved tracks, newest first (needs the user-library-read scope: spotlink login --scope user-library-read)."
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: "Tracks per page, 1–50.")
        var limit = 20
        @Option(help: "Skip this many tracks.")
        var offset = 0

        func run() async throws {
            let context = try Context(global)
            let (_, client) = try await signedIn(context)
            let page = try await client.savedTracks(limit: limit, offset: offset)
            if global.json {
                Output.json(
                    SavedTracksJSON(
                        total: page.total, nextOffset: page.next == nil ? nil : offset + limit,
                        tracks: page.items.map { saved in
                            TrackJSON(
                                saved.track,
                                addedAt: Nullable(
                                    wrappedValue: saved.addedAt.map { ISO8601DateFormatter().string(from: $0) }))
                        }))
                return
            }
            Output.line("\(Output.count(page.total ?? page.items.count, "saved track"))")
            page.items.map(\.track).forEach(TrackPrinter.line)
            if page.next != nil { Output.line(Output.dim("More: --offset \(offset + limit)")) }
        }
    }
}

/// The periods `top` looks at.
enum TopRange: String, ExpressibleByArgument, CaseIterable {
    case short, medium, long

    var value: TopItemsRange {
        switch self {
        case .short: .shortTerm
        case .medium: .mediumTerm
        case .long: .longTerm
        }
    }
}

struct Top: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Your most played tracks or artists (needs the user-top-read scope: spotlink login --scope user-top-read).")
    enum Kind: String, ExpressibleByArgument, CaseIterable { case tracks, artists }
    @OptionGroup var global: GlobalOptions
    @Argument(help: "tracks or artists")
    var kind: Kind
    @Option(help: "short (about 4 weeks), medium (about 6 months) or long (about a year).")
    var range: TopRange = .medium
    @Option(help: "How many, 1–50.")
    var limit = 10

    func run() async throws {
        let context = try Context(global)
        let (_, client) = try await signedIn(context)
        switch kind {
        case .tracks:
            let page = try await client.topTracks(range: range.value, limit: limit)
            if global.json {
                Output.json(TopJSON(range: range.value.rawValue, tracks: page.items.map(TrackJSON.init)))
                return
            }
            for (index, track) in page.items.enumerated() { TrackPrinter.line(track, rank: index + 1) }
        case .artists:
            let page = try await client.topArtists(range: range.value, limit: limit)
            if global.json {
                Output.json(
                    TopJSON(
                        range: range.value.rawValue,
                        artists: page.items.map {
                            TopJSON.Artist(
                                id: $0.id.rawValue, name: $0.name, genres: $0.genres, link: $0.webURL?.absoluteString)
                        }))
                return
            }
            for (index, artist) in page.items.enumerated() {
                Output.line(
                    "\(String(format: "%2d", index + 1))  \(Output.bold("\(artist.name)"))  "
                        + Output.dim("\(artist.genres.joined(separator: ", "))"))
            }
        }
    }
}

/// Tracks as lines for people and objects for programs.
enum TrackPrinter {
    static func line(_ track: Track) { line(track, rank: nil) }

    static func line(_ track: Track, rank: Int?) {
        let prefix = rank.map { String(format: "%2d  ", $0) } ?? "\(track.id?.rawValue ?? "(local)")  "
        Output.line(
            "\(prefix)\(Output.bold("\(track.name)"))  "
                + Output.dim("\(track.artistLine) · \(Output.clock(track.duration))"))
    }
}

extension Context {
    /// A client with an app-only token (client credentials): search and catalog calls, no user.
    func appOnlyClient() throws -> SpotifyClient {
        guard let secret = ProcessInfo.processInfo.environment["SPOTIFY_CLIENT_SECRET"], !secret.isEmpty else {
            throw CLIFailure(
                "--app-only needs the app's client secret in SPOTIFY_CLIENT_SECRET (from the developer dashboard). "
                    + "Keep it on servers and tools: never ship it inside an app.",
                exitCode: 2)
        }
        let endpoint = TokenEndpoint(server: server, clientID: clientID, clock: Context.wallClock)
        let provider = ClientCredentialsProvider(
            endpoint: endpoint, secret: ClientSecret(secret), clock: Context.wallClock)
        var configuration = SpotifyClient.Configuration(apiBaseURL: server.apiBaseURL)
        configuration.maxRateLimitWait = .seconds(30)
        return SpotifyClient(
            configuration: configuration, tokens: provider, clock: Context.wallClock, logger: logger,
            ledger: try openLedger())
    }
}

/// A track in `--json`; in the saved tracks, with when it was saved.
struct TrackJSON: Encodable {
    @Nullable var id: String?
    let name: String
    let artists: [String]
    @Nullable var album: String?
    let durationMs: Int
    @Nullable var uri: String?
    @Nullable var link: String?
    @Nullable var previewURL: String?
    /// Only in the saved tracks: `null` there when Spotify gives no date.
    let addedAt: Nullable<String>?

    init(_ track: Track) { self.init(track, addedAt: nil) }

    init(_ track: Track, addedAt: Nullable<String>?) {
        id = track.id?.rawValue
        name = track.name
        artists = track.artists.map(\.name)
        album = track.album?.name
        durationMs = Int(clamping: track.duration.clampedMilliseconds)
        uri = track.reference?.uri
        link = track.reference?.webURL.absoluteString
        previewURL = track.previewURL?.absoluteString
        self.addedAt = addedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, artists, album, uri, link
        case durationMs = "duration_ms", previewURL = "preview_url", addedAt = "added_at"
    }
}

/// `search --json`: a page of playlists or of tracks.
private struct SearchJSON: Encodable {
    /// A playlist found.
    struct Playlist: Encodable {
        let id: String
        let name: String
        @Nullable var owner: String?
        @Nullable var tracks: Int?
        /// What the app can read of it, as `playlists --json` says: `complete`, `detailsOnly`,
        /// `openOnly`; `null` when it cannot be told (searched without a user).
        @Nullable var access: String?
    }

    @Nullable var total: Int?
    let droppedNull: Int
    @Nullable var nextOffset: Int?
    var playlists: [Playlist]?
    var tracks: [TrackJSON]?

    enum CodingKeys: String, CodingKey {
        case total, playlists, tracks
        case droppedNull = "dropped_null", nextOffset = "next_offset"
    }
}

/// `me --json`.
private struct ProfileJSON: Encodable {
    let id: String
    @Nullable var accountID: String?
    @Nullable var displayName: String?
    @Nullable var image: String?
    @Nullable var link: String?

    enum CodingKeys: String, CodingKey {
        case id, image, link
        case accountID = "account_id", displayName = "display_name"
    }
}

/// `library tracks --json`.
private struct SavedTracksJSON: Encodable {
    @Nullable var total: Int?
    @Nullable var nextOffset: Int?
    let tracks: [TrackJSON]

    enum CodingKeys: String, CodingKey {
        case total, tracks
        case nextOffset = "next_offset"
    }
}

/// `top --json`: tracks or artists.
private struct TopJSON: Encodable {
    /// An artist.
    struct Artist: Encodable {
        let id: String
        let name: String
        let genres: [String]
        @Nullable var link: String?
    }

    let range: String
    var tracks: [TrackJSON]?
    var artists: [Artist]?
}
