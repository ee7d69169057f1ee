import ArgumentParser
import Foundation
import GRDB
import PlaylistLinks
import PlaylistLinksSQLite
import SpotifyAuth
import SpotifyWebAPI

/// A failure mapped to the documented exit codes: 1 failure, 2 usage, 3 sign-in needed,
/// 4 rate limited, 5 offline.
struct CLIFailure: Error {
    var message: String
    var exitCode: Int32
    var isKnown = true

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case let error as OAuthError:
            switch error.code {
            case .needsSignIn, .invalidGrant: self.init(error.message + " Run 'spotlink login'.", exitCode: 3)
            case .transient: self.init(error.message, exitCode: 5)
            default: self.init(error.message, exitCode: 1)
            }
        case let error as SpotifyAPIError:
            switch error.code {
            case .rateLimited, .quotaExceeded, .budgetExhausted: self.init(error.message, exitCode: 4)
            case .transport: self.init(error.message, exitCode: 5)
            case .missingScope:
                let scope = error.scope.map { " --scope \($0)" } ?? ""
                self.init(error.message + " Run 'spotlink login\(scope)'.", exitCode: 3)
            case .userNotRegistered, .ownerPremiumRequired: self.init(error.message, exitCode: 1)
            case .invalidIdentifier, .invalidRequest: self.init(error.message, exitCode: 2)
            default: self.init(error.message, exitCode: 1)
            }
        case let error as TokenStoreError:
            self.init(error.message, exitCode: error.code == .corrupt ? 3 : 1)
        case let error as PlaylistLinksError:
            self.init(error.message, exitCode: 1)
        case let error as DatabaseError:
            // The journal's own statements: SQLite's words never reach the user.
            self.init(
                PlaylistLinksError.database(error, doing: "The session journal could not be used", file: nil).message)
        default:
            self.init(String(describing: error), exitCode: 1)
            isKnown = false
        }
    }
}
