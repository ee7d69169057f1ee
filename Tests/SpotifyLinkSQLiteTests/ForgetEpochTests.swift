import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
@_spi(Storage) import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The forget epoch across processes: an app and its widget share one links file, and a disconnect
/// in either forgets for both. A refresh in this process whose answer arrives after the other
/// process forgot saves nothing of it (F2 of the 2026-11-28 review, across processes).
@Suite("A forget in another process wins over a refresh in flight")
struct ForgetEpochTests {
    /// Runs the helper that forgets `file`'s details in a process of its own, and returns the
    /// epoch it left.
    static func forgetInAnotherProcess(_ file: URL) async throws -> String {
        let child = try await ChildProcess(builtExecutable(named: "LinksCrashChild"), [file.path, "forget"]).run()
        #expect(child.status == 0, "the forgetting process failed: \(child.errors)")
        return child.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aRefreshWhoseAnswerArrivesAfterAnotherProcessForgotSavesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epoch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("links.sqlite")
        let links = LinkedPlaylists(try SQLitePlaylistLinkStore(location: .file(file)))
        let session = RecordID(namespace: "session", id: "1")
        let calm = try await withEmulator { (emulator: EmulatorServer) async throws -> SpotifyID in
            let calm = try SpotifyID(try #require(await emulator.playlists().first { $0.name == "Calm Evening" }).id)
            try await links.link(session, to: calm)
            let transport = GatedTransport()
            let answer = transport.hold { $0.path?.hasPrefix("/v1/playlists/\(calm.rawValue)") == true }
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(
                    AccessToken(await emulator.issueAccessToken(scopes: EmulatorServer.allScopes))),
                transport: transport, clock: VirtualClock(mode: .automatic))
            let refresh = Task {
                try await MetadataRefresher(links: links, client: client, transport: transport).refresh(playlist: calm)
            }
            try await waitUntil("the refresh's request is answered and held") { answer.hasArrived }
            #expect(try await Self.forgetInAnotherProcess(file) == "forgot 1")
            answer.open()
            #expect(try await refresh.value == .forgotten)
            return calm
        }
        #expect(try await links.metadata(for: calm) == .forgotten(calm), "the answer was saved after the forget")
        #expect(try await links.cover(for: calm) == nil, "the cover was saved after the forget")
        #expect(try await links.forgetEpoch() == ForgetEpoch(1))
    }

    /// Without a forget in between, the same refresh saves its answer: the guard refuses only what
    /// a forget came after.
    @Test func aRefreshWithNoForgetInBetweenSavesItsAnswer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epoch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("links.sqlite")
        let links = LinkedPlaylists(try SQLitePlaylistLinkStore(location: .file(file)))
        let session = RecordID(namespace: "session", id: "1")
        #expect(try await Self.forgetInAnotherProcess(file) == "forgot 1")
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let calm = try SpotifyID(try #require(await emulator.playlists().first { $0.name == "Calm Evening" }).id)
            try await links.link(session, to: calm)
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(
                    AccessToken(await emulator.issueAccessToken(scopes: EmulatorServer.allScopes))),
                transport: PatientTransport(),
                clock: VirtualClock(mode: .automatic))
            #expect(
                try await MetadataRefresher(links: links, client: client).refresh(playlist: calm)
                    == .refreshed(entriesFetched: true))
        }
        #expect(try await links.card(for: session)?.metadata.name == "Calm Evening")
        #expect(try await links.card(for: session)?.cover != nil)
    }
}
