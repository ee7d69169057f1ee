import Foundation
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

/// The refresh coordinator's decisions alone: what is stored, what was refused, what failed.
@Suite("Refresh rules")
struct RefreshRulesTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func tokens(_ access: String, expiresIn: TimeInterval?) -> StoredTokens {
        StoredTokens(
            accessToken: AccessToken(access), refreshToken: RefreshToken("r"),
            expiresAt: expiresIn.map { now.addingTimeInterval($0) }, scopes: [], signedInAt: now,
            issuer: "https://accounts.spotify.com", clientID: "c")
    }

    @Test func aCallerGetsTheStoredTokenUntilAMinuteBeforeItExpires() {
        let good = Self.tokens("a", expiresIn: 61)
        let expiring = Self.tokens("a", expiresIn: 60)
        #expect(RefreshRules.forAccess(stored: nil, now: Self.now, margin: 60) == .notSignedIn)
        #expect(RefreshRules.forAccess(stored: good, now: Self.now, margin: 60) == .useStored(good))
        #expect(RefreshRules.forAccess(stored: expiring, now: Self.now, margin: 60) == .refresh(expiring))
        // No lifetime from Spotify: used until a 401 says otherwise.
        let unknown = Self.tokens("a", expiresIn: nil)
        #expect(RefreshRules.forAccess(stored: unknown, now: Self.now, margin: 60) == .useStored(unknown))
    }

    @Test func aRefusedTokenIsRefreshedUnlessSomeoneAlreadyReplacedIt() {
        let refused = AccessToken("old")
        let same = Self.tokens("old", expiresIn: 3000)
        let replaced = Self.tokens("new", expiresIn: 3000)
        let replacedButExpiring = Self.tokens("new", expiresIn: 30)
        #expect(RefreshRules.afterRefusal(of: refused, stored: same, now: Self.now, margin: 60) == .refresh(same))
        #expect(
            RefreshRules.afterRefusal(of: refused, stored: replaced, now: Self.now, margin: 60) == .useStored(replaced))
        #expect(
            RefreshRules.afterRefusal(of: refused, stored: replacedButExpiring, now: Self.now, margin: 60)
                == .refresh(replacedButExpiring))
        #expect(RefreshRules.afterRefusal(of: refused, stored: nil, now: Self.now, margin: 60) == .notSignedIn)
    }

    @Test func onlyARefusedGrantEndsTheSignIn() {
        #expect(
            RefreshRules.afterFailure(OAuthError(code: .invalidGrant, status: 400, message: "Refresh token revoked"))
                == .signOut(reason: "Refresh token revoked"))
        #expect(RefreshRules.afterFailure(OAuthError(code: .needsSignIn, message: "gone")) == .signOut(reason: "gone"))
        #expect(RefreshRules.afterFailure(OAuthError(code: .transient, status: 503, message: "busy")) == .keepTokens)
        #expect(RefreshRules.afterFailure(CancellationError()) == .keepTokens)
    }

    @Test func aRefusedRefreshTokenEndsTheSignInOnlyIfTheStoreStillHoldsIt() {
        var refused = Self.tokens("a", expiresIn: 30)
        refused.refreshToken = RefreshToken("rt-1")
        var rotated = Self.tokens("b", expiresIn: 3000)
        rotated.refreshToken = RefreshToken("rt-2")
        var withoutRefresh = rotated
        withoutRefresh.refreshToken = nil
        #expect(RefreshRules.afterRefusedGrant(of: refused, stored: refused) == .signOut)
        #expect(RefreshRules.afterRefusedGrant(of: refused, stored: nil) == .signOut)
        #expect(RefreshRules.afterRefusedGrant(of: refused, stored: withoutRefresh) == .signOut)
        #expect(RefreshRules.afterRefusedGrant(of: refused, stored: rotated) == .useSaved(rotated))
    }
}
