import Foundation
import NIOSSL
import PlaylistLinks
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
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "")
        else { throw invalid(url, "it is not a postgres:// URL") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw invalid(url, "it names no database") }
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? ProcessInfo.processInfo.environment["USER"]
        guard let user, !user.isEmpty else { throw invalid(url, "it names no user") }
        let password = components.password.flatMap { $0.removingPercentEncoding }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let port = components.port ?? 5432
        if let folder = query["host"], folder.hasPrefix("/") {
            return PostgresClient.Configuration(
                unixSocketPath: "\(folder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        guard let host = components.host, !host.isEmpty else { throw invalid(url, "it names no host") }
        let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? (loopback ? "disable" : "require") {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode: throw invalid(url, "sslmode \(mode) is not one of disable, prefer, require")
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
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
