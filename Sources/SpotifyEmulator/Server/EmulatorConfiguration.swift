public import Foundation

/// How an emulator runs: where it listens, who may sign in, how the world looks and misbehaves.
public struct EmulatorConfiguration: Sendable {
    /// An app registered with the emulator's accounts service.
    public struct Client: Sendable, Hashable {
        public var id: String
        /// The app's name, shown on the consent page.
        public var name: String
        /// The registered redirect URIs, matched exactly (a loopback URI's port aside, as Spotify does).
        public var redirectURIs: [String]
        /// Only for the client-credentials flow and confidential apps; public (PKCE) apps have none.
        public var secret: String?
        /// The developer account that owns the app: apps of one developer share one request quota.
        public var developer: String
        /// When the client ID was created. Spotify postponed its February 2026 endpoint
        /// restrictions for client IDs created before 2026-02-11: such a client still gets the
        /// plan, email and country on `/me`, `GET /users/{id}`, `GET /tracks?ids=` and
        /// `GET /markets`, which a newer client is refused. By default 2026-06-01, a newer client.
        public var created: Date = Client.newClientCreated

        /// The day Spotify's February 2026 restrictions apply from: clients created earlier keep
        /// what they removed.
        package static let restrictionsApplyFrom = Date(timeIntervalSince1970: 1_770_768_000)  // 2026-02-11
        /// The creation date of a client unless told otherwise: after the restrictions.
        package static let newClientCreated = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01

        /// Whether the client was created before 2026-02-11 and so keeps what Spotify postponed removing.
        package var predatesRestrictions: Bool { created < Self.restrictionsApplyFrom }

        /// - Parameters:
        ///   - id: the client ID apps send.
        ///   - name: the app's name on the consent page.
        ///   - redirectURIs: the registered redirect URIs, matched exactly (a loopback port aside).
        ///   - secret: the client secret, for client credentials; `nil` for a public (PKCE) app.
        ///   - developer: the owning developer account; every client belongs to `developer` unless told otherwise.
        public init(
            id: String, name: String? = nil, redirectURIs: [String], secret: String? = nil,
            developer: String = "developer"
        ) {
            self.id = id
            self.name = name ?? id
            self.redirectURIs = redirectURIs
            self.secret = secret
            self.developer = developer
        }
    }

    /// Whether a refresh hands out a new refresh token.
    public enum RefreshRotation: String, Sendable, CaseIterable {
        /// Live Spotify since mid 2026: the refresh token stays the same.
        case none
        /// Before 2026: every refresh rotates, and replaying an old one revokes the family.
        case rotate
    }

    /// Which key generation responses carry.
    public enum Shape: String, Sendable, CaseIterable {
        /// `items` and `item` only, as live since 2026.
        case current = "2026"
        /// Old and new keys side by side (`tracks` + `items`, `track` + `item`).
        case transition
    }

    /// Where the emulator's time comes from.
    public enum TimeSource: Sendable {
        /// The system clock.
        case system
        /// Frozen at a start date; moves only through `/emulator/clock/advance`.
        case virtual(start: Date)
        /// Read from the caller (a test clock), so client and emulator share one timeline.
        case external(@Sendable () -> Date)
    }

    /// The address to listen on; only loopback addresses are sensible.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 for any free one (``EmulatorServer/baseURL`` tells which).
    public var port = 0
    /// The seed of the generated catalogue and of every random choice, so runs repeat.
    public var seed: UInt64 = 1
    /// Approve every authorization request at once, as Spotify does for an app the user approved before.
    public var autoApprove = false
    /// The apps registered with the accounts service.
    public var clients = [
        Client(id: "spotlink-demo", name: "SpotifyLink Demo", redirectURIs: ["http://127.0.0.1/callback"])
    ]
    /// How long an access token lives.
    public var accessTokenTTL: Duration = .seconds(3600)
    /// Whether a refresh returns a new refresh token.
    public var refreshRotation: RefreshRotation = .none
    /// How long every Web API answer takes, the emulator's own work included (benchmarks use 40 ms), plus
    /// up to ``latencyJitter``: a request is handled when it arrives and answered when this has passed.
    public var latency: Duration = .zero
    /// A random extra delay of up to this much on every response.
    public var latencyJitter: Duration = .zero
    /// Requests per rolling 30 s per client before 429s; `nil` for no limit.
    public var rateLimit: Int?
    /// Web API requests per developer account in ``quotaWindow`` before 429 `QUOTA_EXCEEDED`, as a
    /// Development Mode app meets since July 2026; `nil` for no quota. Requests made while limited
    /// count too.
    public var quota: Int?
    /// The quota's rolling window (a day, as observed live).
    public var quotaWindow: Duration = .seconds(86_400)
    /// Small playlists added to the user's library after the generated ones (for tests and benches
    /// that need a large library); the generated playlists keep their IDs.
    public var extraLibraryPlaylists = 0
    /// Screenshot mode: every image (playlist covers, album art, pictures) is a plain grey
    /// placeholder of the size Spotify serves, the names stay. App Store screenshots must not show
    /// album art; an app takes them against the emulator in this mode.
    public var placeholderImages = false
    /// Share of Web API requests answered with a 5xx, decided by the seed.
    public var serverErrorRate: Double = 0
    /// A catalogue file to serve instead of the generated one.
    public var catalogFile: URL?
    /// Which generation of response shapes to answer with.
    public var shape: Shape = .current
    /// Where the emulator's time comes from.
    public var time: TimeSource = .system
    /// The bearer token the control API (`/emulator/...`) asks for; `nil` draws a random one from
    /// the system's generator (never from ``seed``, so it cannot be guessed).
    public var controlToken: String?
    /// How long a connection may stay without a byte from the client (a request head that never
    /// completes, or an idle kept-alive connection) before the emulator closes it, as Spotify's
    /// front end does.
    public var connectionIdleTimeout: Duration = .seconds(10)

    /// The defaults: a loopback port, the demo client, hour-long tokens, the 2026 shapes, the system clock.
    public init() {}
}
