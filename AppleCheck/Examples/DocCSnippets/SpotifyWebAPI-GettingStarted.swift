// swift-format-ignore-file
// The Swift blocks of SpotifyWebAPI.docc/GettingStarted.md, as an app's code (see
// PlaylistLinks-GettingStarted.swift).
import Foundation
import SpotifyAuth
import SpotifyLinkSQLite
import SpotifyWebAPI

func webAPIClient(appSupport: URL, session: SpotifySession) throws -> SpotifyClient {
    // SpotifyWebAPI/GettingStarted example 1 begins
    // RequestLedger(key:file:dailyBudget:) comes with PlaylistLinks (SQLite);
    // RequestLedger(key:dailyBudget:) keeps the ledger in this process's memory.
    let ledger = try RequestLedger(
        key: SpotifyAppKey(issuer: "https://accounts.spotify.com", clientID: "YOUR_CLIENT_ID"),
        file: appSupport.appendingPathComponent("spotify-requests.sqlite"),
        dailyBudget: 600)
    let client = SpotifyClient(configuration: .live, tokens: session, ledger: ledger)
    // SpotifyWebAPI/GettingStarted example 1 ends
    return client
}

func webAPIPages(client: SpotifyClient, id: SpotifyID) async throws {
    // SpotifyWebAPI/GettingStarted example 2 begins
    let mine = try await client.allMyPlaylists()            // every page, in order
    let playlist = try await client.playlist(id)             // the first 100 entries inline
    let all = try await client.allPlaylistEntries(id) { progress in
        print("\(progress.fetched) of \(progress.total ?? 0)")
    }
    print(all.items.count, "entries;", all.nullCount, "no longer available")
    // SpotifyWebAPI/GettingStarted example 2 ends
    _ = (mine, playlist)
}

func webAPISearch(client: SpotifyClient) async throws {
    // SpotifyWebAPI/GettingStarted example 3 begins
    let songs = try await client.searchTracks("さくら", limit: 10)
    for track in songs.items {
        print(track.name, track.artistLine, track.reference?.webURL.absoluteString ?? "")
    }
    // SpotifyWebAPI/GettingStarted example 3 ends
}

func webAPIErrors(client: SpotifyClient, id: SpotifyID) async throws {
    // SpotifyWebAPI/GettingStarted example 4 begins
    do {
        _ = try await client.playlist(id)
    } catch SpotifyAPIError.Code.notFound {
        // deleted, or one of Spotify's own playlists, which apps cannot read
    } catch SpotifyAPIError.Code.rateLimited {
        // the gate is closed for every caller until the time the error names
    }
    // SpotifyWebAPI/GettingStarted example 4 ends
}
