import Foundation
import SpotifyAuth
import SpotifyWebAPI

/// Test helper for the cross-process refresh: one process of an app (the app, or its widget) that
/// holds a sign-in in a shared token folder and refreshes it when told to.
///
/// Usage: `RefreshRaceChild DIRECTORY EMULATOR_URL`. It reads the stored tokens, prints `ready`,
/// waits for a line on standard input, refreshes the token it read (as after a 401), and prints
/// `refreshed` or `failed CODE`. It never prints a token.
@main
struct RefreshRaceChild {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let url = URL(string: arguments[2]) else {
            FileHandle.standardError.write(Data("usage: RefreshRaceChild DIRECTORY EMULATOR_URL\n".utf8))
            exit(2)
        }
        let session = SpotifySession(
            endpoint: TokenEndpoint(server: .emulator(url: url), clientID: "spotlink-demo"),
            store: FileTokenStore(directory: URL(fileURLWithPath: arguments[1])))
        do {
            guard let stored = try await session.tokens() else {
                say("failed no-tokens")
                exit(1)
            }
            say("ready")
            _ = readLine()
            _ = try await session.refreshedAccessToken(replacing: stored.accessToken)
            say("refreshed")
            exit(0)
        } catch {
            say("failed \((error as? OAuthError)?.code.description ?? "\(type(of: error))")")
            exit(1)
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
