import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

@Suite("Emulator accounts service (checklist rows 36–39)")
struct AccountsTests {
    @Test func fullPKCEFlowThroughTheConsentPage() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let redirect = try await emulator.consent(emulator.authorizeURL())
            #expect(redirect.host == "127.0.0.1" && redirect.port == 4321)
            #expect(redirect.queryValue("state") == "st-1")
            // RFC 9207: the emulator names itself, so a client can refuse a mix-up.
            #expect(redirect.queryValue("iss") == emulator.baseURL.absoluteString)
            let code = try #require(redirect.queryValue("code"))
            let result = try await emulator.exchange(code: code)
            #expect(result.status == 200)
            #expect(result.headers[.cacheControl] == "no-store")
            #expect(result.headers[HTTPField.Name("Pragma")!] == "no-cache")
            #expect(result.object["token_type"] as? String == "Bearer")
            #expect(result.object["expires_in"] as? Int == 3600)
            #expect((result.object["scope"] as? String)?.contains("playlist-read-private") == true)
            let access = try #require(result.object["access_token"] as? String)
            let me = try await http.json(emulator.url("v1/me"), token: access)
            #expect(me.status == 200)
            #expect(me.object["id"] as? String == "emu-user")
        }
    }

    /// An iOS app's redirect: a registered custom scheme gets its code back, and exchanges it.
    @Test func aRegisteredCustomSchemeGetsTheCode() async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients = [
            .init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback", "http://127.0.0.1/callback"])
        ]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let redirect = try await emulator.consent(emulator.authorizeURL(redirect: "myapp://spotify-callback"))
            #expect(redirect.scheme == "myapp" && redirect.host == "spotify-callback")
            let code = try #require(redirect.queryValue("code"))
            let result = try await emulator.exchange(code: code, redirect: "myapp://spotify-callback")
            #expect(result.status == 200)
        }
    }

    @Test func cancelRedirectsWithAccessDenied() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let redirect = try await emulator.consent(emulator.authorizeURL(), decision: "cancel")
            #expect(redirect.queryValue("error") == "access_denied")
            #expect(redirect.queryValue("state") == "st-1")
            #expect(redirect.queryValue("iss") == emulator.baseURL.absoluteString)
            #expect(redirect.queryValue("code") == nil)
        }
    }

    @Test func consentPageNamesUserAppAndScopesInWords() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let (_, headers, body) = try await http.send(.get, emulator.authorizeURL())
            let html = String(decoding: body, as: UTF8.self)
            #expect(html.contains("Emulator User"))
            #expect(html.contains("SpotifyLink Demo"))
            #expect(html.contains("See your private playlists"))
            #expect(html.contains(#"value="agree""#) && html.contains(#"value="cancel""#))
            #expect(headers[.cacheControl] == "no-store")
        }
    }

    static let refusedAuthorizations: [(String, String?, String?, String)] = [
        ("no challenge", nil, nil, "invalid_request"),
        ("plain", rfcVerifier, "plain", "invalid_request"),
        ("short challenge", "abc", "S256", "invalid_request"),
    ]

    @Test(arguments: refusedAuthorizations)
    func refusesAuthorizeWithoutS256(label: String, challenge: String?, method: String?, error: String) async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            let (status, headers, _) = try await http.send(
                .get, emulator.authorizeURL(challenge: challenge, method: method))
            #expect(status == 302, "\(label)")
            let location = try #require(headers[.location].flatMap(URL.init(string:)))
            #expect(location.queryValue("error") == error, "\(label)")
            #expect(location.queryValue("code") == nil)
        }
    }

    /// The accounts service's pages for a redirect URI it will not use, with the texts observed in
    /// 2025–2026: `localhost` keeps the older "Invalid redirect URI", plain `http` off this machine is
    /// insecure, anything else unregistered does not match.
    @Test(arguments: [
        ("http://localhost:4321/callback", "INVALID_CLIENT: Invalid redirect URI"),
        ("http://evil.example/callback", "INVALID_CLIENT: Insecure redirect URI"),
        ("http://127.0.0.1:4321/other", "redirect_uri: Not matching configuration"),
        ("https://evil.example/callback", "redirect_uri: Not matching configuration"),
        ("http://127.0.0.1:4321/callback/", "redirect_uri: Not matching configuration"),
        ("HTTP://127.0.0.1:4321/CALLBACK", "redirect_uri: Not matching configuration"),
        ("myapp://spotify-callback", "redirect_uri: Not matching configuration"),
    ])
    func mismatchedRedirectShowsAnErrorPageAndNeverRedirects(redirect: String, page: String) async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            let (status, headers, body) = try await http.send(.get, emulator.authorizeURL(redirect: redirect))
            #expect(status == 400)
            #expect(headers[.location] == nil)
            #expect(String(decoding: body, as: UTF8.self).contains("<h1>\(page)</h1>"))
        }
    }

    /// The implicit grant (`response_type=token`) was removed: the older page, nothing redirected.
    @Test func theImplicitGrantGetsTheInvalidRedirectPage() async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            var components = try #require(URLComponents(url: emulator.authorizeURL(), resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.map {
                $0.name == "response_type" ? URLQueryItem(name: "response_type", value: "token") : $0
            }
            let (status, headers, body) = try await http.send(.get, try #require(components.url))
            #expect(status == 400 && headers[.location] == nil)
            #expect(String(decoding: body, as: UTF8.self).contains("<h1>INVALID_CLIENT: Invalid redirect URI</h1>"))
        }
    }

    @Test func unknownClientIsRefused() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let (status, headers, body) = try await http.send(.get, emulator.authorizeURL(clientID: "nobody"))
            #expect(status == 400 && headers[.location] == nil)
            #expect(String(decoding: body, as: UTF8.self).contains("<h1>INVALID_CLIENT: Invalid client</h1>"))
        }
    }

    @Test func wrongVerifierIsRefused() async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            let code = try await autoCode(emulator)
            let result = try await emulator.exchange(code: code, verifier: String(repeating: "x", count: 43))
            #expect(result.status == 400)
            #expect(result.object["error"] as? String == "invalid_grant")
            #expect(result.object["error_description"] as? String == "code_verifier was incorrect")
            #expect(result.headers[.cacheControl] == "no-store")
        }
    }

    @Test func verifierWithoutChallengeIsRefused() async throws {
        var configuration = EmulatorConfiguration.autoApproving
        configuration.clients = [
            .init(id: "spotlink-demo", redirectURIs: ["http://127.0.0.1/callback"], secret: "s3cret")
        ]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let (_, headers, _) = try await http.send(.get, emulator.authorizeURL(challenge: nil, method: nil))
            let code = try #require(headers[.location].flatMap(URL.init(string:))?.queryValue("code"))
            let result = try await emulator.exchange(code: code)
            #expect(result.object["error_description"] as? String == "code_verifier was incorrect")
        }
    }

    @Test func reusedCodeIsRefusedAndRevokesWhatItIssued() async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            let code = try await autoCode(emulator)
            let first = try await emulator.exchange(code: code)
            let access = try #require(first.object["access_token"] as? String)
            let refresh = try #require(first.object["refresh_token"] as? String)
            let second = try await emulator.exchange(code: code)
            #expect(second.status == 400)
            #expect(second.object["error_description"] as? String == "Invalid authorization code")
            #expect(try await http.json(emulator.url("v1/me"), token: access).status == 401)
            #expect(
                try await emulator.refresh(refresh).object["error_description"] as? String == "Refresh token revoked")
        }
    }

    @Test func codeOlderThanTenMinutesIsRefused() async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            let code = try await autoCode(emulator)
            await emulator.advanceClock(by: .seconds(601))
            let result = try await emulator.exchange(code: code)
            #expect(result.object["error_description"] as? String == "Authorization code expired")
        }
    }

    @Test func redirectURIMustMatchTheAuthorizeRequest() async throws {
        try await withEmulator(EmulatorConfiguration.autoApproving) { (emulator: EmulatorServer) async throws in
            let code = try await autoCode(emulator)
            let result = try await emulator.exchange(code: code, redirect: "http://127.0.0.1:9999/callback")
            #expect(result.object["error_description"] as? String == "Invalid redirect URI")
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:5000/callback", ["http://127.0.0.1/callback"], true),
        ("http://127.0.0.1/callback", ["http://127.0.0.1/callback"], true),
        ("http://[::1]:5000/callback", ["http://[::1]/callback"], true),
        ("http://127.0.0.1:5000/callback", ["http://127.0.0.1:6000/callback"], false),
        ("http://localhost:5000/callback", ["http://localhost/callback"], false),
        ("myapp://callback", ["myapp://callback"], true),
        ("myapp://callback/", ["myapp://callback"], false),
        ("https://app.example/cb", ["https://app.example/cb"], true),
        ("https://app.example:8443/cb", ["https://app.example/cb"], false),
        ("https://APP.example/cb", ["https://app.example/cb"], false),
        ("", ["http://127.0.0.1/callback"], false),
    ])
    func redirectRules(requested: String, registered: [String], matches: Bool) {
        #expect(EmulatorState.redirectMatches(requested, registered: registered) == matches)
    }

    @Test(arguments: [EmulatorConfiguration.RefreshRotation.none, .rotate])
    func refreshRotationModes(rotation: EmulatorConfiguration.RefreshRotation) async throws {
        var configuration = EmulatorConfiguration()
        configuration.refreshRotation = rotation
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let tokens = try await emulator.signIn()
            let refreshed = try await emulator.refresh(tokens.refresh)
            #expect(refreshed.status == 200)
            let newRefresh = refreshed.object["refresh_token"] as? String
            switch rotation {
            case .none:
                #expect(newRefresh == nil)
                #expect(try await emulator.refresh(tokens.refresh).status == 200)
            case .rotate:
                let rotated = try #require(newRefresh)
                #expect(rotated != tokens.refresh)
                // Replaying the old token revokes the whole family, the new one included.
                let replay = try await emulator.refresh(tokens.refresh)
                #expect(replay.object["error_description"] as? String == "Refresh token revoked")
                #expect(
                    try await emulator.refresh(rotated).object["error_description"] as? String
                        == "Refresh token revoked")
            }
        }
    }

    @Test func refreshTokensExpireSixMonthsAfterSignIn() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let tokens = try await emulator.signIn()
            await emulator.advanceClock(by: .seconds(182 * 86400))
            #expect(try await emulator.refresh(tokens.refresh).status == 200)
            await emulator.advanceClock(by: .seconds(2 * 86400))
            let expired = try await emulator.refresh(tokens.refresh)
            #expect(expired.status == 400)
            #expect(expired.object["error"] as? String == "invalid_grant")
            #expect(expired.object["error_description"] as? String == "Refresh token expired")
        }
    }

    @Test func clientCredentialsTokensCannotReachMe() async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients = [
            .init(id: "spotlink-demo", redirectURIs: ["http://127.0.0.1/callback"], secret: "s3cret")
        ]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let basic = Data("spotlink-demo:s3cret".utf8).base64EncodedString()
            let (status, _, body) = try await http.send(
                .post, emulator.url("api/token"), headers: ["Authorization": "Basic \(basic)"],
                form: [("grant_type", "client_credentials")])
            #expect(status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(object["refresh_token"] == nil)
            #expect(object["token_type"] as? String == "bearer")
            let token = try #require(object["access_token"] as? String)
            #expect(try await http.json(emulator.url("v1/me"), token: token).status == 401)
            let wrong = Data("spotlink-demo:nope".utf8).base64EncodedString()
            let (refused, _, _) = try await http.send(
                .post, emulator.url("api/token"), headers: ["Authorization": "Basic \(wrong)"],
                form: [("grant_type", "client_credentials")])
            #expect(refused == 400)
        }
    }

    @Test func expiredAccessTokensSaySo() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let token = await emulator.issueAccessToken()
            await emulator.advanceClock(by: .seconds(3601))
            let me = try await http.json(emulator.url("v1/me"), token: token)
            #expect(me.status == 401)
            #expect((me.object["error"] as? [String: Any])?["message"] as? String == "The access token expired")
        }
    }

    @Test func bindsLoopbackByDefault() async throws {
        #expect(EmulatorConfiguration().host == "127.0.0.1")
        try await withEmulator { (emulator: EmulatorServer) async throws in
            #expect(emulator.baseURL.host == "127.0.0.1")
            #expect(emulator.baseURL.port != 0)
        }
    }

    @Test func rfc7636AppendixB() {
        #expect(EmulatorState.challenge(for: rfcVerifier) == rfcChallenge)
    }

    private func autoCode(_ emulator: EmulatorServer) async throws -> String {
        let (_, headers, _) = try await http.send(.get, emulator.authorizeURL())
        return try #require(headers[.location].flatMap(URL.init(string:))?.queryValue("code"))
    }
}

extension EmulatorConfiguration {
    static var autoApproving: EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.autoApprove = true
        return configuration
    }
}

@Suite("The emulator's control API")
struct ControlAPITests {
    @Test func itNeedsTheControlTokenAndRefusesBrowserPagesButCoversArePublic() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let expire = emulator.url("emulator/tokens/expire")
            #expect(try await http.send(.post, expire).status == 401)
            #expect(try await http.send(.post, expire, headers: ["Authorization": "Bearer wrong"]).status == 401)
            // A page on another site can send a form POST with no custom header; it carries Origin.
            let crossSite = try await http.send(
                .post, expire,
                headers: ["Authorization": "Bearer \(emulator.controlToken)", "Origin": "https://evil.example"])
            #expect(crossSite.status == 403)
            #expect(
                try await http.send(.post, expire, headers: ["Authorization": "Bearer \(emulator.controlToken)"]).status
                    == 200)
            var statuses: [Int] = []
            for playlist in await emulator.playlists().prefix(4) {
                statuses.append(
                    try await http.send(.get, emulator.url("emulator/images/\(playlist.id)/300.png")).status)
            }
            #expect(statuses.contains(200) && !statuses.contains(401), "\(statuses)")
        }
    }
}
