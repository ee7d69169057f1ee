import Foundation
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

struct FailingRandom: RandomSource {
    struct Failure: Error {}
    func bytes(_ count: Int) throws -> [UInt8] { throw Failure() }
}

/// A deterministic source for table tests (never for real sign-ins).
struct CountingRandom: RandomSource {
    func bytes(_ count: Int) throws -> [UInt8] { (0..<count).map { UInt8($0 % 256) } }
}

let emulatorServer = AuthorizationServer.emulator(url: URL(string: "http://127.0.0.1:9")!)

func makeFlow(redirect: String = "http://127.0.0.1:4321/callback", server: AuthorizationServer = emulatorServer) throws
    -> AuthorizationFlow
{
    try AuthorizationFlow(.init(clientID: "spotlink-demo", redirectURI: redirect, server: server))
}

@Suite("Authorization request (checklist rows 1–4)")
struct AuthorizationRequestTests {
    @Test func rfc7636AppendixB() {
        #expect(
            PKCE.challenge(for: CodeVerifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func verifiersAndStatesAreLongDistinctAndUnreserved() throws {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        var seen = Set<String>()
        for _ in 0..<1000 {
            let verifier = try PKCE.makeVerifier(using: SystemRandomSource()).unredactedValue
            let state = try PKCE.makeState(using: SystemRandomSource())
            #expect((43...128).contains(verifier.count) && state.count >= 43)
            #expect(verifier.allSatisfy(unreserved.contains) && state.allSatisfy(unreserved.contains))
            #expect(verifier != state)
            seen.insert(verifier)
            seen.insert(state)
        }
        #expect(seen.count == 2000)
    }

    @Test func aFailingRandomSourceThrows() {
        #expect(throws: (any Error).self) { try PKCE.makeVerifier(using: FailingRandom()) }
        #expect(throws: (any Error).self) {
            try AuthorizationFlow(
                .init(clientID: "c", redirectURI: "http://127.0.0.1/callback", server: .live), random: FailingRandom())
        }
    }

    @Test func authorizeURLCarriesEachParameterOnceAndNoVerifier() throws {
        let flow = try makeFlow()
        let items = try #require(URLComponents(url: flow.authorizeURL, resolvingAgainstBaseURL: false)?.queryItems)
        let names = items.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(
            Set(names) == [
                "client_id", "response_type", "redirect_uri", "state", "scope", "code_challenge_method",
                "code_challenge",
            ])
        #expect(items.first { $0.name == "code_challenge_method" }?.value == "S256")
        #expect(items.first { $0.name == "code_challenge" }?.value == PKCE.challenge(for: flow.verifier))
        #expect(!flow.authorizeURL.absoluteString.contains(flow.verifier.unredactedValue))
        #expect(!flow.authorizeURL.absoluteString.lowercased().contains("secret"))
    }

    @Test(arguments: [
        "http://localhost:4321/callback", "http://0.0.0.0:4321/callback", "http://192.168.1.5/callback",
        "http://example.com/callback", "not a url", "",
    ])
    func unsafeRedirectsAreConfigurationErrors(redirect: String) {
        #expect {
            try makeFlow(redirect: redirect)
        } throws: { error in
            (error as? OAuthError)?.code == .configuration
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1/callback", true), ("http://127.0.0.1:8888/cb", true), ("http://[::1]:8888/cb", true),
        ("https://app.example/cb", true), ("myapp://callback", true), ("http://localhost/cb", false),
    ])
    func redirectPolicy(redirect: String, valid: Bool) {
        #expect(((try? RedirectURIPolicy.validate(redirect)) != nil) == valid)
    }

    @Test func localhostErrorExplainsTheFix() {
        #expect {
            try RedirectURIPolicy.validate("http://localhost:8888/callback")
        } throws: { error in
            (error as? OAuthError)?.message.contains("http://127.0.0.1:8888/callback") == true
        }
    }
}

@Suite("Loopback callback rules (checklist rows 5–12)")
struct CallbackTests {
    /// The flow's verdict on `query`, with the emulator's `iss` appended unless `iss` says otherwise.
    func outcome(
        _ query: (AuthorizationFlow) -> String, iss: String? = emulatorServer.issuer,
        server: AuthorizationServer = emulatorServer
    ) throws -> (AuthorizationFlow.Outcome, AuthorizationFlow) {
        var flow = try makeFlow(server: server)
        let result = flow.handleCallback(query: query(flow) + (iss.map { "&iss=" + encoded($0) } ?? ""))
        return (result, flow)
    }

    func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }

    static let forged: [(String, @Sendable (AuthorizationFlow) -> String)] = [
        ("wrong state", { _ in "code=SENTINEL_CODE_1&state=wrong" }),
        ("missing state", { _ in "code=SENTINEL_CODE_1" }),
        ("empty state", { _ in "code=SENTINEL_CODE_1&state=" }),
        ("denied with wrong state", { _ in "error=access_denied&state=nope" }),
        ("denied without state", { _ in "error=access_denied" }),
    ]

    @Test(arguments: forged.map(\.0))
    func wrongOrMissingStateIsIgnoredWithoutExchange(label: String) throws {
        let query = Self.forged.first { $0.0 == label }!.1
        let (result, flow) = try outcome(query)
        guard case .ignore(let error) = result else {
            Issue.record("\(label): expected ignore, got \(result)")
            return
        }
        #expect(error.code == .stateMismatch)
        #expect(flow.phase == .awaitingCallback)
        #expect(!error.message.contains("SENTINEL"))
    }

    @Test func tooManyForgedCallbacksEndTheFlow() throws {
        var flow = try makeFlow()
        for _ in 0..<4 {
            if case .fail = flow.handleCallback(query: "code=x&state=bad") { Issue.record("failed early") }
        }
        guard case .fail(let error) = flow.handleCallback(query: "code=x&state=bad") else {
            Issue.record("expected failure after five forged callbacks")
            return
        }
        #expect(error.code == .stateMismatch)
        // The sign-in ended: the words say it was stopped, not that the callback was ignored.
        #expect(error.message.contains("stopped") && !error.message.contains("ignored"), "\(error.message)")
    }

    @Test func accessDeniedWithTheRightState() throws {
        let (result, _) = try outcome { "error=access_denied&state=\($0.state)" }
        guard case .fail(let error) = result else { Issue.record("expected fail"); return }
        #expect(error.code == .accessDenied)
    }

    @Test(arguments: ["<script>alert(1)</script>", "line1%0D%0Aline2", String(repeating: "A", count: 10_000)])
    func hostileErrorDescriptionsAreTypedAndTruncated(description: String) throws {
        let (result, _) = try outcome { "error=server_error&error_description=\(description)&state=\($0.state)" }
        guard case .fail(let error) = result else { Issue.record("expected fail"); return }
        #expect(error.code == .authorizationFailed)
        #expect(error.message.count < 300)
        #expect(!error.message.contains("\r") && !error.message.contains("\n"))
    }

    @Test(arguments: ["state=S", "code=a&error=access_denied&state=S", "code=&state=S"])
    func aCallbackWithNeitherOrBothACodeAndAnErrorIsRefused(template: String) throws {
        let (result, _) = try outcome { template.replacingOccurrences(of: "state=S", with: "state=\($0.state)") }
        guard case .ignore(let error) = result else { Issue.record("expected ignore, got \(result)"); return }
        #expect(error.code == .invalidCallback)
    }

    @Test(arguments: ["code=a&code=b&state=S", "code=a&state=S&state=S"])
    func duplicatedParametersAreRejected(template: String) throws {
        let (result, _) = try outcome { template.replacingOccurrences(of: "state=S", with: "state=\($0.state)") }
        guard case .ignore(let error) = result else { Issue.record("expected ignore"); return }
        // A repeated `state` is not "exactly this sign-in's state": it is judged forged first.
        #expect(error.code == (template.contains("state=S&state=S") ? .stateMismatch : .invalidCallback))
    }

    @Test func theSameCallbackTwiceExchangesOnce() throws {
        var flow = try makeFlow()
        let query = "code=SENTINEL_CODE_1&state=\(flow.state)&iss=\(encoded(emulatorServer.issuer))"
        guard case .exchange(let code) = flow.handleCallback(query: query) else {
            Issue.record("expected exchange")
            return
        }
        #expect(code.unredactedValue == "SENTINEL_CODE_1")
        guard case .ignore = flow.handleCallback(query: query) else {
            Issue.record("second callback must be ignored")
            return
        }
    }

    @Test func aCallbackNamingAnotherIssuerIsAMixUpAndEndsTheFlow() throws {
        let (result, flow) = try outcome(
            { "code=SENTINEL_CODE_1&state=\($0.state)" }, iss: AuthorizationServer.live.issuer)
        guard case .fail(let error) = result else { Issue.record("expected fail, got \(result)"); return }
        #expect(error.code == .issuerMismatch)
        #expect(flow.phase == .failed)
        #expect(!error.message.contains("SENTINEL"))
    }

    @Test func aCallbackWithoutTheIssuerItsServiceAlwaysSendsIsAMixUp() throws {
        let (result, _) = try outcome({ "code=SENTINEL_CODE_1&state=\($0.state)" }, iss: nil)
        guard case .fail(let error) = result else { Issue.record("expected fail, got \(result)"); return }
        #expect(error.code == .issuerMismatch)
    }

    @Test func liveSpotifySendsNoIssuerSoNoneIsNeededButAForeignOneIsRefused() throws {
        let (plain, _) = try outcome({ "code=c&state=\($0.state)" }, iss: nil, server: .live)
        guard case .exchange = plain else { Issue.record("expected exchange, got \(plain)"); return }
        let (foreign, _) = try outcome({ "code=c&state=\($0.state)" }, iss: emulatorServer.issuer, server: .live)
        guard case .fail(let error) = foreign else { Issue.record("expected fail, got \(foreign)"); return }
        #expect(error.code == .issuerMismatch)
    }

    /// Row 6: whatever else a callback carries (bad encoding, repeats, a foreign issuer, an error),
    /// a wrong state is judged first: ignored as forged, and the flow keeps waiting.
    @Test(arguments: [
        "code=%ZZ&state=wrong", "code=a&code=b&state=wrong", "code=a&state=wrong&iss=https%3A%2F%2Fevil.example",
        "error=server_error&state=wrong", "code=a&state=%ZZ", "code=a&st%61te=S",
    ])
    func stateIsJudgedBeforeAnythingElse(query: String) throws {
        let (result, flow) = try outcome({ query.replacingOccurrences(of: "=S", with: "=\($0.state)") }, iss: nil)
        guard case .ignore(let error) = result else { Issue.record("expected ignore, got \(result)"); return }
        #expect(error.code == .stateMismatch)
        #expect(flow.phase == .awaitingCallback)
    }

    @Test(arguments: ["code=%ZZ&state=S", "code=%00&state=S"])
    func badEncodingIsRefused(template: String) throws {
        let (result, _) = try outcome { template.replacingOccurrences(of: "state=S", with: "state=\($0.state)") }
        guard case .ignore = result else { Issue.record("expected ignore"); return }
    }
}
