import Dispatch
import Foundation
@_spi(Storage) import SpotifyAuth
import SpotifyWebAPI

/// Test helper for checklist row 27: saves tokens to a file store in a loop, printing `saved N`
/// after each save returns, until it is killed.
///
/// Usage: `TokenCrashChild DIRECTORY FIRST KILL_AFTER_MICROSECONDS`: the process sends itself
/// SIGKILL that long after its first save, wherever it is in a later write.
@main
struct TokenCrashChild {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let first = Int(arguments[2]), let killAfter = Int(arguments[3]) else {
            FileHandle.standardError.write(
                Data("usage: TokenCrashChild DIRECTORY FIRST KILL_AFTER_MICROSECONDS\n".utf8))
            exit(2)
        }
        let store = FileTokenStore(directory: URL(fileURLWithPath: arguments[1]))
        let key = SpotifyAppKey(issuer: "http://127.0.0.1:1", clientID: "crash-test")
        for index in first... {
            let tokens = StoredTokens(
                accessToken: AccessToken("SENTINEL_AT_\(index)"), refreshToken: RefreshToken("SENTINEL_RT_\(index)"),
                expiresAt: Date(timeIntervalSince1970: 1_800_000_000), scopes: ["user-read-private"],
                signedInAt: Date(timeIntervalSince1970: 1_790_000_000), issuer: key.issuer, clientID: key.clientID)
            try await store.save(tokens, for: key)
            FileHandle.standardOutput.write(Data("saved \(index)\n".utf8))
            if index == first {
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(killAfter)) {
                    kill(getpid(), SIGKILL)
                }
            }
        }
    }
}
