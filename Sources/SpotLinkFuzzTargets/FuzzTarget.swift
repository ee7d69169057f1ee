import AppAttest
import Crypto
package import Foundation
import SpotifyAuth
import SpotifyEmulator
import SpotifyLinkExtensions
import SpotifyWebAPI

/// The parsers that read what an attacker, a proxy or the service can send, each as a libFuzzer
/// target. A target takes any bytes, must never crash, and checks the parser's promises with
/// `precondition`, so a broken promise is a crash the fuzzer reports.
///
/// `scripts/fuzz.sh TARGET SECONDS` runs one under libFuzzer with AddressSanitizer;
/// `FuzzRegressionTests` replays the seeds and every input a fuzzer ever crashed on.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The loopback callback's query: the state check, the parameter parser and the flow's verdict.
    case callbackQuery = "callback-query"
    /// `spotify:` URIs, `open.spotify.com` links and bare IDs.
    case reference
    /// `Retry-After` as seconds or an HTTP date.
    case retryAfter = "retry-after"
    /// The token endpoint's answer, at a success and an error status.
    case tokenResponse = "token-response"
    /// Pages of playlist entries, playlists, tracks and saved tracks, a playlist, search results
    /// and the currently playing item.
    case decoders
    /// The fast reader of paging objects against `JSONDecoder`: wherever the fast reader gives an
    /// answer, it is JSONDecoder's.
    case fastDecoding = "fast-decoding"
    /// The emulator's query and form parser and its `fields` selection parser.
    case emulatorForm = "emulator-form"
    /// Service-supplied text made safe for one log or terminal line.
    case sanitize
    /// App Attest's objects: the CBOR reader (what it takes, it writes back byte for byte), the
    /// authenticator data, and an assertion that must never verify.
    case appAttest = "app-attest"
    /// An extension's tap as the app reads it: a URL, and a record's text made into a link.
    case extensionLink = "extension-link"
    /// What `spotlink-search` reads of a request: the query's percent-decoding, the signature
    /// headers, the attestation's JSON, the routes; no input is answered with Spotify's data, and
    /// none reaches Spotify (its transport traps).
    case searchRequest = "search-request"

    /// Runs one input through the target.
    package func run(_ data: Data) {
        switch self {
        case .callbackQuery: Self.callbackQuery(data)
        case .reference: Self.reference(data)
        case .retryAfter: Self.retryAfter(data)
        case .tokenResponse: Self.tokenResponse(data)
        case .decoders: Self.decoders(data)
        case .fastDecoding: Self.fastDecoding(data)
        case .emulatorForm: Self.emulatorForm(data)
        case .sanitize: Self.sanitize(data)
        case .appAttest: Self.appAttest(data)
        case .extensionLink: Self.extensionLink(data)
        case .searchRequest: Self.blocking { await SearchRequestFuzz.run(data) }
        }
    }

    /// Runs one input through the target, awaiting an asynchronous target (the search service's)
    /// instead of blocking a thread: what a caller on Swift's concurrency pool (a test) uses.
    package func runAwaiting(_ data: Data) async {
        if self == .searchRequest { await SearchRequestFuzz.run(data) } else { run(data) }
    }

    /// Waits for `body` on this thread: only for a thread outside Swift's concurrency pool
    /// (libFuzzer's, the replayer's main thread), which the pool's work never needs.
    private static func blocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await body()
            done.signal()
        }
        done.wait()
    }

    private static let now = Date(timeIntervalSince1970: 1_795_000_000)

    private static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    private static func callbackQuery(_ data: Data) {
        let query = text(data)
        if let pairs = AuthorizationFlow.parse(query) {
            precondition(!pairs.contains { $0.0.contains("\u{0}") || $0.1.contains("\u{0}") }, "a NUL byte got through")
        }
        let server = AuthorizationServer.emulator(url: URL(string: "http://127.0.0.1:1")!)
        guard
            var flow = try? AuthorizationFlow(
                .init(clientID: "fuzz", redirectURI: "http://127.0.0.1:2/callback", server: server))
        else { preconditionFailure("a valid flow could not start") }
        // The state is fresh and random: no input can carry it, so nothing may be exchanged.
        switch flow.handleCallback(query: query) {
        case .exchange: preconditionFailure("a callback without the flow's state was exchanged")
        case .ignore(let error), .fail(let error): checkOneLine(error.message)
        }
        // With the right state spliced in, the verdict still never crashes and stays one line.
        var known = flow
        if case .fail(let error) = known.handleCallback(query: "state=\(flow.state)&" + query) {
            checkOneLine(error.message)
        }
    }

    private static func reference(_ data: Data) {
        guard let reference = try? SpotifyReference(parsing: text(data)) else { return }
        precondition(reference.id.rawValue.count == 22, "an ID that is not 22 characters")
        precondition(
            reference.id.rawValue.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "an ID outside base62")
        // What it formats, it reads back.
        precondition((try? SpotifyReference(parsing: reference.uri))?.id == reference.id, "the URI does not round-trip")
        let link = try? SpotifyReference(parsing: reference.webURL.absoluteString)
        precondition(link?.id == reference.id && link?.kind == reference.kind, "the link does not round-trip")
    }

    private static func retryAfter(_ data: Data) {
        let value = text(data)
        if let wait = RetryAfter.parse(value, now: now) {
            precondition(wait >= .zero, "a negative wait")
        }
        if let date = HTTPDate.parse(value) {
            // A date it reads, it writes the same way.
            let again = HTTPDate.parse(HTTPDate.format(date))
            precondition(again == date, "HTTPDate does not round-trip")
        }
    }

    private static func tokenResponse(_ data: Data) {
        for status in [200, 400, 502] {
            do {
                let parsed = try TokenResponseParser.parse(status: status, body: data, receivedAt: now)
                precondition(status == 200, "a token was read from an error status")
                precondition(!parsed.accessToken.unredactedValue.isEmpty, "an empty access token")
                if let expiry = parsed.expiresAt {
                    precondition(
                        expiry >= now && expiry <= now.addingTimeInterval(TokenResponseParser.maxLifetime),
                        "an expiry out of bounds")
                }
            } catch let error as OAuthError {
                checkOneLine(error.message)
            } catch {
                preconditionFailure("an error that is not an OAuthError: \(type(of: error))")
            }
        }
    }

    private static func decoders(_ data: Data) {
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_: T.Type) -> T? { try? decoder.decode(T.self, from: data) }
        if let page = decode(Page<PlaylistEntry>.self) { checkPage(page) }
        if let page = decode(Page<SimplifiedPlaylist>.self) { checkPage(page) }
        if let page = decode(Page<Track>.self) { checkPage(page) }
        if let page = decode(Page<SavedTrack>.self) { checkPage(page) }
        if let playlist = decode(Playlist.self) {
            precondition(!playlist.id.rawValue.isEmpty, "a playlist without an ID")
        }
        _ = decode(PlaylistSearchResults.self)
        _ = decode(TrackSearchResults.self)
        _ = decode(CurrentlyPlaying.self)
        _ = decode(CurrentUser.self)
    }

    private static func fastDecoding(_ data: Data) {
        sameAnswer(Page<PlaylistEntry>.self, data)
        sameAnswer(Page<SimplifiedPlaylist>.self, data)
        sameAnswer(Page<Track>.self, data)
        if let fast = TrackSearchResults.fastDecoded(from: data) {
            let slow = try? makeSpotifyDecoder().decode(TrackSearchResults.self, from: data)
            precondition(slow.map { samePage(fast.tracks, $0.tracks) } == true, "track search: the fast reader differs")
        }
        if let fast = PlaylistSearchResults.fastDecoded(from: data) {
            let slow = try? makeSpotifyDecoder().decode(PlaylistSearchResults.self, from: data)
            precondition(
                slow.map { samePage(fast.playlists, $0.playlists) } == true, "playlist search: the fast reader differs")
        }
    }

    private static func sameAnswer<Item: FastPageItem & Equatable>(_ type: Page<Item>.Type, _ data: Data) {
        guard let fast = Page<Item>.fastDecoded(from: data) else { return }
        let slow = try? makeSpotifyDecoder().decode(Page<Item>.self, from: data)
        precondition(slow.map { samePage(fast, $0) } == true, "\(Item.self): the fast reader differs from JSONDecoder")
    }

    private static func samePage<Item: Equatable>(_ one: Page<Item>, _ other: Page<Item>) -> Bool {
        one.items == other.items && one.href == other.href && one.limit == other.limit && one.offset == other.offset
            && one.next == other.next && one.previous == other.previous && one.total == other.total
            && one.nullCount == other.nullCount && one.undecodableCount == other.undecodableCount
    }

    private static func checkPage<Item>(_ page: Page<Item>) {
        precondition(page.nullCount >= 0 && page.undecodableCount >= 0, "negative counts")
    }

    private static func emulatorForm(_ data: Data) {
        let query = text(data)
        let pairs = EmulatorRequest.parseQuery(query)
        precondition(pairs.count == query.split(separator: "&").count, "a parameter lost or invented")
        _ = FieldSelection.parse(query)
    }

    private static func sanitize(_ data: Data) {
        let cleaned = SpotifyAPIError.sanitized(text(data), limit: 200)
        checkOneLine(cleaned)
        precondition(cleaned.count <= 201, "longer than the limit")
    }

    /// A key no input can hold the private half of: every assertion must be refused.
    private static let attestedKey = AttestedKey(
        keyID: [], publicKey: Array(P256.Signing.PrivateKey().publicKey.x963Representation), environment: .production,
        receipt: [])

    private static func appAttest(_ data: Data) {
        let bytes = Array(data)
        if let value = try? CBOR(decoding: bytes) {
            precondition(value.encoded == bytes, "CBOR: what was read is not what is written back")
        }
        if let authData = try? AuthenticatorData(bytes) {
            precondition(authData.encoded == bytes, "authenticator data: what was read is not what is written back")
        }
        let verifier = AppAttestVerifier(appID: AppID(teamID: "FUZZ123456", bundleID: "dev.spotifylink.fuzz"))
        do {
            _ = try verifier.verifyAssertion(bytes, clientData: [1, 2, 3], key: attestedKey, lastCounter: 0)
            preconditionFailure("an assertion verified without the private key")
        } catch {
            precondition(error.code == .malformed || error.code == .badSignature, "refused for \(error.code)")
            checkOneLine(error.message)
        }
    }

    private static func extensionLink(_ data: Data) {
        if let url = URL(string: text(data)), let link = ExtensionLink(url) {
            precondition(!link.namespace.isEmpty && !link.recordID.isEmpty, "a link without its record")
            let again = link.url(scheme: "myapp").flatMap(ExtensionLink.init)
            precondition(again == link, "a link read from a URL does not round-trip")
        }
        // Any record's text, split at the first zero byte, makes a link that reads back the same.
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return }
        let namespace = String(decoding: parts[0], as: UTF8.self)
        let record = String(decoding: parts[1], as: UTF8.self)
        guard !namespace.isEmpty, !record.isEmpty else { return }
        for action in ExtensionLink.Action.allCases {
            let link = ExtensionLink(namespace: namespace, recordID: record, action: action)
            guard let url = link.url(scheme: "myapp") else { preconditionFailure("a record's link has no URL") }
            precondition(ExtensionLink(url) == link, "a record's link does not read back: \(url)")
        }
    }

    /// Text for people stays on one line: no control character, no line or paragraph separator,
    /// no bidirectional override.
    static func checkOneLine(_ text: String) {
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let unsafe =
                value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            precondition(!unsafe, "a control character U+\(String(value, radix: 16)) in text for people")
        }
    }
}
