public import Foundation
import SpotifyLinkSupport

/// The one error the Web API layer throws.
///
/// Compare ``code`` to decide what to do; show ``message`` to people: it says what to do next.
public struct SpotifyAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package init(name: String) { self.name = name }
        /// 401 even after a refresh: the sign-in no longer works for this call.
        public static let unauthorized = Code(name: "unauthorized")
        /// A 403 of no known kind.
        public static let forbidden = Code(name: "forbidden")
        /// 403: the account is not on the app's user list (Development Mode allows 5 users); the
        /// app's owner adds it under User Management in the developer dashboard.
        public static let userNotRegistered = Code(name: "userNotRegistered")
        /// 403: the app owner's Premium subscription lapsed; the app stops for everyone until the
        /// owner resubscribes (which can take hours to take effect).
        public static let ownerPremiumRequired = Code(name: "ownerPremiumRequired")
        /// 403 `PREMIUM_REQUIRED` on a player command: the *user's* account is not Premium. Not
        /// the owner's lapsed subscription (``ownerPremiumRequired``); nothing else stops.
        public static let userPremiumRequired = Code(name: "userPremiumRequired")
        /// 403, or refused before sending: the sign-in lacks a scope (``SpotifyAPIError/scope``);
        /// only a new sign-in asking for it helps.
        public static let missingScope = Code(name: "missingScope")
        /// 403 on a playlist's entries: the user neither owns nor collaborates on it (its details
        /// are still readable).
        public static let playlistNotOwned = Code(name: "playlistNotOwned")
        /// 404: the object does not exist, or Spotify does not show it to apps.
        public static let notFound = Code(name: "notFound")
        /// Spotify's 30-second rate limit: wait ``SpotifyAPIError/retryAfter``.
        public static let rateLimited = Code(name: "rateLimited")
        /// Spotify's Development Mode request quota (`QUOTA_EXCEEDED`): nothing is sent until
        /// ``SpotifyAPIError/retryAt``, usually hours away.
        public static let quotaExceeded = Code(name: "quotaExceeded")
        /// The app's own daily budget (``RequestLedger/dailyBudget``) is spent: background requests
        /// wait until ``SpotifyAPIError/retryAt``; requests a person asks for still go.
        public static let budgetExhausted = Code(name: "budgetExhausted")
        /// 400 for another reason than a bad identifier.
        public static let badRequest = Code(name: "badRequest")
        /// 5xx after the retries a GET gets.
        public static let server = Code(name: "server")
        /// Spotify could not be reached, or the connection broke.
        public static let transport = Code(name: "transport")
        /// The answer was larger than the client reads.
        public static let responseTooLarge = Code(name: "responseTooLarge")
        /// The answer could not be read as the expected shape.
        public static let decoding = Code(name: "decoding")
        /// A parameter is out of Spotify's range (a limit of 51, say); nothing was sent.
        public static let invalidRequest = Code(name: "invalidRequest")
        /// Text that is not a Spotify ID, URI or link; nothing was sent.
        public static let invalidIdentifier = Code(name: "invalidIdentifier")
        /// The request ledger (the file or database that counts this app's requests) could not be
        /// opened, read or written; its message says what failed and what to do. Nothing was sent:
        /// a ledger fails closed, since requests it cannot count could take the app's processes
        /// past the quota they share, or leave during a cooldown (which Spotify lengthens).
        public static let ledgerUnavailable = Code(name: "ledgerUnavailable")

        /// The code's name, as its static property is spelled.
        public var description: String { name }

        /// Matches a ``SpotifyAPIError`` of this code, so `catch SpotifyAPIError.Code.x { … }` and
        /// `case SpotifyAPIError.Code.x:` read as the code they handle.
        public static func ~= (code: Self, error: any Error) -> Bool { code.matches(error) }
    }

    /// What went wrong, to match on: `catch SpotifyAPIError.Code.notFound`.
    public package(set) var code: Code
    /// The HTTP status, where the service answered.
    public package(set) var status: Int?
    /// A sentence for people, saying what happened and what to do next. Never contains a secret.
    public package(set) var message: String
    /// For ``Code/rateLimited``, ``Code/quotaExceeded`` and ``Code/budgetExhausted``: how long to wait.
    public package(set) var retryAfter: Duration?
    /// For the same codes: the moment requests may be sent again.
    public package(set) var retryAt: Date?
    /// For ``Code/invalidRequest``: the parameter at fault.
    public package(set) var parameter: String?
    /// For ``Code/missingScope``: the scope a new sign-in must ask for.
    public package(set) var scope: String?
    /// The error underneath, if any (a transport or decoding error).
    public package(set) var underlying: (any Error & Sendable)?
    /// For ``Code/transport``: nothing answered at the address (the connection was refused, the
    /// host is unknown): trying again at once cannot help, so the client does not.
    package var nothingAnswered = false
    /// For ``Code/transport``: the server took the connection but sent nothing back within the
    /// transport's answer deadline (a stalled proxy, a captive portal): the request is not tried
    /// again, and the message says Spotify is not answering.
    package var notAnswering = false

    /// An error with `code` and `message` and what is known of the answer.
    package init(
        code: Code,
        status: Int? = nil,
        message: String,
        retryAfter: Duration? = nil,
        retryAt: Date? = nil,
        parameter: String? = nil,
        scope: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.scope = scope
        self.code = code
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
        self.retryAt = retryAt
        self.parameter = parameter
        self.underlying = underlying
    }

    /// Whether this is one of Spotify's refusals (a 403 of any kind, or a scope missing before
    /// sending): retrying, refreshing or polling again cannot help.
    public var isRefusal: Bool {
        [.forbidden, .userNotRegistered, .ownerPremiumRequired, .userPremiumRequired, .missingScope, .playlistNotOwned]
            .contains(code)
    }

    /// Whether the refusal concerns the whole account or app rather than one object: background
    /// work stops on it.
    public var refusesAccount: Bool {
        [.userNotRegistered, .ownerPremiumRequired, .missingScope].contains(code)
    }

    /// What a ``Transport`` throws when no answer arrived; `detail` says why in a few words
    /// ("could not connect (connection refused)"). Code ``Code/transport``.
    @_spi(Transport) public static func transport(_ detail: String) -> SpotifyAPIError {
        SpotifyAPIError(code: .transport, message: sanitized(detail))
    }

    /// What a transport of the package throws when nothing answered at the address: no retry.
    package static func refused(_ detail: String) -> SpotifyAPIError {
        var error = transport(detail)
        error.nothingAnswered = true
        return error
    }

    /// What a transport of the package throws when nothing of an answer came back within `limit`
    /// of sending (connection, request and the answer's first line): no retry.
    package static func notAnswering(within limit: Duration) -> SpotifyAPIError {
        var error = transport("nothing came back within \(limit.components.seconds) s")
        error.nothingAnswered = true
        error.notAnswering = true
        return error
    }

    /// What a ``Transport`` throws when the exchange outlived its timeout. Code ``Code/transport``.
    @_spi(Transport) public static var timedOut: SpotifyAPIError { .transport("the request timed out") }

    /// What a ``Transport`` throws when the body is larger than `limit` bytes; reading stopped
    /// there. Code ``Code/responseTooLarge``; like the others, its message is a detail the layer
    /// above words for people.
    @_spi(Transport) public static func responseTooLarge(limit: Int) -> SpotifyAPIError {
        SpotifyAPIError(code: .responseTooLarge, message: "the response was larger than \(limit) bytes")
    }

    static func invalid(_ parameter: String, _ message: String) -> SpotifyAPIError {
        SpotifyAPIError(code: .invalidRequest, message: message, parameter: parameter)
    }

    /// Keeps a service-provided text to one line of bounded length, so it can neither flood a log
    /// nor split a log line: control characters (C0, C1, ESC, and Unicode's other format
    /// controls), line and paragraph separators, bidirectional overrides and marks and the
    /// zero-width space become spaces.
    package static func sanitized(_ text: String, limit: Int = 200) -> String {
        var cleaned = String(
            text.unicodeScalars.map { scalar in
                let unsafe = CharacterSet.controlCharacters.contains(scalar) || scalar.isInvisibleControl
                return unsafe ? " " : Character(scalar)
            })
        if cleaned.count > limit { cleaned = String(cleaned.prefix(limit)) + "…" }
        return cleaned
    }

    /// The type, the code, the HTTP status where there was one, and the message.
    public var description: String { codedDescription }

    /// Errors are equal when their codes are: what happened, not how it was worded.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}

extension SpotifyAPIError {
    /// `error`, a failure of the request ledger's storage, as this layer's error: code
    /// ``Code/ledgerUnavailable``, with the storage's own words when it has them (an error of
    /// the package's other layers has them).
    package static func ledgerUnavailable(_ error: any Error) -> SpotifyAPIError {
        if let error = error as? SpotifyAPIError { return error }
        let message =
            (error as? any CodedError)?.message
            ?? "The request ledger could not be read or written (\(error)), so nothing was sent to Spotify. "
            + "Check that the data folder is writable and has free space, then try again."
        return SpotifyAPIError(code: .ledgerUnavailable, message: message, underlying: error)
    }
}

extension SpotifyAPIError: CodedError {}

extension SpotifyAPIError.Code: ErrorCode {
    package typealias Failure = SpotifyAPIError
}
