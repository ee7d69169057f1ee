public import Foundation
import HTTPTypes
public import Logging
import SpotifyLinkSupport

/// A typed client for the Spotify Web API as it behaves since 2026.
///
/// Every request passes one rate-limit gate shared by all of the client's requests and a
/// ``RequestLedger`` that may be shared by every client of the same app on the device (a cooldown
/// learned from a 429 stops them all; every request is counted). It gets its token from an
/// ``AccessTokenProvider`` (refreshed once on 401), and retries GETs on 5xx and transport errors
/// with capped backoff. Identical GETs in flight at once share one request. Requests are validated
/// before they are sent.
public final class SpotifyClient: Sendable {
    /// Where and how the client talks to Spotify.
    public struct Configuration: Sendable {
        /// The Web API base, ending in `/v1`.
        public var apiBaseURL: URL
        /// Time allowed for one exchange.
        public var requestTimeout: Duration = .seconds(30)
        /// The largest response body accepted (a larger one is an error, not unbounded memory).
        public var maxResponseBytes: Int = 8 * 1024 * 1024
        /// Rate-limit behaviour: the longest wait accepted, backoff steps and optional pacing.
        package var rateLimit = RateLimit()
        /// Tries of a GET that meets a 5xx or a transport error.
        package var maxAttempts: Int = 3
        /// 429s a single request will wait through before giving up.
        package var maxRateLimitRetries: Int = 5
        /// Pages fetched at once when reading all of a playlist, to begin with.
        package var pageConcurrency: Int = 4
        /// The most pages in flight: concurrency grows toward it while Spotify answers without a
        /// 429 and halves on one.
        package var maxPageConcurrency: Int = 8

        /// The longest a request waits out a rate limit (Spotify's `Retry-After`, or the cooldown
        /// another request learned) before failing with ``SpotifyAPIError/Code/rateLimited`` and
        /// the time to retry; one minute by default. An interactive tool may prefer a few seconds.
        public var maxRateLimitWait: Duration {
            get { rateLimit.maxWait }
            set { rateLimit.maxWait = newValue }
        }

        /// A configuration for the Web API at `apiBaseURL` (ending in `/v1`).
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

    /// Where the client sends requests, and how many pages it reads at once.
    public let configuration: Configuration
    let tokens: any AccessTokenProvider
    let transport: any Transport
    /// The clock for backoff, rate-limit waits and fetch dates.
    package let clock: any SpotifyClock
    let logger: Logger?
    /// The one authority over whether a request may leave now (rate-limit window and cooldowns).
    let admission: Admission
    /// A number in `0..<1` for each backoff, spreading retries across clients; fixed in tests.
    let jitter: @Sendable () -> Double
    /// The cooldown and request counts this client honours and adds to.
    package let ledger: RequestLedger
    let inFlight = InFlightRequests()
    let validators = ValidatorCache()
    /// The stages of every attempt, outermost first: ETags, the ledger, the log; the transport
    /// last. Built once: what differs between requests travels in their `ExchangeContext`.
    let stages: [any ExchangeStage]

    /// Who is asking, for the requests of the current task and its children.
    @TaskLocal package static var requestOrigin: RequestOrigin = .person

    /// - Parameters:
    ///   - configuration: `.live` or `.emulator(url:)`, with limits.
    ///   - tokens: where access tokens come from.
    ///   - transport: the HTTP transport; `URLSessionTransport` by default.
    ///   - clock: time for backoff and rate-limit waits.
    ///   - logger: debug-level request logs, and a warning when the ledger could not keep a cooldown;
    ///     nothing is logged without one. Tokens are never logged.
    ///   - ledger: the cooldown and request counts shared with the app's other clients and processes;
    ///     by default this client's alone, in memory.
    public convenience init(
        configuration: Configuration,
        tokens: any AccessTokenProvider,
        transport: any Transport = platformDefaultTransport(),
        clock: any SpotifyClock = SystemClock(),
        logger: Logger? = nil,
        ledger: RequestLedger = .inMemory()
    ) {
        self.init(
            configuration: configuration, tokens: tokens, transport: transport, clock: clock, logger: logger,
            ledger: ledger, jitter: { Double.random(in: 0..<1) })
    }

    /// A client whose backoff and rate-limit spreading take `jitter` (in `0..<1`) in place of a
    /// random number, so tests see exact waits.
    package init(
        configuration: Configuration,
        tokens: any AccessTokenProvider,
        transport: any Transport,
        clock: any SpotifyClock,
        logger: Logger? = nil,
        ledger: RequestLedger,
        jitter: @escaping @Sendable () -> Double
    ) {
        self.configuration = configuration
        self.tokens = tokens
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.ledger = ledger
        self.jitter = jitter
        self.admission = Admission(
            policy: configuration.rateLimit, ledger: ledger, clock: clock, jitter: jitter, logger: logger)
        self.stages =
            [ConditionalRequestStage(cache: validators), LedgerStage(ledger: ledger, clock: clock)]
            + (logger.map { [LoggingStage(logger: $0)] } ?? [])
    }

    /// The cooldown in force now, if any: why no request may leave and until when. It is learned
    /// here (a 429 closes the window for every request of the client) or by any client or process
    /// sharing the ledger; a quota cooldown comes before a rate limit. `nil` when requests may go.
    public func cooldown() async -> Cooldown? {
        await admission.cooldown()
    }

    /// The requests this client's app spent in the last hour and 24 hours, by endpoint.
    public func requestUsage() async throws -> RequestUsage {
        try await ledger.usage(at: clock.now)
    }

    /// Runs `body` with its requests marked as coming from `origin`.
    ///
    /// Background work stops at the ledger's daily budget with
    /// ``SpotifyAPIError/Code-swift.struct/budgetExhausted``; the refresher and the now-playing
    /// monitor mark theirs so.
    public static func withOrigin<T: Sendable>(
        _ origin: RequestOrigin, _ body: () async throws -> T, isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        try await $requestOrigin.withValue(origin, operation: body, isolation: isolation)
    }
}
