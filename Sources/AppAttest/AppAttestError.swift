/// Why an attestation or an assertion was refused: a code a server maps to its answer, and a
/// message for its log. Neither carries the object's bytes.
package struct AppAttestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    package enum Code: Sendable, Equatable, CaseIterable {
        /// The bytes are not an App Attest object (CBOR, layout, certificate encoding).
        case malformed
        /// The attestation's format is not "apple-appattest".
        case wrongFormat
        /// The certificate chain does not lead to the trusted root at the time of the check
        /// (a foreign or expired certificate).
        case untrustedCertificate
        /// The certificate's nonce is not the hash of the authenticator data and the challenge.
        case nonceMismatch
        /// The certificate's key is not the key the app named.
        case keyIDMismatch
        /// The authenticator data is for another app (team ID and bundle ID).
        case appIDMismatch
        /// The attestation is from an environment the server does not accept (development
        /// versus production).
        case environmentMismatch
        /// An attestation's counter is not zero.
        case counterNotZero
        /// The authenticator data's credential is not the key the app named.
        case credentialIDMismatch
        /// The key in the authenticator data is not the certificate's.
        case publicKeyMismatch
        /// An assertion's signature does not verify with the attested key.
        case badSignature
        /// An assertion's counter is not above the last one accepted: a replay.
        case counterNotIncreasing
    }

    /// What was wrong.
    package var code: Code
    /// Said for a server's log.
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func malformed(_ message: String) -> AppAttestError { AppAttestError(.malformed, message) }

    package var description: String { "App Attest: \(message)" }
}
