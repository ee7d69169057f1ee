import Crypto
import Foundation
package import SpotifyWebAPI

/// Where random bytes come from. Injected so tests can make it fail; there is never a weak fallback.
package protocol RandomSource: Sendable {
    /// Returns `count` cryptographically secure random bytes, or throws.
    func bytes(_ count: Int) throws -> [UInt8]
}

/// The operating system's CSPRNG (`getrandom` on Linux, `SecRandomCopyBytes` on Apple platforms).
package struct SystemRandomSource: RandomSource {
    /// The system's random source.
    package init() {}
    package func bytes(_ count: Int) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// Proof Key for Code Exchange (RFC 7636), S256 only.
package enum PKCE {
    /// A new verifier: 64 characters of the unreserved set, from 48 random bytes.
    package static func makeVerifier(using random: any RandomSource) throws -> CodeVerifier {
        CodeVerifier(base64URL(try randomBytes(48, random)))
    }

    /// A new `state`: 43 unreserved characters from 32 random bytes.
    package static func makeState(using random: any RandomSource) throws -> String {
        base64URL(try randomBytes(32, random))
    }

    /// base64url(SHA-256(verifier)) without padding.
    package static func challenge(for verifier: CodeVerifier) -> String {
        base64URL(Array(SHA256.hash(data: Data(verifier.unredactedValue.utf8))))
    }

    private static func randomBytes(_ count: Int, _ random: any RandomSource) throws -> [UInt8] {
        let bytes = try random.bytes(count)
        guard bytes.count == count else {
            throw OAuthError(
                code: .configuration, message: "The random source returned too few bytes; sign-in was not started.")
        }
        return bytes
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
