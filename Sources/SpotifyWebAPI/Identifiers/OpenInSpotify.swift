public import Foundation

/// "Open in Spotify" for one playlist, track or album, as Spotify's Design Guidelines and Apple
/// ask for it: what to open, in which order, and the words on the button.
///
/// The order is:
/// 1. the `spotify:` URI, which opens the Spotify app when it is installed;
/// 2. the `https://open.spotify.com/…` universal link, which opens the app or, without it, the web
///    player (``Fallback/webPlayer``, the default);
/// 3. the App Store page of Spotify, for an app that wants no web player
///    (``Fallback/appStore``).
///
/// Open it by trying each URL of ``urls`` in turn until one is accepted: Apple's advice, now that
/// `UIApplication.canOpenURL(_:)` is deprecated, is to attempt to open a URL and handle the
/// failure rather than ask first. In SwiftUI, `open(with:)` (in the UI module) does that with
/// the view's `openURL`:
///
/// ```swift
/// if let spotify = card.openInSpotify {
///     Button(text(.spotifyButton(spotify.label()))) { Task { await spotify.open(with: openURL) } }
/// }
/// ```
///
/// An app that knows whether Spotify is installed (it calls `canOpenURL` with `spotify` listed
/// under `LSApplicationQueriesSchemes` in its Info.plist) passes that to ``label(spotifyInstalled:action:)``
/// to show "GET SPOTIFY FREE" where the guidelines ask for it. Opening a `spotify:` URI needs no
/// such entry.
public struct OpenInSpotify: Hashable, Sendable {
    /// What opens when the Spotify app is not installed.
    public enum Fallback: Hashable, Sendable {
        /// The universal link: Spotify's web player in the browser.
        case webPlayer
        /// Spotify's page on the App Store, and no web player.
        case appStore
    }

    /// The words Spotify's Design Guidelines give a button that leads to Spotify. `SpotifyText`
    /// in the UI module words them in English and Japanese.
    public enum Label: String, Hashable, Sendable, CaseIterable {
        /// "OPEN SPOTIFY".
        case openSpotify
        /// "PLAY ON SPOTIFY".
        case playOnSpotify
        /// "LISTEN ON SPOTIFY".
        case listenOnSpotify
        /// "GET SPOTIFY FREE": for a device without the Spotify app.
        case getSpotifyFree
    }

    /// What the button does when Spotify is installed; chooses among the guidelines' words.
    public enum Action: Hashable, Sendable {
        /// Opens the item: "OPEN SPOTIFY".
        case open
        /// Starts playing it: "PLAY ON SPOTIFY".
        case play
        /// Listens to it: "LISTEN ON SPOTIFY".
        case listen
    }

    /// Spotify's page on the App Store.
    public static let appStorePage = URL(string: "https://apps.apple.com/app/spotify-music-and-podcasts/id324684580")!

    /// What is opened.
    public var reference: SpotifyReference
    /// What opens without the Spotify app.
    public var fallback: Fallback

    /// "Open in Spotify" for `reference`, with `fallback` when the app is missing.
    public init(_ reference: SpotifyReference, fallback: Fallback = .webPlayer) {
        self.reference = reference
        self.fallback = fallback
    }

    /// The `spotify:` URI as a URL: opens the Spotify app.
    public var appURL: URL { URL(string: reference.uri)! }

    /// The URLs to try, in order: the `spotify:` URI, then the universal link or the App Store page.
    public var urls: [URL] {
        [appURL, fallback == .webPlayer ? reference.webURL : Self.appStorePage]
    }

    /// The one URL to open when it is known whether Spotify is installed.
    public func url(spotifyInstalled: Bool) -> URL {
        spotifyInstalled ? appURL : urls[1]
    }

    /// The button's words: `action`'s with Spotify installed or when that is not known; "GET
    /// SPOTIFY FREE" on a device without it when the fallback is the App Store.
    public func label(spotifyInstalled: Bool? = nil, action: Action = .open) -> Label {
        if spotifyInstalled == false && fallback == .appStore { return .getSpotifyFree }
        switch action {
        case .open: return .openSpotify
        case .play: return .playOnSpotify
        case .listen: return .listenOnSpotify
        }
    }

    /// Tries each of ``urls`` with `open` until one is accepted; returns the URL that opened, or
    /// `nil` when none did.
    ///
    /// - Parameters:
    ///   - isolation: the caller's actor, on which `open` runs (the main actor, for a view's
    ///     `openURL`).
    ///   - open: opens a URL and says whether it was accepted (in SwiftUI, the view's `openURL`
    ///     with a completion; `open(with:)` in the UI module does this).
    @discardableResult
    public func open(
        isolation: isolated (any Actor)? = #isolation, _ open: (URL) async -> Bool
    ) async -> URL? {
        for url in urls where await open(url) { return url }
        return nil
    }
}
