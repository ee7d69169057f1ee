package import AppAttest
package import Crypto
package import Foundation
import SpotifyWebAPI
import SwiftASN1
package import X509

/// A root, an intermediate and a device in place of Apple's: makes attestations and assertions the
/// way a device does, each part of which a test can spoil.
package struct TestAttester {
    package static let appID = AppID(teamID: "ABCDE12345", bundleID: "dev.spotifylink.learning")
    package static let issued = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
    package static let rootKey = P256.Signing.PrivateKey()
    package static let intermediateKey = P256.Signing.PrivateKey()
    package static let root = try! certificate(
        "Test App Attestation Root CA", key: rootKey.publicKey, issuer: "Test App Attestation Root CA", by: rootKey,
        authority: true, lasting: 86400 * 3650)
    package static let intermediate = try! certificate(
        "Test App Attestation CA 1", key: intermediateKey.publicKey, issuer: "Test App Attestation Root CA",
        by: rootKey, authority: true, lasting: 86400 * 365)

    /// A device with a new key.
    package init() {}

    /// The device's key.
    package let key = P256.Signing.PrivateKey()
    package var keyID: [UInt8] { Array(SHA256.hash(data: Array(key.publicKey.x963Representation))) }

    /// How an attestation is made, each field a test may change.
    package struct Attestation {
        package var format = "apple-appattest"
        package var appID = TestAttester.appID
        package var environment = AppAttestEnvironment.production
        package var counter: UInt32 = 0
        package var credentialID: [UInt8]?
        package var coseKey: P256.Signing.PublicKey?
        /// The challenge the certificate's nonce is made with.
        package var challenge: [UInt8] = Array("server-challenge-1".utf8)
        /// The client data hash the app passed, in place of SHA-256 of ``challenge``.
        package var clientDataHash: [UInt8]?
        package var issuerKey: P256.Signing.PrivateKey?
        package var intermediate: Certificate?
        package var lasting: TimeInterval = 86400 * 90

        package init() {}
    }

    /// An attestation object, as `attestKey(_:clientDataHash:)` returns it.
    package func attestation(_ spec: Attestation = Attestation()) throws -> [UInt8] {
        let cose = spec.coseKey ?? key.publicKey
        let x963 = Array(cose.x963Representation)
        let coseKey = CBOR.map([
            (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(6)), (.negative(0), .unsigned(1)),
            (.negative(1), .bytes(Array(x963[1...32]))), (.negative(2), .bytes(Array(x963[33...64]))),
        ])
        let authData = AuthenticatorData.encodedForTest(
            rpIDHash: spec.appID.hash, flags: 0x40, counter: spec.counter,
            credential: .init(
                aaguid: spec.environment.aaguid, credentialID: spec.credentialID ?? keyID, publicKey: coseKey))
        let nonce = Array(
            SHA256.hash(data: authData + (spec.clientDataHash ?? Array(SHA256.hash(data: spec.challenge)))))
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) {
            try $0.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) {
                try $0.serialize(ASN1OctetString(contentBytes: nonce[...]))
            }
        }
        let credential = try Self.certificate(
            keyID.map { String(format: "%02x", $0) }.joined(), key: key.publicKey, issuer: "Test App Attestation CA 1",
            by: spec.issuerKey ?? Self.intermediateKey, authority: false, lasting: spec.lasting,
            extra: Certificate.Extension(
                oid: [1, 2, 840, 113_635, 100, 8, 2], critical: false, value: serializer.serializedBytes[...]))
        let chain = [credential, spec.intermediate ?? Self.intermediate].map { certificate in
            var serializer = DER.Serializer()
            try! serializer.serialize(certificate)
            return CBOR.bytes(serializer.serializedBytes)
        }
        return CBOR.map([
            (.text("fmt"), .text(spec.format)),
            (.text("attStmt"), .map([(.text("x5c"), .array(chain)), (.text("receipt"), .bytes([0xAA, 0xBB]))])),
            (.text("authData"), .bytes(authData)),
        ]).encoded
    }

    /// An assertion over `clientData`, as `generateAssertion(_:clientDataHash:)` returns it.
    package func assertion(
        _ clientData: [UInt8], counter: UInt32, appID: AppID = TestAttester.appID,
        signer: P256.Signing.PrivateKey? = nil
    ) throws -> [UInt8] {
        try assertion(
            clientDataHash: Array(SHA256.hash(data: clientData)), counter: counter, appID: appID, signer: signer)
    }

    /// An assertion over the client data whose SHA-256 is `clientDataHash`, as the app passes it.
    package func assertion(
        clientDataHash: [UInt8], counter: UInt32, appID: AppID = TestAttester.appID,
        signer: P256.Signing.PrivateKey? = nil
    ) throws -> [UInt8] {
        let authData = AuthenticatorData.encodedForTest(
            rpIDHash: appID.hash, flags: 0, counter: counter, credential: nil)
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let signature = try (signer ?? key).signature(for: nonce)
        return CBOR.map([
            (.text("signature"), .bytes(Array(signature.derRepresentation))),
            (.text("authenticatorData"), .bytes(authData)),
        ]).encoded
    }

    package static func certificate(
        _ subject: String, key: P256.Signing.PublicKey, issuer: String, by issuerKey: P256.Signing.PrivateKey,
        authority: Bool, lasting: TimeInterval, extra: Certificate.Extension? = nil
    ) throws -> Certificate {
        let extensions = try Certificate.Extensions {
            if authority {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            } else {
                Critical(KeyUsage(digitalSignature: true))
            }
            if let extra { extra }
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key),
            notValidBefore: issued.addingTimeInterval(-60), notValidAfter: issued.addingTimeInterval(lasting),
            issuer: try DistinguishedName { CommonName(issuer) },
            subject: try DistinguishedName { CommonName(subject) },
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }
}

extension AuthenticatorData {
    package static func encodedForTest(
        rpIDHash: [UInt8], flags: UInt8, counter: UInt32, credential: AttestedCredential?
    )
        -> [UInt8]
    {
        var data = try! AuthenticatorData(rpIDHash + [0] + [0, 0, 0, 0])
        data.flags = flags
        data.counter = counter
        data.credential = credential
        return data.encoded
    }
}

/// The real clock moved to a day after ``TestAttester/issued``: a service checking the test
/// attestations at a time inside their validity, as a real device's are checked at the real time
/// (for the bench and its workers, which run in real time).
package struct AttestationTimeClock: SpotifyClock {
    let offset = TestAttester.issued.addingTimeInterval(86_400).timeIntervalSince(Date())

    package init() {}

    package var now: Date { Date().addingTimeInterval(offset) }
    package func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
