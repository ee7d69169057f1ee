package import Foundation
import GRDB
@_spi(Storage) package import PlaylistLinks
package import SpotifyWebAPI

extension PlaylistLinksError {
    /// `error` from the links' SQLite file as this layer's error, code `.database`, in the words
    /// ``SQLiteFailure/words(_:doing:file:)`` gives.
    /// - Parameters:
    ///   - doing: what failed, as "The playlist database could not be written".
    ///   - file: the database file, to name in the advice.
    package static func database(_ error: any Error, doing: String, file: URL?) -> PlaylistLinksError {
        if let error = error as? PlaylistLinksError { return error }
        return PlaylistLinksError(
            code: .database, message: SQLiteFailure.words(error, doing: doing, file: file), underlying: error)
    }
}

extension SpotifyAPIError {
    /// `error` from the request ledger's SQLite file as this layer's error, code
    /// `.ledgerUnavailable`, in the words ``SQLiteFailure/words(_:doing:file:)`` gives: the ledger
    /// belongs to the Web API's layer, so its failures are never a links error.
    ///
    /// The words end by saying that nothing is sent meanwhile: the ledger fails closed.
    package static func ledgerDatabase(_ error: any Error, doing: String, file: URL?) -> SpotifyAPIError {
        if let error = error as? SpotifyAPIError { return error }
        let place = file.map { " (\($0.path))" } ?? ""
        let words: String
        switch error {
        case let newer as PlaylistLinksError:
            // A file written by a newer version of the package: its own words say so.
            words = "\(doing)\(place): \(newer.message)"
        case let database as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(database.resultCode):
            words =
                "\(doing)\(place): the file is not a request ledger SpotifyLink can read (damaged, or not a "
                + "database). Move it aside: the next request makes a new one, and a quota cooldown it held "
                + "still holds."
        default:
            words = SQLiteFailure.words(error, doing: doing, file: file)
        }
        return SpotifyAPIError(
            code: .ledgerUnavailable,
            message: words
                + " Nothing is sent to Spotify until the ledger can count the requests: without it, the app's "
                + "processes could pass Spotify's quota together.",
            underlying: error)
    }
}

/// What a SQLite failure means to the person who reads it, for whichever layer's error carries it.
package enum SQLiteFailure {
    /// A file the package refuses to open (a symbolic link, another user's file), in its own words:
    /// the links and the ledger share the opening, and each layer's error keeps them.
    package struct Refused: Error, CustomStringConvertible {
        /// What was refused and what to do.
        package let message: String
        package var description: String { message }
    }

    /// `error` from SQLite (or the file system beneath it) in words that say what to do, never
    /// SQLite's own text: a read-only folder, a full disk, a file that is not a database, a busy
    /// file; a refusal in its own words; other failures name what was being done.
    /// - Parameters:
    ///   - doing: what failed, as "The playlist database could not be written".
    ///   - file: the database file, to name in the advice.
    package static func words(_ error: any Error, doing: String, file: URL?) -> String {
        if let refused = error as? Refused { return refused.message }
        let place = file.map { " (\($0.path))" } ?? ""
        let folder = file?.deletingLastPathComponent().path ?? "its folder"
        let advice: String
        switch (error as? DatabaseError)?.resultCode {
        case .SQLITE_READONLY?:
            advice =
                "the data folder \(folder) is read-only. What is saved can still be read and exported; "
                + "to change it, make the folder and its files writable (chmod u+w)."
        case .SQLITE_FULL?:
            advice = "the disk is full. Nothing saved was lost: free some space, then try again."
        case .SQLITE_NOTADB?, .SQLITE_CORRUPT?:
            advice =
                "the file is not a SpotifyLink database (or was damaged). Move it aside and restore a backup "
                + "(spotlink import), or start afresh."
        case .SQLITE_CONSTRAINT?:
            // A rule of the file refused the change (a foreign key, or a trigger of the app's own).
            advice =
                "a rule of the database refused it (\((error as? DatabaseError)?.message ?? "constraint")). "
                + "Nothing was changed."
        case .SQLITE_BUSY?, .SQLITE_LOCKED?:
            advice = "another process held it too long. Try again."
        case .SQLITE_IOERR?:
            advice = "the disk could not be read or written. Check that it is not full or failing, then try again."
        default:
            if let cocoa = error as? CocoaError, cocoa.code == .fileWriteOutOfSpace {
                advice = "the disk is full. Nothing saved was lost: free some space, then try again."
            } else if isReadOnly(file) {
                advice = "the data folder \(folder) is read-only. Make it writable (chmod u+w), then try again."
            } else {
                let code = (error as? DatabaseError).map { " (SQLite result \($0.extendedResultCode.rawValue))" } ?? ""
                advice =
                    "the database could not complete it\(code). Try again; if it keeps failing, run "
                    + "'spotlink doctor'."
            }
        }
        return "\(doing)\(place): \(advice)"
    }

    /// Whether `file` (or, when it does not exist, its folder) cannot be written by this process.
    package static func isReadOnly(_ file: URL?) -> Bool {
        guard let file else { return false }
        let manager = FileManager.default
        if manager.fileExists(atPath: file.path) {
            return !manager.isWritableFile(atPath: file.path)
                || !manager.isWritableFile(atPath: file.deletingLastPathComponent().path)
        }
        return !manager.isWritableFile(atPath: file.deletingLastPathComponent().path)
    }
}
