import Foundation
import NIOSSL
@_spi(Storage) import PlaylistLinks
public import PostgresNIO

/// A PostgreSQL connection URL, as servers are given one:
/// `postgres://user:password@host:5432/database?sslmode=require`, or a Unix socket with
/// `postgres://user@/database?host=/run/postgresql` (the socket's folder, libpq's form).
public enum PostgresURL {
    /// The client configuration `url` describes. `sslmode` is `disable`, `prefer` or `require`
    /// (the default for a host other than this machine's loopback; `disable` for loopback and
    /// sockets).
    /// - Throws: `PlaylistLinksError` with code `.invalidArgument`, naming the URL
    ///   without its password.
    public static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        let parsed = try Parsed(url)
        switch parsed.place {
        case .socket(let path):
            return PostgresClient.Configuration(
                unixSocketPath: path, username: parsed.user, password: parsed.password, database: parsed.database)
        case .host(let host, let port, let tls):
            let mode: PostgresClient.Configuration.TLS =
                switch tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            return PostgresClient.Configuration(
                host: host, port: port, username: parsed.user, password: parsed.password, database: parsed.database,
                tls: mode)
        }
    }

    /// The configuration of one connection to `url`, as migrations at start-up open.
    package static func connectionConfiguration(_ url: String) throws -> PostgresConnection.Configuration {
        let parsed = try Parsed(url)
        switch parsed.place {
        case .socket(let path):
            return PostgresConnection.Configuration(
                unixSocketPath: path, username: parsed.user, password: parsed.password, database: parsed.database)
        case .host(let host, let port, let tls):
            let mode: PostgresConnection.Configuration.TLS
            do {
                switch tls {
                case .disable: mode = .disable
                case .prefer: mode = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            } catch {
                throw invalid(url, "TLS could not be set up (\(error))")
            }
            return PostgresConnection.Configuration(
                host: host, port: port, username: parsed.user, password: parsed.password, database: parsed.database,
                tls: mode)
        }
    }

    /// What a URL says, checked.
    private struct Parsed {
        enum TLSMode { case disable, prefer, require }
        enum Place {
            case socket(path: String)
            case host(String, port: Int, tls: TLSMode)
        }
        var place: Place
        var user: String
        var password: String?
        var database: String

        init(_ url: String) throws {
            guard let components = URLComponents(string: url),
                ["postgres", "postgresql"].contains(components.scheme ?? "")
            else { throw invalid(url, "it is not a postgres:// URL") }
            database = String(components.path.drop { $0 == "/" })
            guard !database.isEmpty else { throw invalid(url, "it names no database") }
            let user =
                components.user.flatMap { $0.removingPercentEncoding } ?? ProcessInfo.processInfo.environment["USER"]
            guard let user, !user.isEmpty else { throw invalid(url, "it names no user") }
            self.user = user
            password = components.password.flatMap { $0.removingPercentEncoding }
            let query = Dictionary(
                (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
            let port = components.port ?? 5432
            if let folder = query["host"], folder.hasPrefix("/") {
                place = .socket(path: "\(folder)/.s.PGSQL.\(port)")
                return
            }
            guard let host = components.host, !host.isEmpty else { throw invalid(url, "it names no host") }
            let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
            switch query["sslmode"] ?? (loopback ? "disable" : "require") {
            case "disable": place = .host(host, port: port, tls: .disable)
            case "prefer": place = .host(host, port: port, tls: .prefer)
            case "require", "verify-full": place = .host(host, port: port, tls: .require)
            case let mode: throw invalid(url, "sslmode \(mode) is not one of disable, prefer, require")
            }
        }
    }

    /// `url` with its password replaced by `***`, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }

    private static func invalid(_ url: String, _ why: String) -> PlaylistLinksError {
        PlaylistLinksError(
            code: .invalidArgument,
            message: "\(redacted(url)) cannot be used: \(why). Give a URL such as postgres://user@host:5432/database.")
    }
}
