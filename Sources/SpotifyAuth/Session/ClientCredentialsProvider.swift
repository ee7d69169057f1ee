import Foundation
public import SpotifyWebAPI

/// Client-credentials tokens for catalog calls without a user (search, public playlists).
///
/// Only for servers and tools that can keep a secret: never ship a client secret inside an app.
public actor ClientCredentialsProvider: AccessTokenProvider {
    private let endpoint: TokenEndpoint
    private let secret: ClientSecret
    private let clock: any SpotifyClock
    private var current: (token: AccessToken, expiresAt: Date?)?
    private var inFlight: Task<AccessToken, any Error>?

    /// App-only tokens for `endpoint`'s app with `secret`, fetched when first needed and again before they expire.
    public init(endpoint: TokenEndpoint, secret: ClientSecret, clock: any SpotifyClock = SystemClock()) {
        self.endpoint = endpoint
        self.secret = secret
        self.clock = clock
    }

    public func accessToken() async throws -> AccessToken {
        if let current, current.expiresAt.map({ $0.timeIntervalSince(clock.now) > 60 }) ?? true { return current.token }
        return try await fetch()
    }

    public func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken {
        if let current, current.token != failed { return current.token }
        return try await fetch()
    }

    private func fetch() async throws -> AccessToken {
        if let inFlight { return try await inFlight.value }
        let task = Task {
            let (token, expiresAt) = try await endpoint.clientCredentials(secret: secret)
            current = (token, expiresAt)
            return token
        }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }
}
