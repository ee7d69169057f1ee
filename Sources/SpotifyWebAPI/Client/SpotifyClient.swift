public import Foundation
import HTTPTypes
public import Logging

/// A typed client for the Spotify Web API as it behaves since 2026.
///
/// Every request passes one rate-limit gate shared by all of the client's requests, gets its token
/// from an ``AccessTokenProvider`` (refreshed once on 401), and retries GETs on 5xx and transport
/// errors with capped backoff. Requests are validated before they are sent.
public final class SpotifyClient: Sendable {
    /// Where and how the client talks to Spotify.
    public struct Configuration: Sendable {
        /// The Web API base, ending in `/v1`.
        public var apiBaseURL: URL
        /// Time allowed for one exchange.
        public var requestTimeout: Duration = .seconds(30)
        /// The largest response body accepted (a larger one is an error, not unbounded memory).
        public var maxResponseBytes: Int = 8 * 1024 * 1024
        /// Rate-limit behaviour: the longest wait accepted, and optional pacing.
        public var rateLimit = RateLimitGate.Policy()
        /// Tries of a GET that meets a 5xx or a transport error.
        public var maxAttempts: Int = 3
        /// 429s a single request will wait through before giving up.
        public var maxRateLimitRetries: Int = 5
        /// Pages fetched at once when reading all of a playlist.
        public var pageConcurrency: Int = 4

        public init(apiBaseURL: URL) {
            self.apiBaseURL = apiBaseURL
        }

        /// The live service at `https://api.spotify.com/v1`.
        public static var live: Configuration { Configuration(apiBaseURL: URL(string: "https://api.spotify.com/v1")!) }

        /// An emulator (or any compatible server) at `baseURL`; `/v1` is appended.
        public static func emulator(url baseURL: URL) -> Configuration {
            Configuration(apiBaseURL: baseURL.appendingPathComponent("v1"))
        }
    }

    public let configuration: Configuration
    let tokens: any AccessTokenProvider
    let transport: any Transport
    /// The clock for backoff, rate-limit waits and fetch dates.
    public let clock: any SpotifyClock
    let logger: Logger?
    let gate: GateShell

    /// - Parameters:
    ///   - configuration: `.live` or `.emulator(url:)`, with limits.
    ///   - tokens: where access tokens come from.
    ///   - transport: the HTTP transport; `URLSessionTransport` by default.
    ///   - clock: time for backoff and rate-limit waits.
    ///   - logger: debug-level request logs; nothing is logged without one. Tokens are never logged.
    public init(
        configuration: Configuration,
        tokens: any AccessTokenProvider,
        transport: any Transport = URLSessionTransport(),
        clock: any SpotifyClock = SystemClock(),
        logger: Logger? = nil
    ) {
        self.configuration = configuration
        self.tokens = tokens
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.gate = GateShell(policy: configuration.rateLimit, clock: clock)
    }

    /// Whether the shared rate-limit gate is closed now, and until when.
    public func rateLimitedUntil() async -> Date? {
        await gate.closedUntil()
    }
}

/// The actor around ``RateLimitGate``: the only place its state changes.
actor GateShell {
    private var gate: RateLimitGate
    private let clock: any SpotifyClock

    init(policy: RateLimitGate.Policy, clock: any SpotifyClock) {
        self.gate = RateLimitGate(policy: policy)
        self.clock = clock
    }

    /// Waits until a request may be sent; throws `rateLimited` if that is longer than allowed.
    func waitForTurn() async throws {
        while true {
            switch gate.admit(now: clock.now) {
            case .proceed: return
            case .wait(let duration): try await clock.sleep(for: duration)
            case .fail(let retryAfter): throw SpotifyAPIError.rateLimited(retryAfter: retryAfter)
            }
        }
    }

    func rateLimited(retryAfter: Duration?) -> RateLimitGate.Decision {
        gate.recordRateLimited(retryAfter: retryAfter, now: clock.now, jitter: Double.random(in: 0..<1))
    }

    func succeeded() { gate.recordSuccess() }

    func closedUntil() -> Date? {
        gate.closedUntil.flatMap { $0 > clock.now ? $0 : nil }
    }
}

extension SpotifyAPIError {
    static func rateLimited(retryAfter: Duration) -> SpotifyAPIError {
        let seconds = Int(retryAfter.seconds.rounded(.up))
        return SpotifyAPIError(
            code: .rateLimited,
            status: 429,
            message: "Spotify's rate limit was reached: retry after \(seconds) s.",
            retryAfter: retryAfter
        )
    }
}
