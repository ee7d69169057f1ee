package import AppAttest
package import Foundation
package import Logging
package import SpotifyAuth
package import SpotifyWebAPI

/// How the search service runs: read from a JSON file and the environment (the environment wins),
/// checked as a whole before anything starts.
///
/// | Environment | File key | Default |
/// |---|---|---|
/// | `SPOTLINK_SEARCH_HOST`, `SPOTLINK_SEARCH_PORT` | `host`, `port` | `127.0.0.1`, `8080` |
/// | `SPOTIFY_CLIENT_ID` | `clientID` | required |
/// | `SPOTIFY_CLIENT_SECRET` | `clientSecretFile` (a path; never the secret itself) | required |
/// | `SPOTLINK_SEARCH_SPOTIFY_URL` | `spotifyURL` | Spotify (an emulator's URL in tests) |
/// | `SPOTLINK_SEARCH_DATABASE` | `database` | `spotlink-search.sqlite` |
/// | `SPOTLINK_SEARCH_POSTGRES_URL` | `postgresURLFile` (a path; the URL may hold a password) | none: SQLite |
/// | `SPOTLINK_SEARCH_DAILY_SHARE` | `dailyShare` | `300` requests a day |
/// | `SPOTLINK_SEARCH_MARKET` | `market` | none |
/// | `SPOTLINK_SEARCH_APP_IDS` | `appIDs` | required: `TEAMID.bundle.id`, comma-separated |
/// | `SPOTLINK_SEARCH_ENVIRONMENTS` | `environments` | `production` |
/// | `SPOTLINK_SEARCH_DEVELOPMENT_KEY` | `developmentKeyFile` | none |
/// | `SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY` | `allowDevelopmentKey` | `false` |
/// | `SPOTLINK_SEARCH_DEVICE_LIMIT`, `SPOTLINK_SEARCH_ADDRESS_LIMIT` | `deviceLimit`, `addressLimit` | `20`, `60` a minute |
/// | `SPOTLINK_SEARCH_TRUST_FORWARDED_FOR` | `trustForwardedFor` | `false` |
/// | `SPOTLINK_SEARCH_CACHE_SECONDS` | `cacheSeconds` | `3600` |
/// | `SPOTLINK_SEARCH_LOG_LEVEL` | `logLevel` | `info` |
package struct SearchServiceConfiguration: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    package var clientID: String
    package var clientSecret: ClientSecret
    /// Spotify's accounts service and Web API; an emulator's for tests and the demo.
    package var spotify: AuthorizationServer = .live
    /// The SQLite file holding the request ledger, the devices' keys, the challenges and the limits.
    package var database: URL
    /// A PostgreSQL database (`postgres://user:password@host/db?sslmode=require`) holding them in
    /// place of ``database``, for instances on several machines sharing one share, one set of
    /// keys and one limit per device. Needs a build with the `PostgreSQL` trait.
    package var postgresURL: String?
    /// The requests to Spotify the service may send in any 24 hours: its share of the developer's
    /// quota, which every app, user and device of the developer spends together.
    package var dailyShare = 300
    /// The market every search and track is asked for (ISO 3166-1 alpha-2), `nil` for Spotify's default.
    package var market: String?
    /// The apps whose attested devices may search.
    package var appIDs: [AppID]
    /// The App Attest environments accepted: `production`, and `development` for builds run from Xcode.
    package var environments: Set<AppAttestEnvironment> = [.production]
    /// The shared key a simulator signs with, refused unless ``allowDevelopmentKey``.
    package var developmentKey: DevelopmentKey?
    /// Whether requests signed with ``developmentKey`` are served; said in the log at start.
    package var allowDevelopmentKey = false
    /// Requests a device may make in a minute.
    package var deviceLimit = 20
    /// Requests one address may make in a minute, attestations included.
    package var addressLimit = 60
    /// Whether the client's address is the last `X-Forwarded-For` hop (behind a proxy of yours).
    package var trustForwardedFor = false
    /// How long an answer may be kept by the app (`Cache-Control: private, max-age`): a temporary
    /// cache, as Spotify's terms allow.
    package var cacheSeconds = 3600
    package var logLevel: Logger.Level = .info

    package init(
        clientID: String, clientSecret: ClientSecret, database: URL, appIDs: [AppID]
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.database = database
        self.appIDs = appIDs
    }
}

/// A shared key for development builds on a simulator, which has no App Attest: at least 32 bytes.
package struct DevelopmentKey: Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    package init?(base64: String) {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)),
            data.count >= 32
        else { return nil }
        bytes = Array(data)
    }

    package var description: String { "<redacted>" }
}

/// A configuration that cannot run, with what to change.
package struct SearchServiceConfigurationError: Error, CustomStringConvertible, Equatable {
    package let setting: String
    package let message: String
    package var description: String { "\(setting): \(message)" }
}

extension SearchServiceConfiguration {
    /// Reads the configuration from `file` (JSON, optional) and `environment`, which wins.
    /// - Throws: ``SearchServiceConfigurationError`` naming the setting and what to do.
    package static func load(file: URL?, environment: [String: String]) throws(SearchServiceConfigurationError)
        -> SearchServiceConfiguration
    {
        var values: [String: String] = [:]
        if let file {
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
            } catch {
                throw .init(setting: file.path, message: "cannot be read as JSON: \(error.localizedDescription)")
            }
            guard let dictionary = object as? [String: Any] else {
                throw .init(setting: file.path, message: "must hold one JSON object of settings")
            }
            for (key, value) in dictionary {
                guard let name = fileKeys[key] else {
                    throw .init(
                        setting: key,
                        message: "is not a setting; known: \(fileKeys.keys.sorted().joined(separator: ", "))")
                }
                switch value {
                case let text as String: values[name] = text
                case let array as [String]: values[name] = array.joined(separator: ",")
                case let number as NSNumber:
                    values[name] = booleanKeys.contains(key) ? (number.boolValue ? "1" : "0") : number.stringValue
                default:
                    throw .init(setting: key, message: "must be a string, a number, a Boolean or a list of strings")
                }
            }
        }
        for (name, value) in environment where name.hasPrefix("SPOTLINK_SEARCH_") || name.hasPrefix("SPOTIFY_CLIENT_") {
            values[name] = value
        }
        return try parse(values)
    }

    static let booleanKeys: Set<String> = ["allowDevelopmentKey", "trustForwardedFor"]

    static let fileKeys: [String: String] = [
        "host": "SPOTLINK_SEARCH_HOST", "port": "SPOTLINK_SEARCH_PORT", "clientID": "SPOTIFY_CLIENT_ID",
        "clientSecretFile": "SPOTIFY_CLIENT_SECRET_FILE", "spotifyURL": "SPOTLINK_SEARCH_SPOTIFY_URL",
        "database": "SPOTLINK_SEARCH_DATABASE", "postgresURLFile": "SPOTLINK_SEARCH_POSTGRES_URL_FILE",
        "dailyShare": "SPOTLINK_SEARCH_DAILY_SHARE",
        "market": "SPOTLINK_SEARCH_MARKET", "appIDs": "SPOTLINK_SEARCH_APP_IDS",
        "environments": "SPOTLINK_SEARCH_ENVIRONMENTS", "developmentKeyFile": "SPOTLINK_SEARCH_DEVELOPMENT_KEY_FILE",
        "allowDevelopmentKey": "SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY", "deviceLimit": "SPOTLINK_SEARCH_DEVICE_LIMIT",
        "addressLimit": "SPOTLINK_SEARCH_ADDRESS_LIMIT", "trustForwardedFor": "SPOTLINK_SEARCH_TRUST_FORWARDED_FOR",
        "cacheSeconds": "SPOTLINK_SEARCH_CACHE_SECONDS", "logLevel": "SPOTLINK_SEARCH_LOG_LEVEL",
    ]

    private static func parse(_ values: [String: String]) throws(SearchServiceConfigurationError)
        -> SearchServiceConfiguration
    {
        func value(_ name: String) -> String? {
            values[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func secretFile(_ name: String) throws(SearchServiceConfigurationError) -> String? {
            guard let path = value(name) else { return nil }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .init(setting: name, message: "the file \(path) cannot be read")
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func number(_ name: String, _ range: ClosedRange<Int>, default fallback: Int)
            throws(SearchServiceConfigurationError) -> Int
        {
            guard let text = value(name) else { return fallback }
            guard let number = Int(text), range.contains(number) else {
                throw .init(
                    setting: name,
                    message: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
            }
            return number
        }
        func flag(_ name: String) throws(SearchServiceConfigurationError) -> Bool {
            switch value(name)?.lowercased() {
            case nil, "0", "false", "no": return false
            case "1", "true", "yes": return true
            case let other?: throw .init(setting: name, message: "must be true or false, not \(other)")
            }
        }
        guard let clientID = value("SPOTIFY_CLIENT_ID") else {
            throw .init(
                setting: "SPOTIFY_CLIENT_ID", message: "is required: the app's client ID from the developer dashboard")
        }
        let secretText: String?
        if let direct = value("SPOTIFY_CLIENT_SECRET") {
            secretText = direct
        } else {
            secretText = try secretFile("SPOTIFY_CLIENT_SECRET_FILE")
        }
        guard let secret = secretText else {
            throw .init(
                setting: "SPOTIFY_CLIENT_SECRET",
                message:
                    "is required (or SPOTIFY_CLIENT_SECRET_FILE, a file holding it): the app's client secret, which stays on this server"
            )
        }
        let appIDs = try (value("SPOTLINK_SEARCH_APP_IDS") ?? "").split(separator: ",").map {
            (text) throws(SearchServiceConfigurationError) -> AppID in
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 10,
                parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                !parts[1].isEmpty
            else {
                throw .init(
                    setting: "SPOTLINK_SEARCH_APP_IDS",
                    message: "\(text) is not TEAMID.bundle.id (a ten-character team ID)")
            }
            return AppID(teamID: String(parts[0]), bundleID: String(parts[1]))
        }
        guard !appIDs.isEmpty else {
            throw .init(
                setting: "SPOTLINK_SEARCH_APP_IDS",
                message: "is required: the apps that may search, as TEAMID.bundle.id")
        }
        var configuration = SearchServiceConfiguration(
            clientID: clientID, clientSecret: ClientSecret(secret),
            database: URL(fileURLWithPath: value("SPOTLINK_SEARCH_DATABASE") ?? "spotlink-search.sqlite"),
            appIDs: appIDs)
        let postgresURL: String?
        if let direct = value("SPOTLINK_SEARCH_POSTGRES_URL") {
            postgresURL = direct
        } else {
            postgresURL = try secretFile("SPOTLINK_SEARCH_POSTGRES_URL_FILE")
        }
        if let url = postgresURL {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw .init(
                    setting: "SPOTLINK_SEARCH_POSTGRES_URL",
                    message: "must be a postgres:// URL (postgres://user:password@host:5432/database)")
            }
            configuration.postgresURL = url
        }
        configuration.host = value("SPOTLINK_SEARCH_HOST") ?? configuration.host
        configuration.port = try number("SPOTLINK_SEARCH_PORT", 0...65535, default: configuration.port)
        if let text = value("SPOTLINK_SEARCH_SPOTIFY_URL") {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw .init(setting: "SPOTLINK_SEARCH_SPOTIFY_URL", message: "must be an http(s) URL, not \(text)")
            }
            configuration.spotify = .emulator(url: url)
        }
        configuration.dailyShare = try number(
            "SPOTLINK_SEARCH_DAILY_SHARE", 0...1_000_000, default: configuration.dailyShare)
        if let market = value("SPOTLINK_SEARCH_MARKET") {
            guard market.count == 2, market.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .init(
                    setting: "SPOTLINK_SEARCH_MARKET", message: "must be a two-letter country code, not \(market)")
            }
            configuration.market = market.uppercased()
        }
        if let text = value("SPOTLINK_SEARCH_ENVIRONMENTS") {
            configuration.environments = try Set(
                text.split(separator: ",").map {
                    (name) throws(SearchServiceConfigurationError) -> AppAttestEnvironment in
                    guard let environment = AppAttestEnvironment(rawValue: name.trimmingCharacters(in: .whitespaces))
                    else {
                        throw .init(
                            setting: "SPOTLINK_SEARCH_ENVIRONMENTS",
                            message: "\(name) is neither production nor development")
                    }
                    return environment
                })
        }
        let developmentKeyText: String?
        if let direct = value("SPOTLINK_SEARCH_DEVELOPMENT_KEY") {
            developmentKeyText = direct
        } else {
            developmentKeyText = try secretFile("SPOTLINK_SEARCH_DEVELOPMENT_KEY_FILE")
        }
        if let text = developmentKeyText {
            guard let key = DevelopmentKey(base64: text) else {
                throw .init(
                    setting: "SPOTLINK_SEARCH_DEVELOPMENT_KEY",
                    message: "must be at least 32 random bytes in Base64 (openssl rand -base64 32)")
            }
            configuration.developmentKey = key
        }
        configuration.allowDevelopmentKey = try flag("SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY")
        if configuration.allowDevelopmentKey && configuration.developmentKey == nil {
            throw .init(
                setting: "SPOTLINK_SEARCH_ALLOW_DEVELOPMENT_KEY",
                message: "is set but no SPOTLINK_SEARCH_DEVELOPMENT_KEY is given")
        }
        configuration.deviceLimit = try number(
            "SPOTLINK_SEARCH_DEVICE_LIMIT", 1...10_000, default: configuration.deviceLimit)
        configuration.addressLimit = try number(
            "SPOTLINK_SEARCH_ADDRESS_LIMIT", 1...100_000, default: configuration.addressLimit)
        configuration.trustForwardedFor = try flag("SPOTLINK_SEARCH_TRUST_FORWARDED_FOR")
        configuration.cacheSeconds = try number(
            "SPOTLINK_SEARCH_CACHE_SECONDS", 0...86_400, default: configuration.cacheSeconds)
        if let level = value("SPOTLINK_SEARCH_LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw .init(
                    setting: "SPOTLINK_SEARCH_LOG_LEVEL",
                    message: "must be one of trace, debug, info, notice, warning, error, critical")
            }
            configuration.logLevel = parsed
        }
        return configuration
    }
}
