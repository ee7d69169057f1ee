import AppAttest
import Foundation
import HTTPTypes
import Logging
import SpotifyAuth
import SpotifySearchService
@_spi(Transport) import SpotifyWebAPI

/// The search service as a fuzz target: each input is a request as text (`METHOD /path?query`, then
/// `Name: value` header lines, an empty line and the body), answered by one service with its
/// state in a SQLite file. The challenge `fuzz-challenge` is kept issued, so inputs that carry it
/// reach the signature checks and the attestation's verification.
///
/// Promises checked: every answer is one the service documents; a search or a track is never
/// answered 2xx (no input holds a device's key or the development key); every refusal is JSON with
/// a code and a one-line message; no answer carries the client secret; nothing reaches Spotify.
enum SearchRequestFuzz {
    static let secret = "FUZZ_SECRET_never_in_an_answer"
    static let challenge = "fuzz-challenge"

    static let made: Task<SearchService, Never> = Task {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-fuzz-search-\(getpid())")
        var configuration = SearchServiceConfiguration(
            clientID: "fuzz", clientSecret: ClientSecret(secret),
            database: folder.appendingPathComponent("search.sqlite"),
            appIDs: [AppID(teamID: "FUZZ123456", bundleID: "dev.spotifylink.fuzz")])
        configuration.spotify = .emulator(url: URL(string: "http://127.0.0.1:9")!)
        configuration.environments = [.production, .development]
        configuration.developmentKey = DevelopmentKey(base64: Data(repeating: 7, count: 32).base64EncodedString())
        configuration.allowDevelopmentKey = true
        configuration.addressLimit = Int.max / 2
        configuration.deviceLimit = Int.max / 2
        let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            let storage = try await SearchService.Storage.open(configuration, logger: logger)
            return SearchService(
                configuration: configuration, store: storage.store, ledger: storage.ledger,
                transport: TrapTransport(), logger: logger)
        } catch {
            preconditionFailure("the fuzz target's service could not open its store: \(error)")
        }
    }

    /// The statuses the service documents.
    static let documented: Set<Int> = [200, 201, 400, 401, 404, 405, 409, 413, 429, 502, 503]

    static func run(_ data: Data) async {
        let request = parse(data)
        let service = await made.value
        let now = Date()
        try? await service.store.issueChallenge(challenge, expiresAt: now.addingTimeInterval(300), now: now)
        let answer = await service.respond(to: request)
        precondition(documented.contains(answer.status), "an undocumented status \(answer.status)")
        let route = request.path
        if route == "/v1/search" || route.hasPrefix("/v1/tracks/") {
            precondition(!(200..<300).contains(answer.status), "a forged request was answered \(answer.status)")
        }
        let body = String(decoding: answer.body, as: UTF8.self)
        precondition(!body.contains(secret), "the client secret in an answer")
        for (name, value) in answer.headers { precondition(!value.contains(secret), "the secret in \(name)") }
        if answer.status >= 400 {
            guard let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
                let error = object["error"] as? [String: Any], let code = error["code"] as? String,
                let message = error["message"] as? String
            else { preconditionFailure("a refusal that is not the service's JSON: \(body)") }
            precondition(code == answer.code, "the refusal's code is not the one counted")
            FuzzTarget.checkOneLine(message)
        }
    }

    /// The request the input's text describes; the query is read by the service's own parser,
    /// which must read back what the app's encoding of it writes.
    static func parse(_ data: Data) -> ServiceRequest {
        let text = String(decoding: data, as: UTF8.self)
        let (head, body) =
            text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), Array(text[$0.upperBound...].utf8)) }
            ?? (text, [])
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.isEmpty ? "" : lines.removeFirst()
        let parts = first.split(separator: " ", maxSplits: 1).map(String.init)
        let method = parts.first ?? "GET"
        let target = parts.count > 1 ? parts[1] : "/"
        let (path, queryText) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        let query = SearchServiceResponder.parseQuery(queryText)
        let encoded = query.map {
            "\(SearchServiceSignature.encode($0.name))=\(SearchServiceSignature.encode($0.value))"
        }.joined(separator: "&")
        precondition(
            SearchServiceSignature.canonicalQuery(SearchServiceResponder.parseQuery(encoded))
                == SearchServiceSignature.canonicalQuery(query),
            "a query does not read back the same after the app's encoding")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return ServiceRequest(method: method, path: path, query: query, headers: headers, body: body, address: "fuzz")
    }
}

/// Spotify, for the fuzz target: reaching it is a failure of the service's checks.
private struct TrapTransport: Transport {
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws
        -> (HTTPResponse, Data)
    {
        preconditionFailure("a fuzz input reached Spotify: \(request.method) \(request.path ?? "")")
    }
}
