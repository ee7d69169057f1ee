/// A small deterministic generator (SplitMix64): the same seed gives the same catalog and the same
/// injected faults on every machine.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A 22-character base62 ID, the shape of Spotify's catalog IDs.
    package mutating func base62ID() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        return String((0..<22).map { _ in alphabet[Int(next() % 62)] })
    }

    /// An opaque token of the given prefix.
    package mutating func token(_ prefix: String) -> String {
        prefix + (0..<3).map { _ in String(next(), radix: 36) }.joined()
    }
}
