// swift-format-ignore-file
// The Swift block of SpotifyLinkSQLite.docc/SpotifyLinkSQLite.md, as an app's code (see
// PlaylistLinks-GettingStarted.swift).
import Foundation
import PlaylistLinks
import SpotifyLinkSQLite
import SpotifyWebAPI

func sqliteOpen(appSupport: URL, key: SpotifyAppKey) throws -> (LinkedPlaylists, RequestLedger) {
    // SpotifyLinkSQLite/SpotifyLinkSQLite example 1 begins
    let links = try LinkedPlaylists.sqlite(file: appSupport.appendingPathComponent("links.sqlite"))
    let ledger = try RequestLedger(key: key, file: appSupport.appendingPathComponent("spotify-requests.sqlite"))
    // SpotifyLinkSQLite/SpotifyLinkSQLite example 1 ends
    return (links, ledger)
}
