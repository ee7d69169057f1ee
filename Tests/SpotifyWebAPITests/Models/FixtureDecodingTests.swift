import Foundation
import SpotifyTesting
import Testing

@testable import SpotifyWebAPI

@Suite("Decoding recorded 2026 responses")
struct FixtureDecodingTests {
    let decoder = makeSpotifyDecoder()

    @Test func everyRecordedFixtureIsReadable() throws {
        for name in RecordedFixtures.names {
            let data = try RecordedFixtures.data(name)
            #expect(!data.isEmpty, "\(name) is empty")
            #expect((try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil, "\(name)")
        }
    }

    @Test func currentUser() throws {
        let user = try decoder.decode(CurrentUser.self, from: RecordedFixtures.data("current_user"))
        #expect(!user.id.isEmpty)
        #expect(user.webURL?.host == "open.spotify.com")
    }

    @Test(arguments: ["playlist_1", "playlist_4"])
    func fullPlaylistWithEitherKeyGeneration(name: String) throws {
        let playlist = try decoder.decode(Playlist.self, from: RecordedFixtures.data(name))
        #expect(playlist.id.rawValue == "1Cp6VQCKf2VL4sP09jN9oX")
        #expect(playlist.itemCount == 1)
        let entries = try #require(playlist.items)
        #expect(entries.items.count == 1)
        guard case .track(let track) = entries.items[0].item else {
            Issue.record("expected a track, got \(entries.items[0].item)")
            return
        }
        #expect(track.duration > .zero)
        #expect(!track.artists.isEmpty)
    }

    @Test func newPlaylistWithOnlyOldKeys() throws {
        let playlist = try decoder.decode(Playlist.self, from: RecordedFixtures.data("new_playlist"))
        #expect(playlist.itemCount == 0)
        #expect(playlist.summary.owner?.displayName == nil)
    }

    @Test(arguments: ["playlist_items", "playlist_items_2"])
    func playlistItemsWithEitherKeyGeneration(name: String) throws {
        let page = try decoder.decode(Page<PlaylistEntry>.self, from: RecordedFixtures.data(name))
        #expect(page.total == 1)
        #expect(page.items.count == 1)
        #expect(page.items[0].addedAt != nil)
        #expect(page.items[0].item.duration != nil)
    }

    @Test func myPlaylistsPage() throws {
        let page = try decoder.decode(
            Page<SimplifiedPlaylist>.self, from: RecordedFixtures.data("current_user_playlist_1"))
        #expect(page.total == 94)
        #expect(page.elementCount == 48)
        #expect(page.next != nil)
        #expect(page.items.allSatisfy { $0.itemCount != nil })
    }

    @Test func currentlyPlayingTrack() throws {
        let playing = try decoder.decode(CurrentlyPlaying.self, from: RecordedFixtures.data("current_playing_track"))
        guard case .track(let track) = playing.item else {
            Issue.record("expected a track")
            return
        }
        #expect(track.duration > .zero)
        #expect(playing.progress != nil)
        #expect(playing.contextURI?.hasPrefix("spotify:") == true)
    }

    @Test func playbackStateWithEpisode() throws {
        let playing = try decoder.decode(CurrentlyPlaying.self, from: RecordedFixtures.data("playback_episode_1"))
        guard case .episode(let episode) = playing.item else {
            Issue.record("expected an episode")
            return
        }
        #expect(episode.duration > .zero)
    }

    @Test func trackSearchPage() throws {
        struct TrackSearch: Decodable { var tracks: Page<Track> }
        let result = try decoder.decode(TrackSearch.self, from: RecordedFixtures.data("search"))
        #expect(result.tracks.total == 16)
        #expect(!result.tracks.items.isEmpty)
    }

    @Test(arguments: [("playlist_not_found", 404, SpotifyAPIError.Code.notFound), ("rate_limit", 429, .rateLimited)])
    func errorObjects(name: String, status: Int, code: SpotifyAPIError.Code) throws {
        let error = SpotifyAPIError.from(
            status: status, body: try RecordedFixtures.data(name), endpoint: Endpoint(path: "/me"))
        #expect(error.code == code)
        #expect(error.status == status)
    }

    @Test func smallShapes() throws {
        #expect(try decoder.decode([Bool].self, from: RecordedFixtures.data("library_contains")).count > 0)
        struct Snapshot: Decodable { var snapshot_id: String }
        #expect(
            try !decoder.decode(Snapshot.self, from: RecordedFixtures.data("playlist_update_items")).snapshot_id.isEmpty
        )
    }
}

@Suite("Decoding the odd shapes Spotify sends")
struct OddShapeTests {
    let decoder = makeSpotifyDecoder()

    static let track =
        #"{"type":"track","id":"4iV5W9uYEdYUVa79Axb7Rh","name":"Song","duration_ms":200000,"uri":"spotify:track:4iV5W9uYEdYUVa79Axb7Rh","artists":[{"name":"A"}]}"#
    static let episode =
        #"{"type":"episode","id":"512ojhOuo1ktJprKbVcKyQ","name":"Ep","duration_ms":1800000,"uri":"spotify:episode:512ojhOuo1ktJprKbVcKyQ","show":{"name":"Show"}}"#
    static let local =
        #"{"type":"track","id":null,"name":"Demo take","duration_ms":95000,"uri":"spotify:local:Me:Tapes:Demo+take:95","album":{"name":"Tapes"},"artists":[{"name":"Me"}]}"#

    func page(_ entries: [String], total: String = "null") -> Data {
        Data(
            #"{"href":null,"items":[\#(entries.joined(separator: ","))],"limit":50,"offset":0,"next":null,"previous":null,"total":\#(total)}"#
                .utf8)
    }

    @Test func pageWithNullEntryLocalFileEpisodeAndUnknown() throws {
        let data = page([
            #"{"added_at":"2026-03-01T10:00:00Z","is_local":false,"item":\#(Self.track)}"#,
            "null",
            #"{"added_at":null,"is_local":false,"item":null}"#,
            #"{"is_local":true,"track":\#(Self.local)}"#,
            #"{"is_local":false,"item":\#(Self.episode),"track":\#(Self.episode)}"#,
            #"{"is_local":false,"item":{"type":"audiobook_chapter","id":"x"}}"#,
            "42",
        ])
        let result = try decoder.decode(Page<PlaylistEntry>.self, from: data)
        #expect(result.total == nil)
        #expect(result.nullCount == 1)
        #expect(result.undecodableCount == 1)
        #expect(result.items.count == 5)
        guard case .track = result.items[0].item else { Issue.record("track"); return }
        #expect(result.items[1].item == .unavailable)
        guard case .localFile(let file) = result.items[2].item else { Issue.record("local"); return }
        #expect(file.duration == .seconds(95))
        #expect(file.artistName == "Me")
        guard case .episode(let episode) = result.items[3].item else { Issue.record("episode"); return }
        #expect(episode.showName == "Show")
        #expect(result.items[4].item == .unknown(type: "audiobook_chapter"))
    }

    @Test func playlistNotOwnedHasNoItemsAndNullImages() throws {
        let json =
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"Today","description":"","images":null,"owner":{"id":"spotify","display_name":"Spotify"},"public":null,"collaborative":false,"snapshot_id":"s1","uri":"spotify:playlist:37i9dQZF1DXcBWIGoYBM5M","external_urls":{"spotify":"https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M"},"unexpected":{"deep":[1,2]}}"#
        let playlist = try decoder.decode(Playlist.self, from: Data(json.utf8))
        #expect(playlist.items == nil)
        #expect(playlist.itemCount == nil)
        #expect(playlist.summary.images.isEmpty)
        #expect(playlist.summary.description == nil)
        #expect(playlist.summary.isPublic == nil)
    }

    @Test func playlistWithReferenceOnlyAndNullTotal() throws {
        let json =
            #"{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"X","images":[],"owner":{"id":"o"},"uri":"spotify:playlist:37i9dQZF1DXcBWIGoYBM5M","items":{"href":"https://api.spotify.com/v1/playlists/37i9dQZF1DXcBWIGoYBM5M/items","total":null}}"#
        let playlist = try decoder.decode(Playlist.self, from: Data(json.utf8))
        #expect(playlist.items == nil)
        #expect(playlist.itemCount == nil)
    }

    @Test func searchPageWithNullPlaylists() throws {
        let json =
            #"{"playlists":{"href":"h","items":[null,{"id":"37i9dQZF1DXcBWIGoYBM5M","name":"Focus","images":null,"owner":{"id":"o"},"uri":"spotify:playlist:37i9dQZF1DXcBWIGoYBM5M","tracks":{"href":null,"total":12}},null],"limit":10,"offset":0,"next":null,"previous":null,"total":3}}"#
        let result = try decoder.decode(PlaylistSearchResults.self, from: Data(json.utf8))
        #expect(result.playlists.items.map(\.name) == ["Focus"])
        #expect(result.playlists.nullCount == 2)
        #expect(result.playlists.items[0].itemCount == 12)
    }

    @Test(arguments: [
        (
            #"{"timestamp":1,"is_playing":true,"item":null,"currently_playing_type":"ad","progress_ms":1000}"#,
            CurrentlyPlaying.Item.ad
        ),
        (
            #"{"timestamp":1,"is_playing":true,"item":null,"currently_playing_type":"episode"}"#,
            .unknown(type: "episode")
        ),
        (
            #"{"timestamp":1,"is_playing":false,"item":null,"currently_playing_type":"unknown"}"#,
            .unknown(type: "unknown")
        ),
        (#"{"timestamp":1,"is_playing":false,"currently_playing_type":"hologram"}"#, .unknown(type: "hologram")),
    ])
    func currentlyPlayingKinds(json: String, expected: CurrentlyPlaying.Item) throws {
        #expect(try decoder.decode(CurrentlyPlaying.self, from: Data(json.utf8)).item == expected)
    }
}
