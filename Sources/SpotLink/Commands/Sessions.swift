import ArgumentParser
import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyWebAPI

struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "A small session journal with playlists attached.",
        subcommands: [New.self, List.self, Show.self, Attach.self, Detach.self, Delete.self])

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a session.")
        @OptionGroup var global: GlobalOptions
        @Argument var title: String
        /// A session lasts at most a day: longer is a typo, and a number near `Int.max` overflowed
        /// every later reading of it.
        static let longest = 24 * 60

        @Option(parsing: .unconditional, help: "Planned length in minutes (1 to 1440).")
        var minutes: Int?

        func validate() throws {
            guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("A session needs a title.")
            }
            if let minutes, !(1...Self.longest).contains(minutes) {
                throw ValidationError(
                    "--minutes is the session's planned length, from 1 to \(Self.longest) (a day); \(minutes) is not.")
            }
        }

        func run() async throws {
            let context = try Context(global, requireClientID: false)
            let entry = try context.journal().create(title: title, minutes: minutes, at: Date())
            if global.json {
                Output.json(SessionJSON(entry))
            } else {
                Output.line("Created session \(entry.id): \(entry.title)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List sessions.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try Context(global, requireClientID: false)
            let journal = try context.journal()
            let entries = try journal.all()
            // The details past their retention are dropped first, as an app's card drops them; then
            // every card is read at once (the list shows no cover).
            let now = Context.wallClock.now
            let retention = RetentionPolicy.default
            let cards = try await journal.store.cardsWithoutCovers(
                in: "session", detailsSavedBefore: now.addingTimeInterval(-retention.detailsKeptFor.seconds),
                coversShownBefore: now.addingTimeInterval(-retention.coverUnusedFor.seconds), at: now)
            let rows = entries.map { ($0, cards[$0.record.id]) }
            if global.json {
                Output.json(["sessions": rows.map { SessionRowJSON($0, playlist: $1) }])
                return
            }
            for (entry, card) in rows {
                let playlist: TerminalText =
                    card.map { "♫ \($0.metadata.name ?? $0.metadata.id.rawValue)" } ?? Output.dim("no playlist")
                Output.line(
                    "\(entry.id)  \(Output.bold("\(entry.title)"))  \(entry.minutes.map { "\($0) min" } ?? "")  \(playlist)"
                )
            }
            if entries.isEmpty { Output.line("No sessions yet. Create one with 'spotlink session new TITLE'.") }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a session and its playlist card (works offline).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: String

        func run() async throws {
            let (_, links, entry) = try Journal.open(global, session: id)
            let card = try await links.card(for: entry.record, retention: .default, at: Context.wallClock.now)
            CardPrinter.print(entry: entry, card: card, json: global.json)
        }
    }

    struct Attach: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Attach a playlist (link, URI or ID) to a session.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: String
        @Argument(help: "A playlist link, spotify: URI or ID.")
        var playlist: String?
        @Flag(help: "Choose from your playlists interactively, filtering by name.")
        var pick = false

        func validate() throws {
            switch (playlist, pick) {
            case (nil, false): throw ValidationError("Name a playlist (link, URI or ID), or use --pick.")
            case (_?, true): throw ValidationError("Name a playlist or use --pick, not both.")
            case (let playlist?, false): _ = try Self.parse(playlist)
            case (nil, true): break
            }
        }

        /// `text` as a playlist reference; a usage error that says why when it is not one.
        static func parse(_ text: String) throws -> SpotifyReference {
            do { return try SpotifyReference(parsing: text, expecting: .playlist) } catch {
                throw ValidationError(CLIFailure(error).message)
            }
        }

        func run() async throws {
            let (context, links, entry) = try Journal.open(global, session: id)
            let playlistID: SpotifyID
            if let playlist {
                playlistID = try Self.parse(playlist).id
                try await links.link(entry.record, to: playlistID)
            } else {
                // What the list showed (name, owner, count, cover, what the app can read) is the
                // card's at once, offline too, as the app's picker keeps it.
                let chosen = try await Picker.choose(from: links)
                playlistID = chosen.id
                try await links.link(entry.record, to: chosen)
            }
            // Fill in the card now when signed in; the link is saved either way.
            var refreshed = false
            var outcome: MetadataRefresher.Outcome?
            if let spotify = try? context.services(), (try? await spotify.session.tokens()) != nil {
                outcome = try? await MetadataRefresher(
                    links: links, client: spotify.client, origin: .person
                ).refresh(playlist: playlistID)
                if case .refreshed = outcome { refreshed = true }
            }
            if global.json {
                Output.json(AttachedJSON(session: entry.id, playlist: playlistID.rawValue, metadataFetched: refreshed))
            } else {
                let card = try await links.card(for: entry.record)
                Output.line(
                    "Attached \(TerminalText(card?.metadata.name ?? playlistID.rawValue)) to session \(entry.id)."
                )
                if let summary = card?.metadata.summaryLine { Output.line("  \(summary)") }
                switch outcome {
                case .refreshed?, .unchanged?:
                    break
                case .spotifyOwned?:
                    // Nothing more will come: a refresh must not be promised.
                    if let line = Output.statusLine(.spotifyOwned) { Output.line(Output.dim("\(line)")) }
                case _ where card?.metadata.hasDetails == true:
                    Output.line(
                        Output.dim("Shown as your playlist list saved it; 'spotlink refresh' updates it online."))
                default:
                    Output.line(
                        Output.dim("Details will be filled in by 'spotlink refresh' once signed in and online."))
                }
            }
        }
    }

    struct Detach: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a session's playlist (the cached playlist stays).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: String

        func run() async throws {
            let (_, links, entry) = try Journal.open(global, session: id)
            let removed = try await links.removeLink(for: entry.record)
            if global.json {
                Output.json(DetachedJSON(session: entry.id, detached: removed))
            } else {
                Output.line(
                    removed ? "Detached the playlist from session \(entry.id)." : "Session \(entry.id) had no playlist."
                )
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a session.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: String

        func run() async throws {
            let context = try Context(global, requireClientID: false)
            let journal = try context.journal()
            let entry = try journal.find(id)
            try journal.delete(entry)
            if global.json { Output.json(["deleted": entry.id]) } else { Output.line("Deleted session \(entry.id).") }
        }
    }
}

/// Prints a session's card for people or as JSON.
enum CardPrinter {
    static func print(entry: Journal.Entry, card: PlaylistCard?, json: Bool) {
        if json {
            Output.json(CardJSON(entry: entry, card: card))
            return
        }
        Output.line(Output.bold("\(entry.title)") + "\(entry.minutes.map { "  (\($0) min)" } ?? "")")
        guard let card else {
            Output.line("  No playlist attached. Attach one with 'spotlink session attach \(entry.id) LINK'.")
            return
        }
        let metadata = card.metadata
        Output.line(
            "  ♫ \(Output.bold(TerminalText(metadata.name ?? metadata.id.rawValue)))"
                + (metadata.ownerName.map { "  by \(TerminalText($0))" } ?? ""))
        Output.line("  \(metadata.summaryLine ?? "track count and duration unknown")")
        if let minutes = entry.minutes {
            if let label = songs(card, minutes: minutes) {
                Output.line("  \(minutes) min ≈ \(label)")
            } else if let reason = unknownSongs(card, minutes: minutes) {
                Output.line("  \(minutes) min: \(Output.songTimeReason(reason))")
            }
        }
        Output.line("  cover: \(card.cover.map { "\($0.count) bytes cached" } ?? "not cached")")
        Output.line("  open: \(card.webURL.absoluteString)  (\(card.uri))")
        if let status = Output.statusLine(metadata.availability) { Output.line("  " + Output.dim("\(status)")) }
    }

    static func songs(_ card: PlaylistCard, minutes: Int) -> String? {
        if case .songs(let songs) = reckon(card, minutes: minutes) { SongTime.label(songs) } else { nil }
    }

    /// Why the session's length cannot be put in songs of its playlist; `nil` when it can.
    static func unknownSongs(_ card: PlaylistCard, minutes: Int) -> SongTime.Reason? {
        if case .cannotCount(let reason) = reckon(card, minutes: minutes) { reason } else { nil }
    }

    private static func reckon(_ card: PlaylistCard, minutes: Int) -> SongTime.Reckoning {
        // A length an older version accepted is read at most as a day, never overflowing.
        SongTime.reckon(.seconds(min(max(minutes, 0), SessionCommand.New.longest) * 60), in: card.metadata)
    }
}

/// The interactive picker: type to filter the cached playlists, pick by number.
enum Picker {
    static func choose(from links: LinkedPlaylists) async throws -> LibraryPlaylist {
        let library = try await links.library()
        var filter = ""
        while true {
            let matches = LibraryPlaylist.filter(library, matching: filter)
            guard !matches.isEmpty || !filter.isEmpty else {
                throw CLIFailure("No cached playlists: run 'spotlink playlists' first (needs sign-in).", exitCode: 1)
            }
            for (index, playlist) in matches.prefix(15).enumerated() {
                let mark = Output.accessMark(playlist.access).map { "  (\($0))" } ?? ""
                Output.note("\(index + 1). \(TerminalText(playlist.name))\(mark)")
            }
            FileHandle.standardError.write(Data("Number to attach, or text to filter: ".utf8))
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces) else {
                throw CLIFailure("No playlist was chosen.", exitCode: 1)
            }
            if let number = Int(answer), (1...min(15, matches.count)).contains(number) { return matches[number - 1] }
            filter = answer
        }
    }
}

/// A session in `--json`: `session new`'s answer.
private struct SessionJSON: Encodable {
    let id: Int64
    let title: String
    @Nullable var minutes: Int?

    init(_ entry: Journal.Entry) {
        (id, title, minutes) = (entry.id, entry.title, entry.minutes)
    }
}

/// A row of `session list --json`: the session and its playlist's name (its ID before the details
/// are fetched), `null` without one.
private struct SessionRowJSON: Encodable {
    let id: Int64
    let title: String
    @Nullable var minutes: Int?
    @Nullable var playlist: String?

    init(_ entry: Journal.Entry, playlist card: PlaylistCard?) {
        (id, title, minutes) = (entry.id, entry.title, entry.minutes)
        playlist = card.map { $0.metadata.name ?? $0.metadata.id.rawValue }
    }
}

/// `session attach --json`.
private struct AttachedJSON: Encodable {
    let session: Int64
    let playlist: String
    let metadataFetched: Bool

    enum CodingKeys: String, CodingKey {
        case session, playlist
        case metadataFetched = "metadata_fetched"
    }
}

/// `session detach --json`.
private struct DetachedJSON: Encodable {
    let session: Int64
    let detached: Bool
}

/// `session show --json`: the session, and its card when a playlist is attached.
private struct CardJSON: Encodable {
    /// The attached playlist as the card shows it.
    struct Playlist: Encodable {
        let id: String
        @Nullable var name: String?
        @Nullable var owner: String?
        @Nullable var tracks: Int?
        @Nullable var durationMs: Int?
        let availability: String
        let uri: String
        let link: String
        let coverBytes: Int
        @Nullable var songsInSession: String?
        @Nullable var songsUnknownBecause: String?

        enum CodingKeys: String, CodingKey {
            case id, name, owner, tracks, availability, uri, link
            case durationMs = "duration_ms", coverBytes = "cover_bytes", songsInSession = "songs_in_session"
            case songsUnknownBecause = "songs_unknown_because"
        }
    }

    let id: Int64
    let title: String
    @Nullable var minutes: Int?
    let playlist: Playlist?

    init(entry: Journal.Entry, card: PlaylistCard?) {
        (id, title, minutes) = (entry.id, entry.title, entry.minutes)
        playlist = card.map { card in
            let metadata = card.metadata
            return Playlist(
                id: metadata.id.rawValue, name: metadata.name, owner: metadata.ownerName, tracks: metadata.trackCount,
                durationMs: metadata.totalDuration.map { Int(clamping: $0.clampedMilliseconds) },
                availability: metadata.availability.rawValue, uri: card.uri, link: card.webURL.absoluteString,
                coverBytes: card.cover?.count ?? 0,
                songsInSession: entry.minutes.flatMap { CardPrinter.songs(card, minutes: $0) },
                songsUnknownBecause: entry.minutes.flatMap { CardPrinter.unknownSongs(card, minutes: $0)?.rawValue })
        }
    }
}
