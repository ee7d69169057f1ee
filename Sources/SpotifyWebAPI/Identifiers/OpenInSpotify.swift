public import Foundation

/// "Open in Spotify" for one playlist, track or album, as Spotify's Design Guidelines and Apple
/// ask for it: what to open, in which order, and the words on the button.
///
/// On iOS (and iPadOS, Mac Catalyst, an iPad app on visionOS) the order is Spotify's iOS content
/// linking page's (https://developer.spotify.com/documentation/ios/tutorials/content-linking):
/// 1. the content link, `https://spotify.link/content_linking?~campaign=<the app's bundle ID>&$canonical_url=<the open.spotify.com link>`,
///    which opens the Spotify app at the item without the confirmation prompt iOS shows before
///    another app opens a `spotify:` URI, and without the app sends the user on to Spotify;
/// 2. the `https://open.spotify.com/…` universal link, which opens the app or, without it, the web
///    player (``Fallback/webPlayer``, the default), or the App Store page of Spotify, for an app
///    that wants no web player (``Fallback/appStore``);
/// 3. the `spotify:` URI, last: only if both links were refused.
///
/// Elsewhere (macOS, Linux) no prompt stands before the URI: it comes first, then the universal
/// link or the App Store page.
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
    /// The content link's `~campaign`: the app's bundle ID, as Spotify's page asks.
    public var campaign: String?
    /// What must pass before anything opens (a children's app's parental gate); not part of what
    /// the link is, so two links to the same item are equal whatever their gate.
    package var gate: (@Sendable () async -> Bool)?

    /// "Open in Spotify" for `reference`, with `fallback` when the app is missing; `campaign` is the
    /// app's bundle ID (the main bundle's by default).
    public init(_ reference: SpotifyReference, fallback: Fallback = .webPlayer, campaign: String? = nil) {
        self.reference = reference
        self.fallback = fallback
        self.campaign = campaign ?? Bundle.main.bundleIdentifier
    }

    /// The `spotify:` URI as a URL: opens the Spotify app.
    public var appURL: URL { URL(string: reference.uri)! }

    /// Spotify's iOS content link for the item, with ``campaign`` when it is known.
    public var contentLink: URL {
        var components = URLComponents(string: "https://spotify.link/content_linking")!
        components.queryItems =
            (campaign.map { [URLQueryItem(name: "~campaign", value: $0)] } ?? [])
            + [URLQueryItem(name: "$canonical_url", value: reference.webURL.absoluteString)]
        // `:` and `/` of the link are fine in a query; `&`, `=`, `+` and `?` inside it are not.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// The link or page that opens without the app: the universal link, or the App Store page.
    private var withoutTheApp: URL { fallback == .webPlayer ? reference.webURL : Self.appStorePage }

    /// The URLs to try, in order, on this platform (see the type's discussion).
    public var urls: [URL] { urls(preferringContentLink: Self.platformPrefersContentLink) }

    /// The URLs to try, in order: the iOS order with `preferringContentLink`, else the desktop's.
    public func urls(preferringContentLink: Bool) -> [URL] {
        preferringContentLink ? [contentLink, withoutTheApp, appURL] : [appURL, withoutTheApp]
    }

    /// Whether this platform opens content links first: the iOS family, where a `spotify:` URI
    /// shows a confirmation prompt first.
    package static var platformPrefersContentLink: Bool {
        #if os(iOS)
            true
        #else
            false
        #endif
    }

    /// The one URL to open when it is known whether Spotify is installed.
    public func url(spotifyInstalled: Bool) -> URL {
        guard spotifyInstalled else { return withoutTheApp }
        return Self.platformPrefersContentLink ? contentLink : appURL
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
    /// `nil` when none did. A link made by a model of an app with a parental gate asks the gate
    /// first, and opens nothing (returns `nil`) unless an adult passes it.
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
        if let gate, !(await gate()) { return nil }
        for url in urls where await open(url) { return url }
        return nil
    }

    public static func == (lhs: OpenInSpotify, rhs: OpenInSpotify) -> Bool {
        lhs.reference == rhs.reference && lhs.fallback == rhs.fallback && lhs.campaign == rhs.campaign
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(reference)
        hasher.combine(fallback)
        hasher.combine(campaign)
    }
}
