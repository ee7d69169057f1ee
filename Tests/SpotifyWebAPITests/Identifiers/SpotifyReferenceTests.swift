import Foundation
import Testing

@testable import SpotifyWebAPI

@Suite("Spotify URIs and links")
struct SpotifyReferenceTests {
    static let id = "37i9dQZF1DXcBWIGoYBM5M"

    static let valid: [(String, SpotifyReference.Kind, String?)] = [
        ("spotify:playlist:\(id)", .playlist, nil),
        ("spotify:track:4iV5W9uYEdYUVa79Axb7Rh", .track, nil),
        ("spotify:album:1DFixLWuPkv3KT3TnV35m3", .album, nil),
        ("spotify:episode:512ojhOuo1ktJprKbVcKyQ", .episode, nil),
        ("spotify:artist:0OdUWJ0sBjDrqHygGUXeCF", .artist, nil),
        ("spotify:user:someone:playlist:\(id)", .playlist, "someone"),
        ("  spotify:playlist:\(id)\n", .playlist, nil),
        ("https://open.spotify.com/playlist/\(id)", .playlist, nil),
        ("https://open.spotify.com/playlist/\(id)?si=a1b2c3d4e5", .playlist, nil),
        ("https://open.spotify.com/playlist/\(id)?si=a1b2&pi=u-xyz#frag", .playlist, nil),
        ("https://open.spotify.com/intl-de/playlist/\(id)", .playlist, nil),
        ("https://open.spotify.com/intl-pt/track/4iV5W9uYEdYUVa79Axb7Rh?si=x", .track, nil),
        ("https://open.spotify.com/user/spotify/playlist/\(id)", .playlist, "spotify"),
        ("https://open.spotify.com/embed/playlist/\(id)", .playlist, nil),
        ("https://open.spotify.com/embed/track/4iV5W9uYEdYUVa79Axb7Rh?utm_source=generator", .track, nil),
        ("open.spotify.com/playlist/\(id)", .playlist, nil),
        ("http://open.spotify.com/playlist/\(id)", .playlist, nil),
        ("HTTPS://OPEN.SPOTIFY.COM/playlist/\(id)", .playlist, nil),
        ("https://open.spotify.com/playlist/\(id)/", .playlist, nil),
        ("https://open.spotify.com/show/5CfCWKI5pZ28U0uOzXkDHe", .show, nil),
    ]

    @Test(arguments: valid)
    func parsesValidForms(text: String, kind: SpotifyReference.Kind, user: String?) throws {
        let reference = try SpotifyReference(parsing: text)
        #expect(reference.kind == kind)
        #expect(reference.legacyUser == user)
        #expect(reference.uri.hasPrefix("spotify:\(kind.rawValue):"))
    }

    @Test func bareIDNeedsAnExpectedKind() throws {
        #expect(try SpotifyReference(parsing: Self.id, expecting: .playlist) == .playlist(SpotifyID(Self.id)))
        #expect(throws: SpotifyAPIError.self) { try SpotifyReference(parsing: Self.id) }
    }

    static let invalid: [String] = [
        "",
        "   ",
        "spotify:",
        "spotify:playlist:",
        "spotify:playlist:\(id)X",
        "spotify:playlist:37i9dQZF1DXcBWIGoYBM5",
        "spotify:playlist:37i9dQZF1DXcBWIGoYBM5!",
        "spotify:podcast:\(id)",
        "spotify:local:Artist:Album:Title:180",
        "spotify:user:someone",
        "spotify:playlist:\(id):extra",
        "https://open.spotify.com/",
        "https://open.spotify.com/playlist/",
        "https://open.spotify.com/playlist/short",
        "https://open.spotify.com/banana/\(id)",
        "https://open.spotify.com/playlist/\(id)/extra/segments",
        "https://example.com/playlist/\(id)",
        "https://open.spotify.com.evil.example/playlist/\(id)",
        "ftp://open.spotify.com/playlist/\(id)",
        "https://spotify.link/AbCdEf123",
        "https://open.spotify.com/s/AbCdEf123",
        "spotify:playlist:37i9dQZF1DXcBWIGoYBM5ü",
        "🎵🎵🎵",
        "javascript:alert(1)",
        "spotify:playlist:\u{0}37i9dQZF1DXcBWIGoYBM5M",
        String(repeating: "a", count: 10_000),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidFormsWithATypedError(text: String) {
        do {
            _ = try SpotifyReference(parsing: text, expecting: .playlist)
            Issue.record("parsed \(text.prefix(40)) without error")
        } catch {
            #expect(error.code == .invalidIdentifier)
            #expect(error.message.count < 300)
            #expect(!error.message.contains("\u{0}"))
        }
    }

    @Test func wrongKindIsNamed() {
        #expect {
            try SpotifyReference(parsing: "spotify:track:4iV5W9uYEdYUVa79Axb7Rh", expecting: .playlist)
        } throws: { error in
            (error as? SpotifyAPIError)?.message.contains("not a playlist") == true
        }
    }

    @Test func shortLinksSayTheyNeedResolving() {
        #expect {
            try SpotifyReference(parsing: "https://spotify.link/AbCdEf123")
        } throws: { error in
            let error = error as? SpotifyAPIError
            return error?.code == .invalidIdentifier && error?.message.contains("is a short link") == true
                && error?.message.contains("open.spotify.com") == true
        }
    }

    @Test func formatsURIAndUniversalLink() throws {
        let reference = try SpotifyReference(parsing: "https://open.spotify.com/intl-de/playlist/\(Self.id)?si=abc")
        #expect(reference.uri == "spotify:playlist:\(Self.id)")
        #expect(reference.webURL.absoluteString == "https://open.spotify.com/playlist/\(Self.id)")
        #expect(try SpotifyReference(parsing: reference.webURL.absoluteString) == reference)
        #expect(try SpotifyReference(parsing: reference.uri) == reference)
    }
}
