import Foundation

extension EmulatorConfiguration {
    /// Applies the emulator's command-line values after checking them.
    ///
    /// - Throws: ``EmulatorConfigurationError`` naming the flag at fault.
    public mutating func apply(
        clientIDs: [String], redirectURIs: [String], clientSecret: String?, accessTokenTTL: Int,
        refreshRotation: String, latencyMs: Int, rateLimit: Int?, catalog: String?, shape: String,
        quota: Int? = nil, quotaWindow: Int = 86_400, developers: [String] = [], extraPlaylists: Int = 0
    ) throws {
        guard let rotation = RefreshRotation(rawValue: refreshRotation) else {
            throw EmulatorConfigurationError(flag: "--refresh-rotation", message: "must be none or rotate")
        }
        guard let shapeValue = Shape(rawValue: shape) else {
            throw EmulatorConfigurationError(flag: "--shape", message: "must be 2026 or transition")
        }
        guard accessTokenTTL > 0 else {
            throw EmulatorConfigurationError(flag: "--access-token-ttl", message: "must be positive")
        }
        guard latencyMs >= 0 else {
            throw EmulatorConfigurationError(flag: "--latency-ms", message: "must not be negative")
        }
        if let rateLimit, rateLimit <= 0 {
            throw EmulatorConfigurationError(flag: "--rate-limit", message: "must be positive")
        }
        if let quota, quota <= 0 { throw EmulatorConfigurationError(flag: "--quota", message: "must be positive") }
        guard quotaWindow > 0 else {
            throw EmulatorConfigurationError(flag: "--quota-window", message: "must be positive")
        }
        guard extraPlaylists >= 0, extraPlaylists <= 10_000 else {
            throw EmulatorConfigurationError(flag: "--extra-playlists", message: "must be between 0 and 10000")
        }
        var owners: [String: String] = [:]
        for pair in developers {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw EmulatorConfigurationError(
                    flag: "--developer", message: "takes CLIENT_ID=DEVELOPER, as app-2=alice")
            }
            owners[parts[0]] = parts[1]
        }
        let ids = clientIDs.isEmpty ? ["spotlink-demo"] : clientIDs
        if let unknown = owners.keys.sorted().first(where: { !ids.contains($0) }) {
            throw EmulatorConfigurationError(
                flag: "--developer", message: "names \(unknown), which is not a --client-id")
        }
        let uris = redirectURIs.isEmpty ? ["http://127.0.0.1/callback"] : redirectURIs
        clients = ids.map {
            Client(id: $0, redirectURIs: uris, secret: clientSecret, developer: owners[$0] ?? "developer")
        }
        self.quota = quota
        self.quotaWindow = .seconds(quotaWindow)
        self.extraLibraryPlaylists = extraPlaylists
        self.accessTokenTTL = .seconds(accessTokenTTL)
        self.refreshRotation = rotation
        self.latency = .milliseconds(latencyMs)
        self.rateLimit = rateLimit
        self.catalogFile = catalog.map { URL(fileURLWithPath: $0) }
        self.shape = shapeValue
    }
}

/// A bad emulator flag.
public struct EmulatorConfigurationError: Error, CustomStringConvertible {
    /// The command-line flag that was refused.
    public var flag: String
    /// Why, and what the flag accepts.
    public var message: String
    public var description: String { "\(flag) \(message)" }
}
