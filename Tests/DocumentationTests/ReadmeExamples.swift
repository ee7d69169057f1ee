// swift-format-ignore-file
// (the examples keep the README's layout, character for character)
import Foundation
import PlaylistLinks
import SpotifyLinkSQLite
import SpotifyAuth
import SpotifyLinkUI
import SpotifyWebAPI

// The README's Swift examples, compiled with the tests. Each sits between its markers exactly as
// the README shows it (ReadmeTests checks, imports aside), wrapped in a function that gives it the
// app's values. The SwiftUI examples (2–5) are app files in AppleCheck/Examples, compiled by scripts/check-apple.sh ios.

/// README example 7: set up the session, ledger and client, and link a playlist.
func readmeExampleSetUp(appSupport: URL, pastedLink: String) async throws {
    // README example 7 begins
    let endpoint = TokenEndpoint(server: .live, clientID: "YOUR_CLIENT_ID")
    // The platform's secret store; a plain file (FileTokenStore) only when you choose it.
    #if canImport(Security)
    let store: any TokenStore = KeychainTokenStore()
    #else
    let store: any TokenStore = SecretServiceTokenStore()   // the desktop keyring, through libsecret
    #endif
    let session = SpotifySession(endpoint: endpoint, store: store)
    // One ledger per app and device: a quota or rate limit any process learns stops them all.
    let ledger = try RequestLedger(
        key: SpotifyAppKey(issuer: endpoint.server.issuer, clientID: "YOUR_CLIENT_ID"),
        file: appSupport.appendingPathComponent("spotify-requests.sqlite"),
        dailyBudget: QuotaShare(apps: 1, usersPerApp: 5).dailyBudget)   // background work stops at this device's share (80 a day)
    let client = SpotifyClient(configuration: .live, tokens: session, ledger: ledger)   // refreshes once, whatever the number of callers

    // Attach a playlist to a record of your app, offline and at once; details are filled in later.
    let links = try LinkedPlaylists.sqlite(file: appSupport.appendingPathComponent("links.sqlite"))
    let record = RecordID(namespace: "session", id: "42")
    try await links.link(record, to: try SpotifyReference(parsing: pastedLink, expecting: .playlist).id)
    try await MetadataRefresher(links: links, client: client).refresh(record: record)
    let card = try await links.card(for: record)   // SQLite only: name, count, duration, cover bytes, links
    print(card?.metadata.name ?? "?", card?.webURL.absoluteString ?? "")   // SpotifyText words counts and songs
    // README example 7 ends
}

/// README example 8: the language-learning app's calls.
func readmeExampleLearningCalls(client: SpotifyClient) async throws {
    // README example 8 begins
    let songs = try await client.searchTracks("さくら", limit: 10)        // Japanese works: kana, kanji, widths
    for track in songs.items { print(track.name, track.artistLine, track.reference?.webURL ?? "") }
    let me = try await client.currentUser()                               // display name, images, account_id
    let saved = try await client.savedTracks(limit: 20)                   // needs user-library-read
    let top = try await client.topTracks(range: .shortTerm)               // needs user-top-read
    // README example 8 ends
    _ = (me, saved, top)
}

/// README example 6: the models' messages in the user's language, or the app's words.
func readmeExampleText(reset: Date) -> [String] {
    // README example 6 begins
    let text = SpotifyText()                                   // the user's language: English or Japanese
    let quota = text(.quotaExceeded(until: reset))    // "… They come back around 4:20 AM; saved playlists still show."
    let songs = SpotifyText(locale: Locale(identifier: "ja_JP"))(.songs(4.5))   // "4.5曲"
    let custom = SpotifyText { message in                      // the app's own words, e.g. from a String Catalog
        if case .offline = message { NSLocalizedString("spotify.offline", comment: "Spotify is offline") } else { nil }
    }
    // README example 6 ends
    return [quota, songs, custom(.offline)]
}

/// README example 9: the learning app's song search before the learner connects, through the
/// developer's search service.
@MainActor
func readmeExampleSignedOut(configuration: SpotifyLink.Configuration, searchService: URL, developmentKey: Data)
    -> TrackSearchModel
{
    var configuration = configuration
    // README example 9 begins
    #if canImport(DeviceCheck)
    let proof = SignedOutSearch.Proof.appAttest()     // App Attest: the key is made once, its ID kept in the Keychain
    #else
    let proof = SignedOutSearch.Proof.development(key: developmentKey, device: "dev")   // where App Attest is not (a simulator, Linux)
    #endif
    configuration.signedOutSearch = SignedOutSearch(service: searchService, proof: proof)   // your spotlink-search
    let spotify = SpotifyLink(configuration)
    let songs = spotify.songSearch()     // the same model before and after the learner connects
    songs.query = "さくら"                 // searched through the service until then: no secret in the app
    // README example 9 ends
    return songs
}
