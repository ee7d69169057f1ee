package import Foundation

/// The device's App Attest service, as `DCAppAttestService` offers it (iOS 14, macOS 11): the
/// seam the signed-out search goes through, so Linux tests drive the same logic with a scripted
/// attester.
package protocol AppAttestDevice: Sendable {
    /// Whether this device can attest (`false` on a simulator and most Macs).
    var isSupported: Bool { get }
    /// A new key in the Secure Enclave; its ID, Base64.
    func generateKey() async throws -> String
    /// Apple's attestation of `keyID` over `clientDataHash`.
    func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data
    /// An assertion with `keyID` over `clientDataHash`; its counter goes up by one each time.
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data
}

#if canImport(DeviceCheck)
    import DeviceCheck

    /// `DCAppAttestService.shared`: the real App Attest of an iOS app with the App Attest
    /// entitlement (`com.apple.developer.devicecheck.appattest-environment`).
    struct SystemAppAttest: AppAttestDevice {
        var isSupported: Bool { DCAppAttestService.shared.isSupported }

        func generateKey() async throws -> String {
            try await DCAppAttestService.shared.generateKey()
        }

        func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash)
        }

        func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash)
        }
    }
#endif
