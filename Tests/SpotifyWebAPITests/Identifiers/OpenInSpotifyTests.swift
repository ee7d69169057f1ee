import Foundation
import SpotifyLinkSupport
import SpotifyWebAPI
import Synchronization
import Testing

/// "Open in Spotify" as Spotify's Design Guidelines and Apple ask: the app first, then the web
/// player or the App Store page; the guidelines' words on the button.
@Suite("Open in Spotify")
struct OpenInSpotifyTests {
    let playlist = SpotifyReference.playlist(SpotifyID(unchecked: "3cEYpjA9oz9GiPac4AsH4n"))
    let appStore = URL(string: "https://apps.apple.com/app/spotify-music-and-podcasts/id324684580")!

    @Test func theAppComesFirstThenTheFallback() {
        let web = OpenInSpotify(playlist)
        #expect(
            web.urls.map(\.absoluteString) == [
                "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n", "https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n",
            ])
        #expect(web.url(spotifyInstalled: true).absoluteString == "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n")
        #expect(web.url(spotifyInstalled: false) == playlist.webURL)
        // The journal app's "no web player fallback".
        let noWeb = OpenInSpotify(playlist, fallback: .appStore)
        #expect(noWeb.urls == [noWeb.appURL, appStore])
        #expect(noWeb.url(spotifyInstalled: false) == appStore)
        #expect(!noWeb.urls.contains { $0.host == "open.spotify.com" })
    }

    @Test func theButtonSaysWhatTheGuidelinesSay() {
        let web = OpenInSpotify(playlist)
        #expect(web.label() == .openSpotify)
        #expect(web.label(action: .play) == .playOnSpotify)
        #expect(web.label(spotifyInstalled: true, action: .listen) == .listenOnSpotify)
        // Without the app, the web player is still Spotify; the App Store is "GET SPOTIFY FREE".
        #expect(web.label(spotifyInstalled: false) == .openSpotify)
        let noWeb = OpenInSpotify(playlist, fallback: .appStore)
        #expect(noWeb.label(spotifyInstalled: false, action: .play) == .getSpotifyFree)
        #expect(noWeb.label(spotifyInstalled: true) == .openSpotify)
        #expect(noWeb.label() == .openSpotify)
    }

    /// Opening tries each URL in order and stops at the first one accepted: no `canOpenURL`, which
    /// Apple deprecated in favour of attempting and handling the failure.
    @Test(arguments: [
        (installed: true, fallback: OpenInSpotify.Fallback.webPlayer, tried: 1),
        (installed: false, fallback: .webPlayer, tried: 2), (installed: false, fallback: .appStore, tried: 2),
    ])
    func openingStopsAtTheFirstURLAccepted(installed: Bool, fallback: OpenInSpotify.Fallback, tried: Int) async {
        let link = OpenInSpotify(playlist, fallback: fallback)
        let attempts = Lock<[URL]>([])
        let opened = await link.open { url in
            attempts.withLock { $0.append(url) }
            return url.scheme != "spotify" || installed
        }
        #expect(attempts.withLock { $0 } == Array(link.urls.prefix(tried)))
        #expect(opened == link.url(spotifyInstalled: installed))
    }

    /// iOS: Spotify's content link first (no confirmation prompt before Spotify opens), with the
    /// app's bundle ID as its campaign and the universal link as its canonical URL; then the
    /// universal link or the App Store page; the `spotify:` URI last.
    @Test func onIOSTheContentLinkComesFirst() throws {
        let link = OpenInSpotify(playlist, campaign: "com.example.journal")
        let urls = link.urls(preferringContentLink: true)
        #expect(
            urls.map(\.absoluteString) == [
                "https://spotify.link/content_linking?~campaign=com.example.journal&$canonical_url=https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n",
                "https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n",
            ])
        let components = try #require(URLComponents(url: urls[0], resolvingAgainstBaseURL: false))
        #expect(components.queryItems?.first { $0.name == "$canonical_url" }?.value == playlist.webURL.absoluteString)
        let noWeb = OpenInSpotify(playlist, fallback: .appStore, campaign: "com.example.journal")
        #expect(noWeb.urls(preferringContentLink: true) == [noWeb.contentLink, appStore, noWeb.appURL])
        // This machine (Linux) is not the iOS family: the URI first, as before.
        #expect(!OpenInSpotify.platformPrefersContentLink)
        #expect(link.urls == link.urls(preferringContentLink: false))
    }

    @Test func nothingOpensWhenNothingIsAccepted() async {
        let opened = await OpenInSpotify(playlist).open { _ in false }
        #expect(opened == nil)
    }
}
