import Foundation
import SpotifyWebAPI

/// The refresh coordinator's decisions, as pure functions of what is stored and what happened:
/// ``SpotifySession`` is the shell that reads the store, takes the lock, calls the token endpoint
/// and saves, and asks these what to do at each step.
enum RefreshRules {
    /// What to do for a caller that wants a token, or whose token was refused.
    enum Decision: Equatable {
        /// Nobody is signed in: fail with "sign in".
        case notSignedIn
        /// Hand out these stored tokens: still good, or someone (this process or another) already
        /// replaced the refused one.
        case useStored(StoredTokens)
        /// Refresh these stored tokens with their refresh token.
        case refresh(StoredTokens)
    }

    /// What a failed refresh means for the stored sign-in.
    enum FailureAction: Equatable {
        /// Spotify refused the refresh token for good: remove the tokens, the user must sign in.
        case signOut(reason: String)
        /// A passing failure (the network, a 5xx): keep the tokens and report the error.
        case keepTokens
    }

    /// Whether `tokens` expire within `margin` of `now` (never, when Spotify gave no lifetime).
    static func isExpiring(_ tokens: StoredTokens, now: Date, margin: TimeInterval) -> Bool {
        guard let expiresAt = tokens.expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= margin
    }

    /// A caller asks for a token: the stored one unless it is about to expire.
    static func forAccess(stored: StoredTokens?, now: Date, margin: TimeInterval) -> Decision {
        guard let stored else { return .notSignedIn }
        return isExpiring(stored, now: now, margin: margin) ? .refresh(stored) : .useStored(stored)
    }

    /// `failed` was refused (a 401), or was about to expire: refresh unless the stored token is
    /// already another, good one. Asked once before the cross-process lock and again under it,
    /// with what the store holds then.
    static func afterRefusal(of failed: AccessToken, stored: StoredTokens?, now: Date, margin: TimeInterval) -> Decision
    {
        guard let stored else { return .notSignedIn }
        if stored.accessToken != failed, !isExpiring(stored, now: now, margin: margin) { return .useStored(stored) }
        return .refresh(stored)
    }

    /// What to do when Spotify refused a refresh token for good.
    enum GrantRefusal: Equatable {
        /// Another process saved other tokens meanwhile: use them, the sign-in goes on.
        case useSaved(StoredTokens)
        /// The store still holds the refused refresh token (or nothing): the sign-in is over.
        case signOut
    }

    /// Spotify refused the refresh token of `refused` for good; `stored` is what the store holds
    /// now. Another process may have refreshed (and rotated) since `refused` was read: its tokens
    /// are used and kept, never removed.
    static func afterRefusedGrant(of refused: StoredTokens, stored: StoredTokens?) -> GrantRefusal {
        guard let stored, stored.refreshToken != nil, stored.refreshToken != refused.refreshToken else {
            return .signOut
        }
        return .useSaved(stored)
    }

    /// What a failed refresh means: `invalid_grant` and "sign in again" end the sign-in; anything
    /// else keeps the tokens, which may work once the failure passes.
    static func afterFailure(_ error: any Error) -> FailureAction {
        if let error = error as? OAuthError, error.code == .invalidGrant || error.code == .needsSignIn {
            return .signOut(reason: error.message)
        }
        return .keepTokens
    }
}
