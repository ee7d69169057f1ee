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
        let key: CBOR
        do {
            key = try CBOR(decoding: bytes[(55 + length)...])
        } catch {
            throw .malformed("the credential's public key: \(error)")
        }
        credential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key)
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
        }
        return out
    }
}
