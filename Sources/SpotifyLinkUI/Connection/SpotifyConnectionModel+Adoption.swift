public import Foundation
public import SpotifyAuth
import SpotifyWebAPI

extension SpotifyConnectionModel {
    /// Keeps a user connected who connected Spotify before the app used SpotifyLink, when the
    /// app kept that sign-in in `UserDefaults` itself: call it once at launch, before anything asks
    /// Spotify.
    ///
    /// The refresh token under `refreshTokenKey` is checked with one refresh and its tokens saved
    /// in the package's store (the Keychain on Apple platforms); then that key and `otherKeys` (the
    /// earlier access token, its expiry…) are removed, also when Spotify refused the token, which
    /// leaves the model saying why the user must connect again. When Spotify could not be reached,
    /// the keys stay for the next launch and ``phase`` says what failed. With no token under the
    /// key, or once the package holds a sign-in, it sends nothing.
    ///
    /// <doc:UpgradingAnApp> shows the call in an app's root.
    ///
    /// - Parameters:
    ///   - defaults: where the app kept its sign-in.
    ///   - refreshTokenKey: the key of the refresh token (a string).
    ///   - scopes: the scopes the app asked for when the user signed in.
    ///   - signedInAtKey: the key of the sign-in's date, if the app kept one (Spotify ends a
    ///     sign-in six months after it began).
    ///   - otherKeys: what else of the earlier sign-in to remove with it.
    /// - Returns: what happened to the earlier sign-in; `nil` when there was none, or when it is kept
    ///   for the next launch.
    @discardableResult
    public func adoptEarlierSignIn(
        from defaults: UserDefaults, refreshTokenKey: String, scopes: [String], signedInAtKey: String? = nil,
        removing otherKeys: [String] = []
    ) async -> SignInAdoption? {
        guard let token = defaults.string(forKey: refreshTokenKey), !token.isEmpty else { return nil }
        let earlier = EarlierSignIn(
            refreshToken: RefreshToken(token), scopes: scopes,
            signedInAt: signedInAtKey.flatMap { defaults.object(forKey: $0) as? Date })
        let forget = {
            for key in [refreshTokenKey] + otherKeys + [signedInAtKey].compactMap({ $0 }) {
                defaults.removeObject(forKey: key)
            }
        }
        await storedSignInKnown()
        do {
            let adoption = try await session.adopt(earlier)
            forget()
            _ = await readStoredSignIn()
            return adoption
        } catch let error as OAuthError where error.code == .needsSignIn {
            // Refused for good: the session's status says why (the follower shows it).
            forget()
            return nil
        } catch {
            if !isConnected, let message = SpotifyMessage(error, now: client.clock.now) { showFailure(message) }
            return nil
        }
    }
}
