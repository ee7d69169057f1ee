import Crypto
import Foundation
public import SpotifyWebAPI

/// Where random bytes come from. Injected so tests can make it fail; there is never a weak fallback.
public protocol RandomSource: Sendable {
    /// Returns `count` cryptographically secure random bytes, or throws.
    func bytes(_ count: Int) throws -> [UInt8]
}

/// The operating system's CSPRNG (`getrandom` on Linux, `SecRandomCopyBytes` on Apple platforms).
public struct SystemRandomSource: RandomSource {
    /// The system's random source.
    public init() {}
    public func bytes(_ count: Int) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// Proof Key for Code Exchange (RFC 7636), S256 only.
public enum PKCE {
    /// A new verifier: 64 characters of the unreserved set, from 48 random bytes.
    public static func makeVerifier(using random: any RandomSource) throws -> CodeVerifier {
        CodeVerifier(base64URL(try randomBytes(48, random)))
    }

    /// A new `state`: 43 unreserved characters from 32 random bytes.
    public static func makeState(using random: any RandomSource) throws -> String {
        base64URL(try randomBytes(32, random))
    }

    /// base64url(SHA-256(verifier)) without padding.
    public static func challenge(for verifier: CodeVerifier) -> String {
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
