import SpotifyLinkSupport

/// The one error of sign-in and token handling.
public struct OAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, to match on: `catch OAuthError.Code.accessDenied`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        package let name: String
        package init(name: String) { self.name = name }
        /// The user pressed Cancel on the consent page.
        public static let accessDenied = Code(name: "accessDenied")
        /// The callback's `state` was missing or wrong: possibly forged. Nothing was exchanged.
        public static let stateMismatch = Code(name: "stateMismatch")
        /// The callback named another sign-in service than the one the sign-in started with, or
        /// left out the issuer its service always sends (RFC 9207): a mix-up. Nothing was exchanged.
        public static let issuerMismatch = Code(name: "issuerMismatch")
        /// The callback was malformed (no code, both code and error, duplicated parameters).
        public static let invalidCallback = Code(name: "invalidCallback")
        /// The service sent an error other than `access_denied` to the callback.
        public static let authorizationFailed = Code(name: "authorizationFailed")
        /// `invalid_grant`: the code or refresh token is no longer good. Sign in again.
        public static let invalidGrant = Code(name: "invalidGrant")
        /// `invalid_client`: the client ID (or secret) is not registered.
        public static let invalidClient = Code(name: "invalidClient")
        /// The token endpoint's answer could not be used; stored tokens were not touched.
        public static let malformedResponse = Code(name: "malformedResponse")
        /// A network or server problem; stored tokens are kept, trying again later may work.
        public static let transient = Code(name: "transient")
        /// There are no usable tokens: the user has to sign in.
        public static let needsSignIn = Code(name: "needsSignIn")
        /// The app's setup is wrong (a redirect URI Spotify refuses, say).
        public static let configuration = Code(name: "configuration")
        /// The user did not finish signing in before the deadline.
        public static let timedOut = Code(name: "timedOut")
        /// The sign-in callback listener could not start (the port is taken, or the host is not loopback).
        public static let listenerUnavailable = Code(name: "listenerUnavailable")
        /// The system cannot show this sign-in: an https (universal-link) redirect needs iOS 17.4 or
        /// macOS 14.4. Nothing was shown or sent.
        public static let systemTooOld = Code(name: "systemTooOld")

        /// The code's name, as its static property is spelled.
        public var description: String { name }

        /// Matches a ``OAuthError`` of this code, so `catch OAuthError.Code.x { … }` and
        /// `case OAuthError.Code.x:` read as the code they handle.
        public static func ~= (code: Self, error: any Error) -> Bool { code.matches(error) }
    }

    /// What went wrong.
    public package(set) var code: Code
    /// The HTTP status of the token endpoint's answer, when there was one.
    public package(set) var status: Int?
    /// A sentence for people: what happened and what to do next. Never holds a secret.
    public package(set) var message: String
    /// The error below (a transport failure, say), when there was one.
    public package(set) var underlying: (any Error & Sendable)?

    /// An error with `code` and a `message` for people.
    package init(code: Code, status: Int? = nil, message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.underlying = underlying
    }

    static func needsSignIn(_ reason: String) -> OAuthError {
        OAuthError(code: .needsSignIn, message: "\(reason) Sign in to Spotify again.")
    }

    /// The type, the code, the HTTP status where there was one, and the message.
    public var description: String { codedDescription }

    /// Errors are equal when their codes are: what happened, not how it was worded.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}

extension OAuthError: CodedError {}

extension OAuthError.Code: ErrorCode {
    package typealias Failure = OAuthError
}
