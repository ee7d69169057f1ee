import Crypto
public import Foundation
@_spi(Storage) import SpotifyAuth

/// The keys that seal sign-ins kept in PostgreSQL (AES-256-GCM), each named by an ID that is
/// kept with every row it sealed.
///
/// The server gives them, from the environment or a file, never from the database: a copy of the
/// database opens no sign-in. The first key seals; the others only open rows sealed before a
/// rotation, and each such row is sealed again under the first at its next save (a refresh).
///
/// The text form lists `ID:KEY` entries, the current key first, separated by commas or lines;
/// each key is 32 random bytes in base64 (`openssl rand -base64 32`):
///
/// ```sh
/// export SPOTLINK_TOKEN_KEYS="2026-11:<new key>,2026-05:<old key>"
/// ```
///
/// No description, error or log shows a key.
public struct TokenSealingKeys: Sendable, CustomStringConvertible {
    /// The ID of the key that seals.
    public let currentID: String
    /// Every key's ID, the current one first.
    public let ids: [String]
    private let keys: [String: SymmetricKey]

    /// The environment variable the CLI and ``fromEnvironment(_:in:)`` read.
    public static let environmentVariable = "SPOTLINK_TOKEN_KEYS"

    /// Keys read from their text form.
    /// - Parameters:
    ///   - text: `ID:KEY` entries, the current key first, separated by commas or lines; lines
    ///     starting with `#` are comments.
    ///   - source: where the text came from, named in errors (never the text itself).
    /// - Throws: `TokenStoreError` with code `.misconfigured` for an empty list, an ID used twice
    ///   or not of letters, digits, `.`, `_` and `-`, or a key that is not 32 bytes of base64;
    ///   the entry is named by its position and ID.
    public init(parsing text: String, source: String = "the sealing keys") throws {
        var ids: [String] = []
        var keys: [String: SymmetricKey] = [:]
        let entries = text.split(whereSeparator: { $0 == "," || $0.isNewline }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for (position, entry) in entries.enumerated() {
            let place = "entry \(position + 1) of \(source)"
            guard let colon = entry.firstIndex(of: ":") else {
                throw Self.misconfigured("\(place) is not ID:KEY. \(Self.howTo)")
            }
            let id = String(entry[..<colon])
            guard Self.isValidID(id) else {
                throw Self.misconfigured(
                    "\(place) has an ID that is not 1 to 64 letters, digits, '.', '_' or '-'. \(Self.howTo)")
            }
            guard keys[id] == nil else { throw Self.misconfigured("\(place) uses the ID “\(id)” again.") }
            guard let bytes = Data(base64Encoded: String(entry[entry.index(after: colon)...])), bytes.count == 32 else {
                throw Self.misconfigured("\(place) (ID “\(id)”) is not 32 bytes in base64. \(Self.howTo)")
            }
            ids.append(id)
            keys[id] = SymmetricKey(data: bytes)
        }
        guard let first = ids.first else { throw Self.misconfigured("\(source) holds no key. \(Self.howTo)") }
        self.currentID = first
        self.ids = ids
        self.keys = keys
    }

    /// The keys in an environment variable.
    /// - Throws: `TokenStoreError` with code `.misconfigured` when it is unset or cannot be read.
    public static func fromEnvironment(
        _ variable: String = environmentVariable, in environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TokenSealingKeys {
        guard let text = environment[variable], !text.isEmpty else {
            throw misconfigured("\(variable) is not set. \(howTo)")
        }
        return try TokenSealingKeys(parsing: text, source: variable)
    }

    /// The keys in a file that only its owner can read.
    /// - Throws: `TokenStoreError`: `.insecure` when others may read the file (`chmod 600` it),
    ///   `.io` when it cannot be read, `.misconfigured` when its contents cannot be used.
    public init(contentsOf file: URL) throws {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            throw TokenStoreError(
                code: .io,
                message: "The sealing key file \(file.path) could not be read: \(String(cString: strerror(errno))).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw TokenStoreError(
                code: .insecure,
                message:
                    "The sealing key file \(file.path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): "
                    + "run chmod 600 on it.")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw TokenStoreError(code: .io, message: "The sealing key file \(file.path) could not be read.")
        }
        try self.init(parsing: String(decoding: data, as: UTF8.self), source: file.path)
    }

    public var description: String {
        "TokenSealingKeys(sealing with “\(currentID)”\(ids.count > 1 ? ", opening \(ids.dropFirst().joined(separator: ", ")) too" : ""))"
    }

    // MARK: - Sealing

    /// A short fingerprint of a key (HMAC-SHA256 of a fixed text, 8 bytes in hex), kept with each
    /// row: it tells a key given under the wrong ID from a row that was changed, and says nothing
    /// of the key.
    func check(_ id: String) -> String? {
        keys[id].map { key in
            let mac = HMAC<SHA256>.authenticationCode(for: Data("spotlink token key check".utf8), using: key)
            return Data(mac).prefix(8).map { String(format: "%02x", $0) }.joined()
        }
    }

    /// `plain` sealed under the current key, bound to `context` (the row's owner), so a row copied
    /// to another user does not open.
    func seal(_ plain: Data, context: Data) throws -> Data {
        guard let key = keys[currentID],
            let combined = try AES.GCM.seal(plain, using: key, authenticating: context).combined
        else { throw Self.misconfigured("The current sealing key is missing.") }
        return combined
    }

    /// What `sealed` holds under the key `id`; `nil` when it does not authenticate (changed, or
    /// sealed for another context).
    func open(_ sealed: Data, id: String, context: Data) -> Data? {
        guard let key = keys[id], let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: context)
    }

    func has(_ id: String) -> Bool { keys[id] != nil }

    private static let howTo =
        "Give the keys as ID:KEY entries, the current first, each KEY 32 random bytes in base64 (openssl rand -base64 32)."

    private static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.count)
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "._-".unicodeScalars.contains($0)
            }
    }

    static func misconfigured(_ message: String) -> TokenStoreError {
        TokenStoreError(code: .misconfigured, message: message)
    }
}
