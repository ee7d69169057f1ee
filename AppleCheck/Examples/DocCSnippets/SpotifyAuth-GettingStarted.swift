// swift-format-ignore-file
// The Swift blocks of SpotifyAuth.docc/GettingStarted.md, as an app's code (see
// PlaylistLinks-GettingStarted.swift).
import AuthenticationServices
import SpotifyAuth
import SwiftUI

func authGettingStartedSession() -> SpotifySession {
    // SpotifyAuth/GettingStarted example 1 begins
    let endpoint = TokenEndpoint(server: .live, clientID: "YOUR_CLIENT_ID")
    #if canImport(Security)
    let store: any TokenStore = KeychainTokenStore()
    #else
    let store: any TokenStore = SecretServiceTokenStore()
    #endif
    let session = SpotifySession(endpoint: endpoint, store: store)
    // SpotifyAuth/GettingStarted example 1 ends
    return session
}

@MainActor func authGettingStartedSignIn(session: SpotifySession, web: WebAuthenticationSession) async throws {
    // SpotifyAuth/GettingStarted example 2 begins
    try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: session) { url, callback in
        if #available(iOS 17.4, macOS 14.4, *) {
            try await web.authenticate(using: url, callback: callback.webAuthentication, additionalHeaderFields: [:])
        } else {
            try await web.authenticate(using: url, callbackURLScheme: "myapp")   // iOS 17.0–17.3
        }
    }
    // SpotifyAuth/GettingStarted example 2 ends
}
