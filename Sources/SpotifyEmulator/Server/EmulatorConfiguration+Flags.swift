import Foundation

extension EmulatorConfiguration {
    /// Applies the emulator's command-line values after checking them.
    ///
    /// - Throws: ``EmulatorConfigurationError`` naming the flag at fault.
    public mutating func apply(
        clientIDs: [String], redirectURIs: [String], clientSecret: String?, accessTokenTTL: Int,
        refreshRotation: String, latencyMs: Int, rateLimit: Int?, catalog: String?, shape: String
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
        guard latencyMs >= 0 else { throw EmulatorConfigurationError(flag: "--latency-ms", message: "must not be negative") }
        if let rateLimit, rateLimit <= 0 {
            throw EmulatorConfigurationError(flag: "--rate-limit", message: "must be positive")
        }
        let ids = clientIDs.isEmpty ? ["spotlink-demo"] : clientIDs
        let uris = redirectURIs.isEmpty ? ["http://127.0.0.1/callback"] : redirectURIs
        clients = ids.map { Client(id: $0, redirectURIs: uris, secret: clientSecret) }
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
    public var flag: String
    public var message: String
    public var description: String { "\(flag) \(message)" }
}
