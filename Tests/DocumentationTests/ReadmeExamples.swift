// swift-format-ignore-file
// (the examples keep the README's layout, character for character)
import Foundation
import PlaylistLinks
import SpotifyAuth
import SpotifyWebAPI

// The README's Swift examples, compiled with the tests. Each sits between its markers exactly as
// the README shows it (ReadmeTests checks, imports aside), wrapped in a function that gives it the
// app's values. The SwiftUI example is in ReadmeSwiftUIExample.swift.

/// README example 2: set up the session, ledger and client, and link a playlist.
func readmeExampleSetUp(appSupport: URL, pastedLink: String) async throws {
    // README example 2 begins
    let endpoint = TokenEndpoint(server: .live, clientID: "YOUR_CLIENT_ID")
    // The platform's secret store; a plain file (FileTokenStore) only when you choose it.
    #if canImport(Security)
    let store: any TokenStore = KeychainTokenStore()
    #else
    let store: any TokenStore = SecretServiceTokenStore()   // the desktop keyring, through libsecret
    #endif
    let session = SpotifySession(endpoint: endpoint, store: store)
    // One ledger per app and device: a quota or rate limit any process learns stops them all.
    let ledger = RequestLedger(
        key: QuotaKey(issuer: endpoint.server.issuer, clientID: "YOUR_CLIENT_ID"),
        store: try SQLiteRequestLedgerStore(url: appSupport.appendingPathComponent("spotify-requests.sqlite")),
        dailyBudget: 600)   // background work stops here; what a person asks for still goes
    let client = SpotifyClient(configuration: .live, tokens: session, ledger: ledger)   // refreshes once, whatever the number of callers

    // Attach a playlist to a record of your app, offline and at once; details are filled in later.
    let links = try SQLitePlaylistLinkStore(location: .file(appSupport.appendingPathComponent("links.sqlite")))
    let record = RecordID(namespace: "session", id: "42")
    try await links.link(record, to: try SpotifyReference(parsing: pastedLink, expecting: .playlist).id)
    try await MetadataRefresher(store: links, client: client).refresh(record: record)
    let card = try links.card(for: record)   // SQLite only: name, count, duration, cover bytes, links
    print(card?.metadata.name ?? "?", card?.webURL.absoluteString ?? "", SongTime.label(4.4))   // "4.5 songs"
    // README example 2 ends
}

/// README example 3: the language-learning app's calls.
func readmeExampleLearning(client: SpotifyClient) async throws {
    // README example 3 begins
    let songs = try await client.searchTracks("さくら", limit: 10)        // Japanese works: kana, kanji, widths
    for track in songs.items { print(track.name, track.artistLine, track.reference?.webURL ?? "") }
    let me = try await client.currentUser()                               // display name, images, account_id
    let saved = try await client.savedTracks(limit: 20)                   // needs user-library-read
    let top = try await client.topTracks(range: .shortTerm)               // needs user-top-read
    // README example 3 ends
    _ = (me, saved, top)
}
