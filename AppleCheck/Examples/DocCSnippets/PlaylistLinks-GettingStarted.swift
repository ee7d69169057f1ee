// swift-format-ignore-file
// The Swift blocks of PlaylistLinks.docc/GettingStarted.md, as an app's code: each inside a
// function whose parameters are what the article's text gives it. The Apple check compiles them for
// iOS; DocumentationTests compares each with the article.
import Foundation
import GRDB
import PlaylistLinks
import SpotifyLinkSQLite
import SpotifyWebAPI

func gettingStartedOpen(appSupport: URL) throws -> LinkedPlaylists {
    // PlaylistLinks/GettingStarted example 1 begins
    let links = try LinkedPlaylists.sqlite(file: appSupport.appendingPathComponent("links.sqlite"))
    // PlaylistLinks/GettingStarted example 1 ends
    return links
}

func gettingStartedOpenInAppDatabase(appDatabase: (writer: any DatabaseWriter, unused: Void)) throws -> LinkedPlaylists {
    // PlaylistLinks/GettingStarted example 2 begins
    // The links' tables in the database the app already owns:
    let links = try LinkedPlaylists.sqlite(writer: appDatabase.writer)
    // PlaylistLinks/GettingStarted example 2 ends
    return links
}

func gettingStartedLink(
    links: LinkedPlaylists, client: SpotifyClient, pasted: String, chosenPlaylist: LibraryPlaylist
) async throws {
    // PlaylistLinks/GettingStarted example 3 begins
    let session42 = RecordID(namespace: "session", id: "42")
    // From a pasted link or URI: saved at once, offline.
    try await links.link(session42, to: try SpotifyReference(parsing: pasted, expecting: .playlist).id)
    // Or from the picker, keeping what the picker knew (name, owner, count):
    try await links.link(session42, to: chosenPlaylist)
    // Fill in the details now when online; the link is saved either way.
    try await MetadataRefresher(links: links, client: client).refresh(record: session42)
    if let card = try await links.card(for: session42) {
        print(card.metadata.name ?? "Spotify playlist", card.metadata.trackCount ?? 0, card.webURL)
    }
    // PlaylistLinks/GettingStarted example 3 ends
}

func gettingStartedSongs(card: PlaylistCard) -> Double? {
    // PlaylistLinks/GettingStarted example 4 begins
    // Before the routine starts: how many songs fit.
    let songs = SongTime.estimate(.seconds(20 * 60), in: card.metadata)   // 6.0; SpotifyText says "6 songs", "6曲"
    // PlaylistLinks/GettingStarted example 4 ends
    return songs
}
