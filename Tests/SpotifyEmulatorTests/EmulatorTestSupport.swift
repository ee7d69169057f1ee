import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

let http = TestHTTP()
let rfcVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
let rfcChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

extension EmulatorServer {
    func url(_ path: String, _ query: [(String, String)] = []) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.percentEncodedQuery = TestHTTP.formEncode(query) }
        return components.url!
    }

    func authorizeURL(
        redirect: String = "http://127.0.0.1:4321/callback", challenge: String? = rfcChallenge,
        method: String? = "S256",
        clientID: String = "spotlink-demo", state: String = "st-1"
    ) -> URL {
        var query = [
            ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirect), ("state", state),
            ("scope", EmulatorServer.allScopes.joined(separator: " ")),
        ]
        if let challenge { query.append(("code_challenge", challenge)) }
        if let method { query.append(("code_challenge_method", method)) }
        return url("authorize", query)
    }

    /// Opens the consent page and presses a button, as a browser would; returns the redirect.
    func consent(_ authorize: URL, decision: String = "agree") async throws -> URL {
        let (status, _, page) = try await http.send(.get, authorize)
        let html = String(decoding: page, as: UTF8.self)
        #expect(status == 200, "consent page: \(html.prefix(200))")
        let marker = #"name="request" value=""#
        let start = try #require(html.range(of: marker)).upperBound
        let id = String(html[start...].prefix { $0 != "\"" })
        let (decisionStatus, headers, _) = try await http.send(
            .post, url("authorize/decision"), form: [("request", id), ("decision", decision)])
        #expect(decisionStatus == 302)
        return try #require(headers[.location].flatMap(URL.init(string:)))
    }

    func exchange(code: String, verifier: String = rfcVerifier, redirect: String = "http://127.0.0.1:4321/callback")
        async throws -> (status: Int, headers: HTTPFields, object: [String: Any])
    {
        let (status, headers, body) = try await http.send(
            .post, url("api/token"),
            form: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
                ("client_id", "spotlink-demo"), ("code_verifier", verifier),
            ])
        return (status, headers, (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:])
    }

    func refresh(_ token: String) async throws -> (status: Int, object: [String: Any]) {
        let (status, _, body) = try await http.send(
            .post, url("api/token"),
            form: [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "spotlink-demo")])
        return (status, (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:])
    }

    /// The full sign-in: consent, code, tokens.
    func signIn() async throws -> (access: String, refresh: String) {
        let redirect = try await consent(authorizeURL())
        let code = try #require(redirect.queryValue("code"))
        let result = try await exchange(code: code)
        return (
            try #require(result.object["access_token"] as? String),
            try #require(result.object["refresh_token"] as? String)
        )
    }

    func playlistID(named name: String) async throws -> String {
        try #require(await playlists().first { $0.name == name }?.id)
    }

    /// The catalog's episodes, albums and artists, by ID.
    func episodeIDs() async -> [String] { await state.catalog.episodes.keys.sorted() }
    func albumIDs() async -> [String] { await state.catalog.albums.keys.sorted() }
    func artistIDs() async -> [String] { await state.catalog.artistNames.map(CatalogRenderer.stableID) }
}
