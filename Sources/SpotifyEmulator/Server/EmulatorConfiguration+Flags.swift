import Foundation

extension EmulatorConfiguration {
    /// Applies the emulator's command-line values after checking them.
    ///
    /// - Throws: ``EmulatorError`` with code ``EmulatorError/Code/invalidFlag`` naming the flag at fault.
    package mutating func apply(
        clientIDs: [String], redirectURIs: [String], clientSecret: String?, accessTokenTTL: Int,
        refreshRotation: RefreshRotation, latencyMs: Int, rateLimit: Int?, catalog: String?, shape: Shape,
        quota: Int? = nil, quotaWindow: Int = 86_400, developers: [String] = [], extraPlaylists: Int = 0,
        clientCreated: String? = nil
    ) throws {
        var created = Client.newClientCreated
        if let clientCreated {
            let format = Date.ISO8601FormatStyle().year().month().day()
            guard let date = try? format.parse(clientCreated) else {
                throw EmulatorError(flag: "--client-created", message: "takes a date as YYYY-MM-DD, as 2025-06-01")
            }
            created = date
        }
        guard accessTokenTTL > 0 else {
            throw EmulatorError(flag: "--access-token-ttl", message: "must be positive")
        }
        guard latencyMs >= 0 else {
            throw EmulatorError(flag: "--latency-ms", message: "must not be negative")
        }
        if let rateLimit, rateLimit <= 0 {
            throw EmulatorError(flag: "--rate-limit", message: "must be positive")
        }
        if let quota, quota <= 0 { throw EmulatorError(flag: "--quota", message: "must be positive") }
        guard quotaWindow > 0 else {
            throw EmulatorError(flag: "--quota-window", message: "must be positive")
        }
        guard extraPlaylists >= 0, extraPlaylists <= 10_000 else {
            throw EmulatorError(flag: "--extra-playlists", message: "must be between 0 and 10000")
        }
        var owners: [String: String] = [:]
        for pair in developers {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw EmulatorError(flag: "--developer", message: "takes CLIENT_ID=DEVELOPER, as app-2=alice")
            }
            owners[parts[0]] = parts[1]
        }
        let ids = clientIDs.isEmpty ? ["spotlink-demo"] : clientIDs
        if let unknown = owners.keys.sorted().first(where: { !ids.contains($0) }) {
            throw EmulatorError(flag: "--developer", message: "names \(unknown), which is not a --client-id")
        }
        let uris = redirectURIs.isEmpty ? ["http://127.0.0.1/callback"] : redirectURIs
        clients = ids.map {
            var client = Client(id: $0, redirectURIs: uris, secret: clientSecret, developer: owners[$0] ?? "developer")
            client.created = created
            return client
        }
        self.quota = quota
        self.quotaWindow = .seconds(quotaWindow)
        self.extraLibraryPlaylists = extraPlaylists
        self.accessTokenTTL = .seconds(accessTokenTTL)
        self.refreshRotation = refreshRotation
        self.latency = .milliseconds(latencyMs)
        self.rateLimit = rateLimit
        self.catalogFile = catalog.map { URL(fileURLWithPath: $0) }
        self.shape = shape
    }
}
