// Stand-in: what CryptoKit declares public and swift-crypto's printed interface loses. On Apple
// platforms `import Crypto` re-exports CryptoKit, where each hash function conforms to HashFunction
// and each digest to Digest; swift-crypto declares those conformances through internal protocols,
// which the interface printer leaves out, and the conformances with them. The check appends these
// lines to Crypto's interface (AppleCheck/check.py).
// https://developer.apple.com/documentation/cryptokit/sha256 (iOS 13, macOS 10.15)

@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, visionOS 1.0, *)
extension Crypto.SHA256: Crypto.HashFunction {}

/// https://developer.apple.com/documentation/cryptokit/sha256digest (iOS 13, macOS 10.15)
@available(macOS 10.15, iOS 13, watchOS 6, tvOS 13, visionOS 1.0, *)
extension Crypto.SHA256Digest: Crypto.Digest {}
