import Foundation
import SpotifyAuth
import SpotifyLinkUI
import SpotifyWebAPI

/// Test helper for the App Group tests: one process of an app (or its widget) that makes its
/// `SpotifyLink` with an App Group, as an app does, and sends `COUNT` background requests
/// (`GET /me`), then prints one line: `sent N budget N other N` (requests that got an answer,
/// refusals of the daily budget, anything else). The group's container is found in
/// `$XDG_DATA_HOME`, as on Linux it is; the tokens are read from the file store in `TOKENS_DIR`.
/// The device's background budget is 4 requests a day.
///
/// Usage: `AppGroupChild EMULATOR_URL CLIENT_ID APP_GROUP TOKENS_DIR COUNT`
let arguments = CommandLine.arguments
guard arguments.count == 6, let emulator = URL(string: arguments[1]), let count = Int(arguments[5]) else {
    FileHandle.standardError.write(
        Data("usage: AppGroupChild EMULATOR_URL CLIENT_ID APP_GROUP TOKENS_DIR COUNT\n".utf8))
    exit(2)
}
var configuration = SpotifyLink.Configuration(
    clientID: arguments[2], redirectURI: "myapp://spotify-callback", server: .emulator(url: emulator),
    appGroup: arguments[3])
configuration.tokenStore = FileTokenStore(directory: URL(fileURLWithPath: arguments[4]))
configuration.share = QuotaShare(developerQuota: 40, usersPerApp: 5)
let spotify = SpotifyLink(configuration)
var sent = 0, budget = 0, other = 0
for _ in 0..<count {
    do {
        _ = try await SpotifyClient.withOrigin(.backgroundWork) { try await spotify.client.currentUser() }
        sent += 1
    } catch let error as SpotifyAPIError where error.code == .budgetExhausted {
        budget += 1
    } catch {
        other += 1
        FileHandle.standardError.write(Data("\(error)\n".utf8))
    }
}
print("sent \(sent) budget \(budget) other \(other)")
