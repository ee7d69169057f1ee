import Crypto
package import Foundation
import SwiftASN1
// The fixed-time policy is SPI: a server checks expiry against its own clock, which tests set.
@_spi(FixedExpiryValidationTime) package import X509

/// Checks App Attest objects as Apple's "Validating apps that connect to your server" lays out:
/// an attestation once per device key, then an assertion with each request.
///
/// Nothing here is stored: the server keeps each ``AttestedKey`` and the last counter it
/// accepted, and hands them back for the next assertion.
package struct AppAttestVerifier: Sendable {
    /// The app whose instances are accepted.
    package var appID: AppID
    /// The environments accepted: production for App Store and TestFlight builds, development for
    /// builds Xcode signs.
    package var environments: Set<AppAttestEnvironment>
    /// The roots a credential certificate must lead to: Apple's App Attestation root, or a test root.
    package var roots: [Certificate]

    /// A verifier for `appID` accepting `environments`, trusting `roots`.
    package init(
        appID: AppID, environments: Set<AppAttestEnvironment> = [.production],
        roots: [Certificate] = [AppleAppAttestationRoot.certificate]
    ) {
        self.appID = appID
        self.environments = environments
        self.roots = roots
    }

    /// The OID of the credential certificate's nonce extension.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    /// Verifies an attestation whose client data hash is SHA-256 of `challenge`, as the package's
    /// app side makes it: ``verifyAttestation(_:keyID:clientDataHash:at:)``.
    /// - Parameter challenge: the one-time challenge the server gave the app for this attestation.
    package func verifyAttestation(_ object: [UInt8], keyID: [UInt8], challenge: [UInt8], at now: Date)
        async throws(AppAttestError) -> AttestedKey
    {
        try await verifyAttestation(object, keyID: keyID, clientDataHash: Array(SHA256.hash(data: challenge)), at: now)
    }

    /// Verifies an attestation: the nine steps of Apple's article, in order.
    /// - Parameters:
    ///   - object: the attestation object the app sent (`attestKey(_:clientDataHash:)`).
    ///   - keyID: the key's ID the app sent (`generateKey()`, Base64-decoded): SHA-256 of its public key.
    ///   - clientDataHash: what the app passed to `attestKey` (Apple's sample passes its challenge's
    ///     bytes as they are).
    ///   - now: when the certificates must be valid (the server's clock).
    /// - Returns: the key to keep for the device's assertions.
    /// - Throws: ``AppAttestError``.
    package func verifyAttestation(_ object: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], at now: Date)
        async throws(AppAttestError) -> AttestedKey
    {
        let cbor: CBOR
        do { cbor = try CBOR(decoding: object) } catch { throw .malformed("attestation: \(error)") }
        guard cbor["fmt"]?.text == "apple-appattest" else {
            // The format the object names is the caller's text: never repeated in the message.
            throw AppAttestError(
                .wrongFormat,
                cbor["fmt"] == nil
                    ? "an attestation without its format" : "an attestation format other than apple-appattest")
        }
        guard let statement = cbor["attStmt"], let x5c = statement["x5c"]?.array, !x5c.isEmpty,
            let authBytes = cbor["authData"]?.bytes
        else { throw .malformed("attestation without attStmt.x5c or authData") }
        // 1. The chain from the credential certificate to the root.
        var chain: [Certificate] = []
        for entry in x5c {
            guard let der = entry.bytes, let certificate = try? Certificate(derEncoded: der) else {
                throw .malformed("a certificate in x5c that is not DER")
            }
            chain.append(certificate)
        }
        let credentialCertificate = chain[0]
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: now)
        }
        let result = await verifier.validate(
            leaf: credentialCertificate, intermediates: CertificateStore(chain.dropFirst()))
        guard case .validCertificate = result else {
            throw AppAttestError(
                .untrustedCertificate, "the credential certificate does not lead to a trusted root now")
        }
        // 2–4. The nonce: SHA-256(authData ‖ clientDataHash), in the certificate's extension.
        let nonce = Array(SHA256.hash(data: authBytes + clientDataHash))
        guard try Self.nonce(in: credentialCertificate) == nonce else {
            throw AppAttestError(.nonceMismatch, "the certificate's nonce is not this attestation's")
        }
        // 5. The key ID is the hash of the certificate's public key.
        guard let publicKey = P256.Signing.PublicKey(credentialCertificate.publicKey) else {
            throw .malformed("the credential certificate's key is not P-256")
        }
        let x963 = Array(publicKey.x963Representation)
        guard Array(SHA256.hash(data: x963)) == keyID else {
            throw AppAttestError(.keyIDMismatch, "the certificate's key is not the key named")
        }
        // 6. The app's ID.
        let authData = try AuthenticatorData(authBytes)
        guard authData.rpIDHash == appID.hash else {
            throw AppAttestError(.appIDMismatch, "the attestation is for another app")
        }
        // 7. A new key has signed nothing yet.
        guard authData.counter == 0 else {
            throw AppAttestError(.counterNotZero, "an attestation's counter of \(authData.counter)")
        }
        // 8. The environment.
        guard let credential = authData.credential else { throw .malformed("an attestation without its credential") }
        guard let environment = AppAttestEnvironment(aaguid: credential.aaguid), environments.contains(environment)
        else {
            throw AppAttestError(.environmentMismatch, "an attestation from an environment not accepted")
        }
        // 9. The credential is the key named, and its COSE key the certificate's.
        guard credential.credentialID == keyID else {
            throw AppAttestError(.credentialIDMismatch, "the credential is not the key named")
        }
        guard Self.coseKey(credential.publicKey, matches: x963) else {
            throw AppAttestError(.publicKeyMismatch, "the credential's key is not the certificate's")
        }
        return AttestedKey(
            keyID: keyID, publicKey: x963, environment: environment, receipt: statement["receipt"]?.bytes ?? [])
    }

    /// Verifies an assertion made with `key` over `clientData`, whose last accepted counter was
    /// `lastCounter` (0 before the first assertion).
    ///
    /// The caller checks what `clientData` says (the request and the challenge it carries);
    /// this checks that the attested key signed exactly it, for this app, after the last one.
    /// - Returns: the assertion's counter, to keep as the next `lastCounter`.
    /// - Throws: ``AppAttestError``.
    package func verifyAssertion(_ object: [UInt8], clientData: [UInt8], key: AttestedKey, lastCounter: UInt32)
        throws(AppAttestError) -> UInt32
    {
        let cbor: CBOR
        do { cbor = try CBOR(decoding: object) } catch { throw .malformed("assertion: \(error)") }
        guard let signature = cbor["signature"]?.bytes, let authBytes = cbor["authenticatorData"]?.bytes else {
            throw .malformed("an assertion without signature or authenticatorData")
        }
        let authData = try AuthenticatorData(authBytes)
        // 1–3. The signature over SHA-256(authenticatorData ‖ SHA-256(clientData)).
        let nonce = Array(SHA256.hash(data: authBytes + Array(SHA256.hash(data: clientData))))
        guard let publicKey = try? P256.Signing.PublicKey(x963Representation: key.publicKey),
            let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            publicKey.isValidSignature(parsed, for: nonce)
        else { throw AppAttestError(.badSignature, "the assertion's signature does not verify") }
        // 4. The app's ID.
        guard authData.rpIDHash == appID.hash else {
            throw AppAttestError(.appIDMismatch, "the assertion is for another app")
        }
        // 5. Strictly after the last one: a replayed assertion is refused.
        guard authData.counter > lastCounter else {
            throw AppAttestError(
                .counterNotIncreasing, "an assertion's counter of \(authData.counter) after \(lastCounter)")
        }
        return authData.counter
    }

    /// The octet string in the certificate's nonce extension: `SEQUENCE { [1] { OCTET STRING } }`.
    static func nonce(in certificate: Certificate) throws(AppAttestError) -> [UInt8] {
        guard let value = certificate.extensions.first(where: { $0.oid == nonceExtension })?.value else {
            throw AppAttestError(.nonceMismatch, "the credential certificate has no nonce")
        }
        do {
            let root = try DER.parse(value)
            guard root.identifier == .sequence, case .constructed(let children) = root.content else {
                throw AppAttestError.malformed("the nonce extension is not a sequence")
            }
            var elements = children.makeIterator()
            guard let tagged = elements.next(), elements.next() == nil,
                tagged.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific),
                case .constructed(let inner) = tagged.content
            else { throw AppAttestError.malformed("the nonce extension does not hold one [1] element") }
            var innerElements = inner.makeIterator()
            guard let octets = innerElements.next(), innerElements.next() == nil else {
                throw AppAttestError.malformed("the nonce extension's [1] does not hold one element")
            }
            return Array(try ASN1OctetString(derEncoded: octets).bytes)
        } catch let error as AppAttestError {
            throw error
        } catch {
            throw .malformed("the nonce extension is not DER")
        }
    }

    /// Whether a COSE EC2 key (`1: 2`, `3: -7`, `-1: 1`, `-2: x`, `-3: y`) is the P-256 key `x963`.
    static func coseKey(_ key: CBOR, matches x963: [UInt8]) -> Bool {
        guard key[.unsigned(1)]?.int == 2, key[.negative(0)]?.int == 1,
            let x = key[.negative(1)]?.bytes, let y = key[.negative(2)]?.bytes
        else { return false }
        if let algorithm = key[.unsigned(3)], algorithm.int != -7 { return false }
        return [0x04] + x + y == x963
    }
}

/// An app's identity as App Attest hashes it: its team ID and bundle ID.
package struct AppID: Sendable, Hashable, CustomStringConvertible {
    /// The Apple Developer team's ID (the App ID prefix).
    package var teamID: String
    /// The app's bundle ID.
    package var bundleID: String

    package init(teamID: String, bundleID: String) {
        self.teamID = teamID
        self.bundleID = bundleID
    }

    /// "TEAMID.bundle.id".
    package var description: String { "\(teamID).\(bundleID)" }

    /// SHA-256 of "TEAMID.bundle.id": the authenticator data's RP ID hash.
    package var hash: [UInt8] { Array(SHA256.hash(data: Array(description.utf8))) }
}

/// Where an app's key was attested.
package enum AppAttestEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    /// App Store and TestFlight builds.
    case production
    /// Builds Xcode signs for development.
    case development

    /// The authenticator data's AAGUID for this environment.
    package var aaguid: [UInt8] {
        switch self {
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        case .development: Array("appattestdevelop".utf8)
        }
    }

    init?(aaguid: [UInt8]) {
        guard let environment = Self.allCases.first(where: { $0.aaguid == aaguid }) else { return nil }
        self = environment
    }
}

/// A device key an attestation proved: what the server keeps to check its assertions.
package struct AttestedKey: Sendable, Hashable, Codable {
    /// The key's ID: SHA-256 of ``publicKey``.
    package var keyID: [UInt8]
    /// The P-256 public key, X9.63 uncompressed (65 bytes).
    package var publicKey: [UInt8]
    /// The environment it was attested in.
    package var environment: AppAttestEnvironment
    /// Apple's receipt, for the fraud-metric service (kept, not checked here).
    package var receipt: [UInt8]

    /// A key as a server stored it.
    package init(keyID: [UInt8], publicKey: [UInt8], environment: AppAttestEnvironment, receipt: [UInt8]) {
        self.keyID = keyID
        self.publicKey = publicKey
        self.environment = environment
        self.receipt = receipt
    }
}
