import Foundation
import HTTPTypes
import SpotifyTesting
import Testing

@testable import SpotifyEmulator

@Suite("The emulator authenticates confidential clients")
struct ConfidentialClientTests {
    static let secret = "SENTINEL_SECRET_conf"

    func configuration() -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.clients = [
            .init(id: "spotlink-demo", redirectURIs: ["http://127.0.0.1/callback"], secret: Self.secret)
        ]
        return configuration
    }

    func token(_ emulator: EmulatorServer, _ form: [(String, String)], basic: String? = nil) async throws -> (
        Int, [String: Any]
    ) {
        let headers =
            basic.map { ["Authorization": "Basic " + Data("spotlink-demo:\($0)".utf8).base64EncodedString()] } ?? [:]
        let (status, _, body) = try await http.send(.post, emulator.url("api/token"), headers: headers, form: form)
        return (status, (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:])
    }

    @Test func aCodeWithoutPKCEIsExchangedAndRefreshedOnlyWithTheSecret() async throws {
        try await withEmulator(configuration()) { (emulator: EmulatorServer) async throws in
            let redirect = try await emulator.consent(emulator.authorizeURL(challenge: nil, method: nil))
            let code = try #require(redirect.queryValue("code"))
            let exchange = [
                ("grant_type", "authorization_code"), ("code", code),
                ("redirect_uri", "http://127.0.0.1:4321/callback"),
                ("client_id", "spotlink-demo"),
            ]
            let (refused, error) = try await token(emulator, exchange)
            #expect(refused == 400 && error["error"] as? String == "invalid_client")
            // The code was spent by the refused attempt, as live: start again with the secret.
            let second = try #require(
                try await emulator.consent(emulator.authorizeURL(challenge: nil, method: nil)).queryValue("code"))
            var withCode = exchange
            withCode[1] = ("code", second)
            let (status, tokens) = try await token(emulator, withCode, basic: Self.secret)
            #expect(status == 200, "\(tokens)")
            let refreshToken = try #require(tokens["refresh_token"] as? String)
            let refresh = [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "spotlink-demo"),
            ]
            #expect(try await token(emulator, refresh).1["error"] as? String == "invalid_client")
            #expect(try await token(emulator, refresh, basic: "wrong").1["error"] as? String == "invalid_client")
            #expect(try await token(emulator, refresh + [("client_secret", Self.secret)]).0 == 200)
        }
    }

    @Test func pkceStillWorksWithoutTheSecretAsLive() async throws {
        try await withEmulator(configuration()) { (emulator: EmulatorServer) async throws in
            let (_, refresh) = try await emulator.signIn()
            #expect(try await emulator.refresh(refresh).status == 200)
        }
    }

    @Test func aParameterGivenTwiceIsRefused() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let (status, object) = try await token(
                emulator,
                [("grant_type", "refresh_token"), ("grant_type", "client_credentials"), ("client_id", "spotlink-demo")])
            #expect(status == 400 && object["error"] as? String == "invalid_request")
        }
    }
}
