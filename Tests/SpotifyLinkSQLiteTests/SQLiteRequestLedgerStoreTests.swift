import Foundation
import GRDB
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

@_spi(Storage) @testable import PlaylistLinks

private let key = SpotifyAppKey(issuer: "http://127.0.0.1", clientID: "spotlink-demo")

@Suite("The SQLite request ledger")
struct SQLiteRequestLedgerStoreTests {
    @Test func twoOpenersOfOneFileShareTheCooldownAndTheCountsAcrossAReopen() async throws {
        let url = temporaryFile("requests.sqlite")
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try SQLiteRequestLedgerStore(url: url)
        let second = try SQLiteRequestLedgerStore(url: url)
        try await first.extendCooldown(
            Cooldown(kind: .quota, until: now.addingTimeInterval(600), learnedAt: now), for: key)
        #expect(try await second.cooldown(for: key)?.until == now.addingTimeInterval(600))
        // A shorter cooldown never shortens a longer one; a longer one replaces it.
        try await second.extendCooldown(
            Cooldown(kind: .rateLimit, until: now.addingTimeInterval(5), learnedAt: now), for: key)
        #expect(try await first.cooldown(for: key)?.kind == .quota)
        try await second.extendCooldown(
            Cooldown(kind: .quota, until: now.addingTimeInterval(900), learnedAt: now), for: key)
        #expect(try await first.cooldown(for: key)?.until == now.addingTimeInterval(900))
        // Another app's key is separate.
        #expect(try await first.cooldown(for: SpotifyAppKey(issuer: key.issuer, clientID: "other")) == nil)

        var ids: [UUID] = []
        for offset in [0.0, 10, 20] {
            let entry = LedgerEntry(
                sentAt: now.addingTimeInterval(offset), route: "GET /me", status: nil, background: offset == 10)
            ids.append(entry.id)
            #expect(
                try await first.reserve(entry, for: key, limit: nil, windowStart: now.addingTimeInterval(-86_400))
                    == .counted)
        }
        for id in ids { try await second.settle(id, status: 200, for: key) }
        #expect(
            try await second.reserve(
                LedgerEntry(
                    sentAt: now.addingTimeInterval(30), route: "GET /me/playlists", status: nil, background: false),
                for: key, limit: nil, windowStart: now.addingTimeInterval(5)) == .counted)
        let reopened = try SQLiteRequestLedgerStore(url: url)
        let entries = try await reopened.entries(for: key, since: now.addingTimeInterval(-1))
        // The entry at `now` was forgotten by the last record; order and fields survive.
        #expect(entries.map(\.sentAt) == [10, 20, 30].map { now.addingTimeInterval($0) })
        #expect(entries.map(\.background) == [true, false, false])
        #expect(entries.map(\.status) == [200, 200, nil])
        #expect(Array(entries.map(\.id).prefix(2)) == Array(ids.dropFirst()))
        #expect(try await reopened.cooldown(for: key)?.until == now.addingTimeInterval(900))
    }

    @Test func aFileThatCannotBeOpenedIsTheLedgersOwnTypedError() throws {
        let blocker = temporaryFile("blocker")
        try FileManager.default.createDirectory(
            at: blocker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("requests.sqlite")
        // The ledger belongs to the Web API's layer: its storage fails in that layer's error, in
        // words that name the file, never as a links error.
        let failure = #expect(throws: SpotifyAPIError.self) { try SQLiteRequestLedgerStore(url: file) }
        #expect(failure?.code == .ledgerUnavailable)
        #expect(failure?.message.hasPrefix("The request ledger could not be opened (\(file.path))") == true)
    }

    @Test func aSymbolicLinkInPlaceOfTheLedgerIsRefusedInItsOwnWords() throws {
        let file = temporaryFile("requests.sqlite")
        let elsewhere = file.deletingLastPathComponent().appendingPathComponent("someone-elses.sqlite")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: elsewhere)
        // The refusal the links' file gives, with the ledger's code: not a generic failure.
        let failure = #expect(throws: SpotifyAPIError.self) { try SQLiteRequestLedgerStore(url: file) }
        #expect(failure?.code == .ledgerUnavailable)
        #expect(failure?.message.contains("it is a symbolic link") == true, "\(failure?.message ?? "")")
    }
}
