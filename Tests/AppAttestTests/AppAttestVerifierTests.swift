import Crypto
import Foundation
import SpotifyTesting
import Testing
import X509

@testable import AppAttest

/// Every refusal of Apple's attestation and assertion steps, each with an object that a device
/// (the test root in place of Apple's) made and one part of it spoiled.
@Suite("App Attest: attestations and assertions (checklist row 50)")
struct AppAttestVerifierTests {
    let device = TestAttester()
    let verifier = AppAttestVerifier(appID: TestAttester.appID, roots: [TestAttester.root])
    let challenge = Array("server-challenge-1".utf8)
    let now = TestAttester.issued.addingTimeInterval(3600)

    func attest(_ spec: TestAttester.Attestation = .init(), verifier: AppAttestVerifier? = nil, keyID: [UInt8]? = nil)
        async throws -> AttestedKey
    {
        let object = try device.attestation(spec)
        return try await (verifier ?? self.verifier).verifyAttestation(
            object, keyID: keyID ?? device.keyID, challenge: challenge, at: now)
    }

    func expectRefused(
        _ code: AppAttestError.Code, _ spec: TestAttester.Attestation, verifier: AppAttestVerifier? = nil,
        keyID: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        do {
            _ = try await attest(spec, verifier: verifier, keyID: keyID)
            Issue.record("accepted; expected \(code)", sourceLocation: sourceLocation)
        } catch let error as AppAttestError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aGenuineAttestationGivesItsKey() async throws {
        let key = try await attest()
        #expect(key.keyID == device.keyID)
        #expect(key.publicKey == Array(device.key.publicKey.x963Representation))
        #expect(key.environment == .production && key.receipt == [0xAA, 0xBB])
    }

    @Test func developmentIsAcceptedOnlyWhenAsked() async throws {
        var spec = TestAttester.Attestation()
        spec.environment = .development
        try await expectRefused(.environmentMismatch, spec)
        let both = AppAttestVerifier(
            appID: TestAttester.appID, environments: [.production, .development], roots: [TestAttester.root])
        #expect(try await attest(spec, verifier: both).environment == .development)
        let productionOnly = AppAttestVerifier(
            appID: TestAttester.appID, environments: [.development], roots: [TestAttester.root])
        try await expectRefused(.environmentMismatch, TestAttester.Attestation(), verifier: productionOnly)
    }

    @Test func anotherAppsAttestationIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.appID = AppID(teamID: "ABCDE12345", bundleID: "dev.spotifylink.routine")
        try await expectRefused(.appIDMismatch, spec)
        spec.appID = AppID(teamID: "ZZZZZ99999", bundleID: TestAttester.appID.bundleID)
        try await expectRefused(.appIDMismatch, spec)
    }

    @Test func anAttestationForAnotherChallengeIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.challenge = Array("an earlier challenge".utf8)
        try await expectRefused(.nonceMismatch, spec)
    }

    @Test func aKeyIDThatIsNotTheCertificatesIsRefused() async throws {
        try await expectRefused(.keyIDMismatch, .init(), keyID: TestAttester().keyID)
    }

    @Test func aCredentialIDThatIsNotTheKeyIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.credentialID = TestAttester().keyID
        try await expectRefused(.credentialIDMismatch, spec)
    }

    @Test func aCOSEKeyThatIsNotTheCertificatesIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.coseKey = P256.Signing.PrivateKey().publicKey
        try await expectRefused(.publicKeyMismatch, spec)
    }

    @Test func anAttestationThatSignedBeforeIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.counter = 1
        try await expectRefused(.counterNotZero, spec)
    }

    @Test func anotherFormatIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.format = "packed"
        try await expectRefused(.wrongFormat, spec)
    }

    @Test func anExpiredCertificateIsRefused() async throws {
        var spec = TestAttester.Attestation()
        spec.lasting = 1800
        try await expectRefused(.untrustedCertificate, spec)
    }

    @Test func aForeignChainIsRefused() async throws {
        // An intermediate of the same name, signed by another root.
        let foreignRoot = P256.Signing.PrivateKey()
        let foreignKey = P256.Signing.PrivateKey()
        var spec = TestAttester.Attestation()
        spec.issuerKey = foreignKey
        spec.intermediate = try TestAttester.certificate(
            "Test App Attestation CA 1", key: foreignKey.publicKey, issuer: "Test App Attestation Root CA",
            by: foreignRoot, authority: true, lasting: 86400 * 365)
        try await expectRefused(.untrustedCertificate, spec)
        // And the genuine intermediate with a leaf it never signed.
        spec.intermediate = nil
        try await expectRefused(.untrustedCertificate, spec)
        // Apple's root does not accept the test chain.
        try await expectRefused(.untrustedCertificate, .init(), verifier: AppAttestVerifier(appID: TestAttester.appID))
    }

    @Test(arguments: [[UInt8](), [0xA0], [0x01, 0x02], Array("not cbor at all".utf8)])
    func bytesThatAreNoAttestationAreMalformed(_ bytes: [UInt8]) async throws {
        do {
            _ = try await verifier.verifyAttestation(bytes, keyID: device.keyID, challenge: challenge, at: now)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .malformed || error.code == .wrongFormat, "\(error)")
        }
    }

    @Test func aTruncatedAttestationIsMalformed() async throws {
        let object = try device.attestation()
        for length in stride(from: 0, to: object.count, by: 97) {
            await #expect(throws: AppAttestError.self) {
                _ = try await verifier.verifyAttestation(
                    Array(object.prefix(length)), keyID: device.keyID, challenge: challenge, at: now)
            }
        }
    }

    // MARK: - Assertions

    @Test func assertionsCountUpAndAReplayIsRefused() async throws {
        let key = try await attest()
        let body = Array(#"{"q":"さくら","challenge":"c1"}"#.utf8)
        let first = try device.assertion(body, counter: 1)
        #expect(try verifier.verifyAssertion(first, clientData: body, key: key, lastCounter: 0) == 1)
        let replay = #expect(throws: AppAttestError.self) {
            _ = try verifier.verifyAssertion(first, clientData: body, key: key, lastCounter: 1)
        }
        #expect(replay?.code == .counterNotIncreasing)
        let second = try device.assertion(body, counter: 2)
        #expect(try verifier.verifyAssertion(second, clientData: body, key: key, lastCounter: 1) == 2)
        // A counter that goes back, though signed by the key.
        let back = try device.assertion(body, counter: 1)
        #expect(throws: AppAttestError(.counterNotIncreasing, "an assertion's counter of 1 after 2")) {
            _ = try verifier.verifyAssertion(back, clientData: body, key: key, lastCounter: 2)
        }
    }

    @Test func aTamperedBodyIsRefused() async throws {
        let key = try await attest()
        let body = Array(#"{"q":"さくら"}"#.utf8)
        let assertion = try device.assertion(body, counter: 1)
        let error = #expect(throws: AppAttestError.self) {
            _ = try verifier.verifyAssertion(
                assertion, clientData: Array(#"{"q":"さくらX"}"#.utf8), key: key, lastCounter: 0)
        }
        #expect(error?.code == .badSignature)
    }

    @Test func anotherKeysSignatureIsRefused() async throws {
        let key = try await attest()
        let body = Array("q".utf8)
        let forged = try device.assertion(body, counter: 1, signer: P256.Signing.PrivateKey())
        let error = #expect(throws: AppAttestError.self) {
            _ = try verifier.verifyAssertion(forged, clientData: body, key: key, lastCounter: 0)
        }
        #expect(error?.code == .badSignature)
    }

    @Test func aKeyAttestedForAnotherAppIsRefusedAtItsAssertions() async throws {
        let key = try await attest()
        let body = Array("q".utf8)
        let other = try device.assertion(body, counter: 1, appID: AppID(teamID: "ABCDE12345", bundleID: "other.app"))
        let error = #expect(throws: AppAttestError.self) {
            _ = try verifier.verifyAssertion(other, clientData: body, key: key, lastCounter: 0)
        }
        #expect(error?.code == .appIDMismatch)
    }

    @Test func anAssertionWithTrailingAuthenticatorBytesIsMalformed() async throws {
        let key = try await attest()
        var auth = AuthenticatorData.encodedForTest(
            rpIDHash: TestAttester.appID.hash, flags: 0, counter: 1, credential: nil)
        auth.append(0)
        let object = CBOR.map([(.text("signature"), .bytes([0x30, 0x00])), (.text("authenticatorData"), .bytes(auth))])
        let error = #expect(throws: AppAttestError.self) {
            _ = try verifier.verifyAssertion(object.encoded, clientData: [], key: key, lastCounter: 0)
        }
        #expect(error?.code == .malformed || error?.code == .badSignature)
    }

    // MARK: - Apple's root

    @Test func applesRootIsTheOnePublished() throws {
        let fingerprint = SHA256.hash(data: AppleAppAttestationRoot.der).map { String(format: "%02x", $0) }.joined()
        #expect(fingerprint == "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932")
        let root = AppleAppAttestationRoot.certificate
        #expect("\(root.subject)".contains("Apple App Attestation Root CA"))
        #expect(root.notValidAfter > Date(timeIntervalSince1970: 2_366_000_000))  // 2044
    }
}

/// Apple's own sample attestation (Tests/AppAttestTests/Fixtures), made by an iOS 27 device and
/// chained to Apple's App Attestation root: accepted while its certificate is valid, refused for
/// any other app, challenge, environment or time.
@Suite("App Attest: Apple's sample attestation (checklist row 50)")
struct AppleSampleAttestationTests {
    static let object: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/apple-sample-attestation.b64")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return Array(Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data())
    }()
    static let keyID = Array(Data(base64Encoded: "zgSY9YSD+7TaDXssY6WlOPVS1K3Lmk+pFhlcSWE+ZV0=")!)
    static let appID = AppID(teamID: "1234567890", bundleID: "com.example.myapp")
    static let clientDataHash = Array("example_server_challenge".utf8)
    /// Within the credential certificate's three days.
    static let valid = Date(timeIntervalSince1970: 1_776_795_192)  // 2026-04-21 18:13:12 UTC

    func verify(
        appID: AppID = Self.appID, environments: Set<AppAttestEnvironment> = [.production],
        clientDataHash: [UInt8] = Self.clientDataHash, at now: Date = Self.valid
    ) async throws(AppAttestError) -> AttestedKey {
        try await AppAttestVerifier(appID: appID, environments: environments).verifyAttestation(
            Self.object, keyID: Self.keyID, clientDataHash: clientDataHash, at: now)
    }

    func refusal(_ body: () async throws(AppAttestError) -> AttestedKey) async -> AppAttestError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func applesSampleIsAccepted() async throws {
        #expect(Self.object.count == 5906, "the fixture read whole")
        let key = try await verify()
        #expect(key.environment == .production)
        #expect(Array(SHA256.hash(data: key.publicKey)) == Self.keyID)
        #expect(key.receipt.count > 3000, "Apple's receipt kept")
        let authData = try AuthenticatorData(
            try #require(try CBOR(decoding: Self.object)["authData"]?.bytes))
        #expect(authData.credential?.extensions?["apple_bundle_version_01"]?.text == "1")
        #expect(authData.encoded == (try CBOR(decoding: Self.object)["authData"]?.bytes), "read back byte for byte")
    }

    @Test func applesSampleIsRefusedForAnythingElse() async {
        #expect(
            await refusal { () async throws(AppAttestError) in
                try await verify(at: Date(timeIntervalSince1970: 1_795_000_000))
            } == .untrustedCertificate, "expired by November")
        #expect(
            await refusal { () async throws(AppAttestError) in
                try await verify(appID: AppID(teamID: "1234567890", bundleID: "com.example.other"))
            } == .appIDMismatch)
        #expect(
            await refusal { () async throws(AppAttestError) in try await verify(environments: [.development]) }
                == .environmentMismatch)
        #expect(
            await refusal { () async throws(AppAttestError) in
                try await verify(clientDataHash: Array("another_challenge".utf8))
            } == .nonceMismatch)
    }
}
