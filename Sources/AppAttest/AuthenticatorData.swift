/// The authenticator data of an attestation or an assertion (WebAuthn's layout): the hash of the
/// app's ID, flags, the key's counter and, in an attestation, the key itself.
package struct AuthenticatorData: Sendable, Equatable {
    /// SHA-256 of the App ID ("TEAMID.bundle.id").
    package var rpIDHash: [UInt8]
    /// WebAuthn's flags byte.
    package var flags: UInt8
    /// How many times the key signed: 0 in the attestation, then growing with each assertion.
    package var counter: UInt32
    /// The attested key, present in an attestation only.
    package var credential: AttestedCredential?

    /// The attested key in an attestation's authenticator data.
    package struct AttestedCredential: Sendable, Equatable {
        /// "appattestdevelop", or "appattest" and seven zero bytes: the environment.
        package var aaguid: [UInt8]
        /// The key's ID: SHA-256 of its public key.
        package var credentialID: [UInt8]
        /// The key as a COSE key (a CBOR map).
        package var publicKey: CBOR
        /// What follows the key, if anything: a CBOR map of the device's claims (iOS 27 writes
        /// `apple_bundle_version_01` and `apple_validation_category_01` there, with WebAuthn's
        /// extension flag unset in Apple's sample). Kept, not checked.
        package var extensions: CBOR? = nil

        /// A credential of `aaguid`'s environment with `credentialID` and `publicKey`.
        package init(aaguid: [UInt8], credentialID: [UInt8], publicKey: CBOR, extensions: CBOR? = nil) {
            self.aaguid = aaguid
            self.credentialID = credentialID
            self.publicKey = publicKey
            self.extensions = extensions
        }
    }

    /// The flag that says an attested credential follows the counter.
    static let attestedCredentialFlag: UInt8 = 0x40

    /// Reads `bytes`; an assertion's data ends after the counter.
    /// - Throws: ``AppAttestError`` `.malformed` when the bytes do not have the layout.
    package init(_ bytes: [UInt8]) throws(AppAttestError) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data of \(bytes.count) bytes, 37 at least") }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & Self.attestedCredentialFlag != 0 else {
            guard bytes.count == 37 else { throw .malformed("\(bytes.count - 37) bytes after the counter") }
            credential = nil
            return
        }
        guard bytes.count >= 55 else { throw .malformed("an attested credential cut short") }
        let aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard bytes.count >= 55 + length else { throw .malformed("a credential ID cut short") }
        let credentialID = Array(bytes[55..<(55 + length)])
        let rest = bytes[(55 + length)...]
        let key: CBOR
        let extensions: CBOR?
        do {
            let (value, keyLength) = try CBOR.prefix(of: rest)
            key = value
            extensions = keyLength < rest.count ? try CBOR(decoding: rest.dropFirst(keyLength)) : nil
        } catch {
            throw .malformed("the credential's public key or extensions: \(error)")
        }
        if let extensions, case .map = extensions {
        } else if extensions != nil {
            throw .malformed("the credential's extensions are not a map")
        }
        credential = AttestedCredential(
            aaguid: aaguid, credentialID: credentialID, publicKey: key, extensions: extensions)
    }

    /// The bytes of this data (tests build attestations with it).
    package var encoded: [UInt8] {
        var out = rpIDHash + [flags] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: counter >> (8 * UInt32($0))) }
        if let credential {
            out += credential.aaguid
            out += [
                UInt8(credential.credentialID.count >> 8), UInt8(truncatingIfNeeded: credential.credentialID.count),
            ]
            out += credential.credentialID
            out += credential.publicKey.encoded
            out += credential.extensions?.encoded ?? []
        }
        return out
    }
}
