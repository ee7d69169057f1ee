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
        /// Rate-limit behaviour: the longest wait accepted, and optional pacing.
        public var rateLimit = RateLimitGate.Policy()
        /// Tries of a GET that meets a 5xx or a transport error.
        public var maxAttempts: Int = 3
        /// 429s a single request will wait through before giving up.
        public var maxRateLimitRetries: Int = 5
        /// Pages fetched at once when reading all of a playlist, to begin with.
        public var pageConcurrency: Int = 4
        /// The most pages in flight: concurrency grows toward it while Spotify answers without a
        /// 429 and halves on one (``PageConcurrency``).
        public var maxPageConcurrency: Int = 8

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
    public let clock: any SpotifyClock
    let logger: Logger?
    let gate: GateShell
    /// The cooldown and request counts this client honours and adds to.
    public let ledger: RequestLedger
    let inFlight = InFlightRequests()
    let validators = ValidatorCache()

    /// Who is asking, for the requests of the current task and its children.
    @TaskLocal package static var requestPriority: RequestPriority = .userInitiated

    /// - Parameters:
    ///   - configuration: `.live` or `.emulator(url:)`, with limits.
    ///   - tokens: where access tokens come from.
    ///   - transport: the HTTP transport; `URLSessionTransport` by default.
    ///   - clock: time for backoff and rate-limit waits.
    ///   - logger: debug-level request logs; nothing is logged without one. Tokens are never logged.
    ///   - ledger: the cooldown and request counts shared with the app's other clients and processes;
    ///     by default this client's alone, in memory.
    public init(
        configuration: Configuration,
        tokens: any AccessTokenProvider,
        transport: any Transport = platformDefaultTransport(),
        clock: any SpotifyClock = SystemClock(),
        logger: Logger? = nil,
        ledger: RequestLedger = .inMemory()
    ) {
        self.configuration = configuration
        self.tokens = tokens
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.ledger = ledger
        self.gate = GateShell(policy: configuration.rateLimit, clock: clock)
    }

    /// Whether the shared rate-limit gate is closed now, and until when.
    public func rateLimitedUntil() async -> Date? {
        await gate.closedUntil()
    }

    /// The cooldown in force for this client's app now, learned here or by any client or process
    /// sharing its ledger; `nil` when requests may be sent.
    public func cooldown() async -> Cooldown? {
        await ledger.activeCooldown(at: clock.now)
    }

    /// The requests this client's app spent in the last hour and 24 hours, by endpoint.
    public func requestUsage() async throws -> RequestUsage {
        try await ledger.usage(at: clock.now)
    }

    /// Runs `body` with its requests marked as `priority`.
    ///
    /// Background requests stop at the ledger's daily budget with
    /// ``SpotifyAPIError/Code-swift.struct/budgetExhausted``; the refresher and the now-playing
    /// monitor mark theirs so.
    public static func withPriority<T: Sendable>(
        _ priority: RequestPriority, _ body: () async throws -> T, isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        try await $requestPriority.withValue(priority, operation: body, isolation: isolation)
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
            let now = clock.now
            switch gate.admit(now: now) {
            case .proceed: return
            case .wait(let duration): try await clock.sleep(for: duration)
            case .fail(let retryAfter):
                let cooldown = Cooldown(
                    kind: .rateLimit, until: now.addingTimeInterval(retryAfter.seconds), learnedAt: now)
                throw SpotifyAPIError.cooldown(cooldown, now: now)
            }
        }
    }

    /// Keeps the gate closed until at least `date` (a cooldown learned elsewhere).
    func close(until date: Date) { gate.close(until: date) }

    func rateLimited(retryAfter: Duration?) -> RateLimitGate.Decision {
        rateLimitCount += 1
        return gate.recordRateLimited(retryAfter: retryAfter, now: clock.now, jitter: Double.random(in: 0..<1))
    }

    /// 429s this client has met so far, for paging to slow down on.
    private(set) var rateLimitCount = 0

    func succeeded() { gate.recordSuccess() }

    func closedUntil() -> Date? {
        gate.closedUntil.flatMap { $0 > clock.now ? $0 : nil }
    }
}
