import Foundation
import HTTPTypes
@_spi(Storage) public import PlaylistLinks
import SpotifyAuth
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyWebAPI

extension SpotifyServices {
    /// The record the preview's card shows: linked to the sample "Deep Work" playlist, its
    /// details saved.
    public static let previewRecord = RecordID(namespace: "preview", id: "1")

    /// Parts for SwiftUI previews and documentation: signed in as a sample listener, with sample
    /// playlists, songs (some Japanese) and a song playing, and one linked record
    /// (``previewRecord``). Nothing reaches the network (every request is answered in the process)
    /// and nothing is written to disk (the sign-in, the links and the request counts are in
    /// memory); each call makes a fresh set.
    public static func preview() -> SpotifyServices {
        let now = Date()
        let key = SpotifyAppKey(issuer: AuthorizationServer.live.issuer, clientID: PreviewCatalog.clientID)
        let tokens = StoredTokens(
            accessToken: AccessToken("preview"), refreshToken: nil, expiresAt: .distantFuture,
            scopes: SpotifyScope.all + [LibraryScope.savedTracks, LibraryScope.topItems], signedInAt: now,
            issuer: key.issuer, clientID: key.clientID)
        var configuration = Configuration(
            clientID: PreviewCatalog.clientID, redirectURI: "preview://spotify-callback", server: .live, appGroup: nil,
            environment: [:], tokenStore: MemoryTokenStore([key: tokens]))
        configuration.storage = .memory
        // A folder of its own that nothing creates: a preview that wrote to disk would show there.
        configuration.folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spotifylink-preview-\(UUID().uuidString)", isDirectory: true)
        configuration.transport = PreviewTransport()
        configuration.screenshotMode = true  // no Spotify artwork: every cover is a grey placeholder
        let services = SpotifyServices(configuration)
        var metadata = PlaylistMetadata(id: PreviewCatalog.deepWork.id, availability: .available)
        metadata.name = PreviewCatalog.deepWork.name
        metadata.ownerName = "Aiko"
        metadata.trackCount = PreviewCatalog.deepWork.tracks
        metadata.totalDuration = .seconds(PreviewCatalog.deepWork.tracks * 212)
        metadata.fetchedAt = now
        // An in-memory store opens at once; a failure leaves the card empty, as a preview may.
        try? services.linkStore.seedNow(
            previewRecord, to: metadata.stamped(now), cover: PNG.placeholder(width: 640, height: 640))
        return services
    }
}

/// The sample catalog the preview's transport answers from.
enum PreviewCatalog {
    static let clientID = "preview"

    struct Playlist {
        let id: SpotifyID
        let name: String
        let tracks: Int
    }

    // Valid Spotify IDs (22 base-62 characters), made up.
    static let deepWork = Playlist(id: id("5pr3v1ewDeepW0rkL1st00"), name: "Deep Work", tracks: 50)
    static let playlists = [
        deepWork,
        Playlist(id: id("5pr3v1ewM0rn1ngF0cus00"), name: "Morning Focus", tracks: 49),
        Playlist(id: id("5pr3v1ewCa1mEven1ng000"), name: "Calm Evening", tracks: 51),
    ]
    static let songs: [(id: String, name: String, artist: String, seconds: Int)] = [
        ("5pr3v1ewSakura1roAsa00", "さくら色の朝", "ひかり", 198),
        ("5pr3v1ewYoakeN0Uta0000", "夜明けのうた", "青空ミナト", 224),
        ("5pr3v1ewHarukaze000000", "ハルカゼ", "ひかり", 187),
        ("5pr3v1ewL1tt1eW1nd0w00", "Little Window", "Ocean Theory", 241),
    ]

    private static func id(_ raw: String) -> SpotifyID {
        // The literals above are valid IDs; a typo would stop every preview at once.
        guard let id = try? SpotifyID(raw) else { preconditionFailure("not a Spotify ID: \(raw)") }
        return id
    }

    static func track(_ song: (id: String, name: String, artist: String, seconds: Int)) -> [String: Any] {
        [
            "id": song.id, "name": song.name, "duration_ms": song.seconds * 1000, "type": "track",
            "uri": "spotify:track:\(song.id)", "is_playable": true,
            "artists": [["id": "5pr3v1ewArt1st00000000", "name": song.artist, "type": "artist"]],
            "album": ["id": "5pr3v1ewA1bum000000000", "name": "Preview", "images": []],
        ]
    }

    static func playlist(_ playlist: Playlist) -> [String: Any] {
        [
            "id": playlist.id.rawValue, "name": playlist.name, "type": "playlist", "images": [],
            "uri": "spotify:playlist:\(playlist.id.rawValue)", "snapshot_id": "preview",
            "owner": ["id": "preview", "display_name": "Aiko", "type": "user"],
            "items": [
                "href": "https://api.spotify.com/v1/playlists/\(playlist.id.rawValue)/items", "total": playlist.tracks,
            ],
        ]
    }

    static func page(_ items: [Any]) -> [String: Any] {
        ["items": items, "total": items.count, "limit": 50, "offset": 0, "next": NSNull()]
    }

    /// The answer to a request for `path` (with its query), as Spotify's Web API shapes it.
    static func answer(_ path: String) -> (status: Int, body: [String: Any]) {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        switch route {
        case "/v1/me":
            return (200, ["id": "preview", "display_name": "Aiko", "type": "user", "images": [], "product": "premium"])
        case "/v1/me/playlists":
            return (200, page(playlists.map(playlist)))
        case "/v1/search":
            return path.contains("type=playlist")
                ? (200, ["playlists": page(playlists.map(playlist))]) : (200, ["tracks": page(songs.map(track))])
        case "/v1/me/tracks":
            return (200, page(songs.map { ["added_at": "2026-11-01T08:00:00Z", "track": track($0)] }))
        case "/v1/me/top/tracks":
            return (200, page(songs.map(track)))
        case "/v1/me/player/currently-playing":
            return (
                200,
                [
                    "is_playing": true, "progress_ms": 61_000, "currently_playing_type": "track",
                    "timestamp": Int(Date().timeIntervalSince1970 * 1000), "item": track(songs[0]),
                    "context": ["type": "playlist", "uri": "spotify:playlist:\(deepWork.id.rawValue)"],
                ]
            )
        default:
            if let found = playlists.first(where: { route == "/v1/playlists/\($0.id.rawValue)" }) {
                return (200, playlist(found))
            }
            return (404, ["error": ["status": 404, "message": "Not found in the preview's sample catalog."]])
        }
    }
}

/// Answers every request from ``PreviewCatalog`` within the process: a preview never reaches the
/// network, however its models are used.
struct PreviewTransport: Transport {
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws -> (
        HTTPResponse, Data
    ) {
        let (status, object) = PreviewCatalog.answer(request.path ?? "/")
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        let data = try JSONSerialization.data(withJSONObject: object)
        return (HTTPResponse(status: .init(code: status), headerFields: fields), data)
    }
}
