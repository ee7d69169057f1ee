import Foundation
public import PlaylistLinks
public import SpotifyAuth
public import SpotifyLinkServices
public import SpotifyNowPlaying
public import SpotifyWebAPI

/// Everything an app needs for Spotify, put together once at launch with this platform's defaults,
/// and the models its screens bind to.
///
/// Make it once, in the app's `@main` App (an app has no top-level code). Making it touches no disk,
/// so it costs the launch nothing; its databases open at their first use, off the main actor:
///
/// ```swift
/// @main struct JournalApp: App {
///     @State private var spotify = SpotifyLink(clientID: "YOUR_CLIENT_ID", redirectURI: "myapp://spotify-callback")
///     var body: some Scene { WindowGroup { ConnectRow(spotify: spotify) } }
/// }
/// ```
///
/// Its parts (the sign-in, the request ledger, the client, the link store) are a
/// `SpotifyServices` (`SpotifyLinkServices`), the one composition root the command line and the tests
/// build from too; this adds the ``SpotifyConnectionModel`` the settings screen binds to, the other
/// models on demand, and the words they speak in. Every part stays replaceable through
/// ``Configuration``. Make one per process: the session is what makes a refresh happen once.
@MainActor
public final class SpotifyLink {
    /// What the app is, and where its parts live: `SpotifyServices.Configuration`.
    public typealias Configuration = SpotifyServices.Configuration

    /// The parts the models call through.
    package let services: SpotifyServices
    /// The sign-in.
    public var session: SpotifySession { services.session }
    /// The request counts and cooldowns every request honours.
    public var ledger: RequestLedger { services.ledger }
    /// The Web API client every model calls through.
    public var client: SpotifyClient { services.client }
    /// The links from the app's records to playlists, with their saved details and covers.
    public var links: LinkedPlaylists { services.links }
    /// The settings screen's Connect / Disconnect.
    public let connection: SpotifyConnectionModel
    /// The parental gate a children's app sets in its configuration (`parentalGate`): the sign-in,
    /// every "Open in Spotify" of the models and the picker's list go through it. Bind a sheet to
    /// its `challenge`; without a gate it never shows one.
    public let parentalGate: ParentalGateModel

    /// What this app may do with Spotify for the signed-in user, asked in at most five requests and
    /// never during a cooldown (`SpotifyServices.capabilities(needing:)`); word each finding with
    /// `text(SpotifyMessage(finding))`.
    public func capabilities(needing scopes: [String] = SpotifyScope.all) async throws -> CapabilityReport {
        try await services.capabilities(needing: scopes)
    }
    /// How the models' messages are worded: `text(card.note)`.
    public let text: SpotifyText

    /// The records the extensions show (``showInExtensions(_:)``); `nil` before the app names them.
    var extensionRecords: [ExtensionRecord]?
    /// The snapshot's write in progress: the next one waits for it.
    var extensionsWrite: Task<Void, Never>?
    /// The write due once the latest changes settle.
    var extensionsPending: Task<Void, Never>?
    /// Why the last write of the extensions' snapshot failed; `nil` once one succeeds.
    package internal(set) var extensionsFailure: (any Error)?
    /// Whether the learner's recent songs go into the snapshot (``showInExtensions(_:recentSongs:)``).
    var extensionsShowSongs = false
    /// The learner's recent songs as the snapshot shows them; a disconnect forgets them.
    var extensionSongs: [ExtensionSnapshot.Track] = []
    /// How many times WidgetKit was asked to reload (once per change in what widgets show).
    package internal(set) var widgetReloadsAsked = 0
    /// Where routines' Live Activities are shown: ActivityKit on iOS, none elsewhere (tests set a
    /// recording host).
    package var routineActivityHost: (any RoutineActivityHost)? = SpotifyLink.platformRoutineActivityHost
    /// The routine Live Activity models made, to stop at a disconnect.
    var routineActivities: [WeakRoutineActivity] = []

    /// Spotify for the app with `clientID`, signing in through `redirectURI`, with the platform's
    /// defaults.
    public convenience init(clientID: String, redirectURI: String) {
        self.init(Configuration(clientID: clientID, redirectURI: redirectURI))
    }

    /// Spotify for the app `configuration` describes, its messages worded by `text`.
    ///
    /// Making it touches no disk: the databases are opened (created, migrated) and the install
    /// checked at their first use, off the main actor, so it can be made as the app launches. A data
    /// folder that cannot be opened does not stop the app: the models show it as their state
    /// (``SpotifyMessage/storageUnavailable``), and the next use tries again.
    public convenience init(_ configuration: Configuration, text: SpotifyText = SpotifyText()) {
        self.init(services: SpotifyServices(configuration), text: text)
    }

    /// The models over `services`, their messages worded by `text`.
    public init(services: SpotifyServices, text: SpotifyText = SpotifyText()) {
        self.services = services
        self.text = text
        let gate = ParentalGateModel(gate: services.configuration.parentalGate)
        parentalGate = gate
        connection = SpotifyConnectionModel(
            session: services.session, client: services.client, redirectURI: services.configuration.redirectURI,
            links: services.links, extensionSnapshot: services.extensionSnapshot, parentalGate: gate)
        connection.afterSignOut = { [weak self] in await self?.disconnected() }
    }

    /// A `SpotifyLink` for SwiftUI previews, signed in as a sample listener with sample playlists,
    /// songs and a song playing (`SpotifyServices.preview()`): no request leaves the process and
    /// nothing is written to disk, so every model can be previewed.
    ///
    /// ```swift
    /// let spotify = SpotifyLink.preview()
    /// let card = spotify.card(for: SpotifyServices.previewRecord)   // "Deep Work", 50 tracks, saved
    /// let picker = spotify.picker()                                  // three sample playlists
    /// ```
    public static func preview() -> SpotifyLink {
        SpotifyLink(services: .preview())
    }

    /// The card of `record`'s playlist, read from the links and refreshed through the client while
    /// Spotify is connected, keeping details as the configuration's `retention` says. The one way to
    /// make a card, as each model below is made here.
    public func card(for record: RecordID) -> PlaylistCardModel {
        PlaylistCardModel(record: record, spotify: self)
    }

    /// The playlist picker over the links (the chosen link and the library copy are kept there);
    /// Spotify is searched only while it is connected.
    public func picker() -> PlaylistPickerModel {
        PlaylistPickerModel(spotify: self)
    }

    /// The now-playing indicator, following the player while Spotify is connected, polling as
    /// `policy` allows: by default within 30 calls an hour of listening (`.responsive`, about 120,
    /// is opt-in: a Development Mode app shares about a thousand a day).
    public func nowPlaying(policy: NowPlayingMonitor.Polling = .default) -> NowPlayingIndicatorModel {
        NowPlayingIndicatorModel(spotify: self, policy: policy)
    }

    /// A routine's Live Activity ("song 3 of ≈ 6", the time left counting down by itself), which
    /// follows the now-playing indicator and ends at every disconnect.
    public func routineActivity() -> RoutineActivityModel {
        let model = RoutineActivityModel(spotify: self)
        routineActivities.removeAll { $0.model == nil }
        routineActivities.append(WeakRoutineActivity(model: model))
        return model
    }

    /// After a disconnect: the learner's songs kept for the snapshot are forgotten, and every
    /// routine Live Activity of the app ends at once; nothing of the account stays shown.
    private func disconnected() async {
        extensionSongs = []
        for activity in routineActivities { activity.model?.disconnected() }
        await routineActivityHost?.endAll()
    }

    /// The song search, through the client while Spotify is connected.
    public func songSearch() -> TrackSearchModel {
        TrackSearchModel(spotify: self)
    }

    /// The learner's profile, saved songs and top songs of `topRange` (the last four weeks unless
    /// told otherwise), through the client while Spotify is connected.
    public func learner(topRange: TopItemsRange = .shortTerm) -> LearnerModel {
        LearnerModel(spotify: self, topRange: topRange)
    }
}

/// A routine Live Activity model, held without keeping it alive.
struct WeakRoutineActivity {
    weak var model: RoutineActivityModel?
}

extension SpotifyLink {
    /// ActivityKit where the platform has it.
    fileprivate static var platformRoutineActivityHost: (any RoutineActivityHost)? {
        #if canImport(ActivityKit)
            ActivityKitRoutineHost()
        #else
            nil
        #endif
    }
}
