import ArgumentParser
import Foundation
import GRDB
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyWebAPI

/// A failure mapped to the documented exit codes: 1 failure, 2 usage, 3 sign-in needed,
/// 4 rate limited, 5 offline.
struct CLIFailure: Error {
    /// Whether `error` says Spotify (its Web API or its accounts service) could not be reached:
    /// exit code 5, the failures a command that has something saved shows offline instead.
    static func isUnreachable(_ error: any Error) -> Bool {
        switch error {
        case let error as SpotifyAPIError: error.code == .transport
        case let error as OAuthError: error.code == .transient
        default: false
        }
    }

    var message: String
    var exitCode: Int32
    var isKnown = true
    /// Already written in the command's one `--json` document (a partial refresh's counts and
    /// failure together): only the exit code is left to give.
    var reported = false

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: any Error) {
        switch error {
        case let failure as CLIFailure:
            self = failure
        case let expired as CommandDeadlineExpired:
            self = expired.failure
        case let error as CocoaError:
            // A file the command reads or writes: its path and the reason, never NSCocoaErrorDomain.
            let path = (error.userInfo[NSFilePathErrorKey] as? String).map { " \($0)" } ?? ""
            let reason: String
            switch error.code {
            case .fileWriteOutOfSpace: reason = "the disk is full; free some space and try again"
            case .fileNoSuchFile, .fileReadNoSuchFile: reason = "there is no such file or folder"
            case .fileReadNoPermission, .fileWriteNoPermission: reason = "permission denied"
            case .fileWriteVolumeReadOnly: reason = "the volume is read-only"
            default: reason = "the file could not be used (\(error.code.rawValue))"
            }
            self.init("Could not use\(path): \(reason).", exitCode: 1)
        case let error as OAuthError:
            switch error.code {
            case .needsSignIn, .invalidGrant:
                self.init(error.message + " Run 'spotlink login\(Self.sameOptions)'.", exitCode: 3)
            case .transient: self.init(error.message, exitCode: 5)
            default: self.init(error.message, exitCode: 1)
            }
        case let error as SpotifyAPIError:
            switch error.code {
            case .rateLimited, .quotaExceeded, .budgetExhausted: self.init(error.message, exitCode: 4)
            case .transport: self.init(error.message, exitCode: 5)
            case .missingScope:
                let scope = error.scope.map { " --scope \($0)" } ?? ""
                self.init(error.message + " Run 'spotlink login\(scope)\(Self.sameOptions)'.", exitCode: 3)
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

    /// The options of this command line that a `spotlink login` hint must keep to sign in to the
    /// same place: the emulator, the data folder, the client ID.
    static var sameOptions: String {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var kept: [String] = []
        for name in ["--emulator", "--data-dir", "--client-id"] {
            if let index = arguments.firstIndex(of: name), index + 1 < arguments.count {
                kept.append("\(name) \(arguments[index + 1])")
            } else if let joined = arguments.first(where: { $0.hasPrefix(name + "=") }) {
                kept.append(joined)
            }
        }
        return kept.map { " " + $0 }.joined()
    }
}
