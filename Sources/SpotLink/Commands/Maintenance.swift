import ArgumentParser
import Foundation
import HTTPTypes
import HTTPTypesFoundation
@_spi(Storage) import PlaylistLinks
import SpotLinkSystem
@_spi(Storage) import SpotifyAuth
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkServices
import SpotifyLinkSupport
@_spi(Transport) import SpotifyWebAPI

struct Open: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open in Spotify (or print the link): a session's playlist, or a track or playlist.",
        discussion:
            "spotlink open 1 · spotlink open track spotify:track:ID · spotlink open playlist https://open.spotify.com/playlist/ID"
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "A session ID, or 'track' or 'playlist'.")
    var target: String
    @Argument(help: "With 'track' or 'playlist': an ID, spotify: URI or open.spotify.com link.")
    var reference: String?
    @Flag(help: "Use the spotify: URI (opens the app directly) instead of the universal link.")
    var uri = false

    /// The track or playlist named, when `target` is 'track' or 'playlist'.
    private var kind: SpotifyReference.Kind? {
        SpotifyReference.Kind(rawValue: target).flatMap { $0 == .track || $0 == .playlist ? $0 : nil }
    }

    func validate() throws {
        if let kind {
            guard let reference else { throw ValidationError("Give the \(kind.rawValue) to open: an ID, URI or link.") }
            do { _ = try SpotifyReference(parsing: reference, expecting: kind) } catch {
                throw ValidationError(CLIFailure(error).message)
            }
        } else if reference != nil {
            throw ValidationError("Open takes a session ID, or 'track' or 'playlist' followed by a link.")
        }
    }

    func run() async throws {
        let link: OpenInSpotify
        if let kind, let reference {
            link = OpenInSpotify(try SpotifyReference(parsing: reference, expecting: kind))
        } else {
            let (_, links, entry) = try Journal.open(global, session: target)
            guard let card = try await links.card(for: entry.record) else {
                throw CLIFailure("Session \(entry.id) has no playlist attached.")
            }
            link = OpenInSpotify(card.metadata.reference)
        }
        // A desktop has no App Store fallback: the universal link opens the app or the web player.
        let destination = uri ? link.appURL : link.url(spotifyInstalled: false)
        let opened = SystemOpener.open(destination)
        if global.json {
            Output.json(
                OpenJSON(
                    url: destination.absoluteString, opened: opened, urls: link.urls.map(\.absoluteString),
                    // What an iOS app tries, in order: Spotify's content link first.
                    iosURLs: link.urls(preferringContentLink: true).map(\.absoluteString),
                    contentLink: link.contentLink.absoluteString, label: link.label().rawValue))
        } else {
            Output.line(opened ? "Opened \(destination.absoluteString)" : "\(destination.absoluteString)")
        }
    }
}

struct Refresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Refresh cached playlist details and covers.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only playlists fetched more than this many hours ago.")
    var stale: Double = 0

    func run() async throws {
        let context = try Context(global)
        let (_, client) = try await signedIn(context)
        let links = try context.links()
        let json = global.json
        let outcomes = try await MetadataRefresher(links: links, client: client, origin: .person).refreshStale(
            olderThan: .clampedSeconds(stale * 3600)
        ) { done, total in
            if !json { Output.progress("Refreshing", done, total) }
        }
        let counts = Dictionary(
            grouping: outcomes.values,
            by: { outcome -> String in
                switch outcome {
                case .refreshed: "refreshed"
                case .unchanged: "unchanged"
                case .spotifyOwned: "Spotify's own (no details for apps)"
                case .notFound: "deleted"
                case .forbidden: "inaccessible"
                case .failed: "unreachable"
                case .forgotten: "forgotten meanwhile (disconnected)"
                }
            }
        ).mapValues(\.count)
        // Playlists left as saved because of a cooldown: say which limit, and exit as rate limited.
        // Any other failure is a partial refresh: the exit code says so (5 offline, 1 otherwise).
        var failure: CLIFailure?
        let failures = outcomes.values.compactMap { if case .failed(let error) = $0 { error } else { nil } }
        if counts["unreachable"] != nil, let cooldown = await client.cooldown() {
            failure = CLIFailure(SpotifyAPIError.coolingDown(cooldown, now: client.clock.now).message, exitCode: 4)
        } else if let first = failures.first {
            let offline = failures.allSatisfy { $0.code == .transport }
            failure = CLIFailure(
                "\(Output.count(failures.count, "playlist")) could not be refreshed and keep what was saved: "
                    + first.message, exitCode: offline ? 5 : 1)
        }
        if json {
            // One document, the counts and the failure together: a program reads one answer.
            Output.json(RefreshJSON(counts: counts, error: failure.map(FailureJSON.Failure.init)))
            failure?.reported = true
        } else {
            Output.line(
                outcomes.isEmpty
                    ? "Nothing to refresh."
                    : "\(counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))")
        }
        if let failure { throw failure }
    }
}

/// `refresh --json`: how many playlists ended each way, and the failure when some were not
/// refreshed (`error`, as every command's failure is written).
private struct RefreshJSON: Encodable {
    let counts: [String: Int]
    let error: FailureJSON.Failure?

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, count) in counts { try container.encode(count, forKey: Key(stringValue: name)) }
        if let error { try container.encode(error, forKey: Key(stringValue: "error")) }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every session, its link and the cached details to a JSON file (0600).")
    @OptionGroup var global: GlobalOptions
    @Argument var file: String

    func run() async throws {
        let context = try Context(global, requireClientID: false)
        let destination = URL(fileURLWithPath: file)
        do {
            try ExportDestination.check(destination, ownFolders: [context.dataDirectory, context.configDirectory])
        } catch let refusal as ExportDestination.Refusal {
            throw CLIFailure(refusal.message, exitCode: 1)
        }
        let journal = try context.journal()
        // Written as it is made; a signal mid-write removes the temporary file, and the destination
        // is untouched until the rename.
        let bytes = try await PrivateFiles.replaceFile(at: destination, temporaryCreated: { ExitCleanup.remove($0) }) {
            append in try await journal.exportBackup(to: append)
        }
        if global.json {
            Output.json(ExportJSON(file: file, bytes: bytes))
        } else {
            Output.line("Exported to \(file).")
        }
    }
}

struct Import: AsyncParsableCommand {
    static let maxBytes = 64 << 20
    static let configuration = CommandConfiguration(
        abstract: "Restore sessions and their links from a file written by 'spotlink export'.",
        discussion: """
            Sessions are matched by their identity, so importing a file twice adds nothing; a session \
            new here gets a number of this folder's and its link follows it. A session linked here more \
            recently than in the file, to another playlist, keeps its link unless --replace is given; \
            the summary says which links were kept and which were replaced.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument var file: String
    @Flag(help: "Take the file's link even where this device's link is newer.")
    var replace = false

    func run() async throws {
        let context = try Context(global, requireClientID: false)
        // An export of 100,000 links is a few MiB; anything far larger is not one.
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int else {
            throw CLIFailure("Cannot read \(file).", exitCode: 1)
        }
        guard size <= Import.maxBytes else {
            throw CLIFailure(
                "\(file) is \(size / 1_048_576) MiB: too large for a spotlink export (at most 64 MiB).", exitCode: 1)
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIFailure("Cannot read \(file).", exitCode: 1)
        }
        let (report, sessions) = try await context.journal().importBackup(data, replacingNewer: replace)
        let total = report.added.count + report.replaced.count + report.kept.count + report.unchanged.count
        if global.json {
            Output.json(
                ImportJSON(
                    imported: total, added: report.added.count, replaced: report.replaced.count,
                    kept: report.kept.map(\.record.description), unchanged: report.unchanged.count,
                    sessionsAdded: sessions))
            return
        }
        Output.line(
            "Read \(total) \(total == 1 ? "link" : "links"): \(report.added.count) added, \(report.replaced.count) replaced, "
                + "\(report.unchanged.count) already here, \(report.kept.count) kept; "
                + "\(Output.count(sessions, "session")) added.")
        for link in report.replaced { Output.line("  \(link.record): now \(link.playlist.rawValue) (from the file)") }
        for link in report.kept {
            Output.line("  \(link.record): kept this device's newer link (the file has \(link.playlist.rawValue))")
        }
        if !report.kept.isEmpty { Output.line("Run with --replace to take the file's links for those too.") }
    }
}

struct Privacy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What spotlink asks for, stores, never collects, and how to revoke.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = try Context(global, requireClientID: false)
        let kind = (try? context.tokenStore())?.kind ?? .file(context.configDirectory.appendingPathComponent("tokens"))
        let privacy = SpotifyPrivacyModel(storeKind: kind)
        let stored =
            privacy.stored.map { "\($0.what): in \($0.location); removed \($0.removedWhen)." }
            + ["spotlink's database: \(context.databaseURL.path)."]
        if global.json {
            Output.json(
                PrivacyJSON(
                    scopes: Dictionary(uniqueKeysWithValues: privacy.scopes.map { ($0.scope, $0.meaning) }),
                    stored: stored, never: privacy.neverCollected, revoke: privacy.revokeSteps))
            return
        }
        Output.line(Output.bold("Scopes asked for (read-only; fine for Spotify Free):"))
        for (scope, meaning) in privacy.scopes { Output.line("  \(scope): \(meaning)") }
        Output.line(Output.bold("Stored:"))
        for line in stored { Output.line("  \(line)") }
        Output.line(Output.bold("Never collected:"))
        for line in privacy.neverCollected { Output.line("  \(line)") }
        Output.line(Output.bold("To revoke:"))
        for line in privacy.revokeSteps { Output.line("  \(line)") }
    }
}

struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the client ID, redirect URI, token store, database and service.",
        discussion: """
            With --online, also asks Spotify what this app may do for the signed-in user, in at most \
            five requests: the client's kind, the user list, the developer's Premium, the scopes, \
            whether a playlist's songs can be read, the sign-in's days left and today's requests. \
            It never runs during a cooldown.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "The redirect URI to check.")
    var redirectURI = "http://127.0.0.1/callback"
    @Flag(help: "Ask Spotify what this app may do (at most 5 requests, counted like any other).")
    var online = false

    func run() async throws {
        let context = try Context(global, requireClientID: online)
        var checks: [(String, Bool, String)] = []
        let idOK =
            context.options.emulator != nil
            || (context.clientID.count == 32 && context.clientID.allSatisfy(\.isHexDigit))
        checks.append(
            (
                "client ID", idOK,
                context.clientID.isEmpty
                    ? "missing: pass --client-id or set SPOTIFY_CLIENT_ID"
                    : idOK ? "looks right" : "Spotify client IDs are 32 hexadecimal characters"
            ))
        do {
            _ = try RedirectURIPolicy.validate(redirectURI)
            checks.append(
                ("redirect URI", true, "\(redirectURI) follows Spotify's rules; register it exactly in the dashboard"))
        } catch let error as OAuthError {
            checks.append(("redirect URI", false, error.message))
        }
        do {
            // The store a login would use (the last one's, else the platform's), as `login` chooses it.
            let store = try context.tokenStore(context.loginStoreChoice)
            _ = try await store.load(SpotifyAppKey(issuer: context.server.issuer, clientID: context.clientID))
            checks.append(("token store", true, "\(store.kind)"))
        } catch {
            checks.append(("token store", false, CLIFailure(error).message))
        }
        do {
            // Opened as every command opens it: a journal a newer spotlink wrote fails them all.
            _ = try context.journal()
            let result = try context.linkStore().integrityCheck()
            checks.append(
                (
                    "database", result == ["ok"],
                    result == ["ok"] ? "integrity ok (\(context.databaseURL.path))" : result.joined(separator: "; ")
                ))
        } catch {
            checks.append(("database", false, CLIFailure(error).message))
        }
        let ledger = try context.openLedger()
        let now = Context.wallClock.now
        do {
            let learned = try await ledger.learnedQuota(at: now).map { "; " + RequestReport.words($0) } ?? ""
            if let cooldown = try await ledger.activeCooldown(at: now) {
                checks.append(
                    ("request quota", false, SpotifyAPIError.coolingDown(cooldown, now: now).message + learned))
            } else {
                let spent =
                    (try? await ledger.usage(at: now)).map { "\($0.last24Hours) requests in the last 24 h" }
                    ?? "no requests counted"
                checks.append(("request quota", true, "no cooldown; \(spent)\(learned)"))
            }
        } catch {
            // Said as it is: a ledger that cannot be read holds every request back.
            checks.append(("request ledger", false, error.message))
        }
        let reachable = await Self.reachable(context.server.tokenURL)
        checks.append(
            (
                "service", reachable,
                reachable ? "\(context.server.issuer) answers" : "\(context.server.issuer) cannot be reached (offline?)"
            ))
        var report: CapabilityReport?
        if online {
            do {
                let found = try await context.services().capabilities()
                checks += Self.checks(found)
                report = found
            } catch {
                checks.append(("what this app may do", false, CLIFailure(error).message))
            }
        }
        if global.json {
            Output.json(
                DoctorJSON(
                    checks: checks.map { DoctorJSON.Check(check: $0.0, ok: $0.1, detail: $0.2) },
                    capabilities: report.map(DoctorJSON.Capabilities.init)))
        } else {
            for (name, ok, detail) in checks { Output.line("\(ok ? Output.green("✓") : "✗") \(name): \(detail)") }
        }
        if checks.contains(where: { !$0.1 }) { throw ExitCode(1) }
    }

    /// The report as checks: each fact, then each finding with what to do.
    static func checks(_ report: CapabilityReport) -> [(String, Bool, String)] {
        var checks: [(String, Bool, String)] = []
        if let kind = report.clientGeneration {
            checks.append(
                (
                    "client ID", true,
                    kind == .older
                        ? "created before 2026-02-11: Spotify postponed its February 2026 restrictions for it"
                        : "created on or after 2026-02-11: every 2026 restriction applies"
                ))
        }
        if let listed = report.userListed, listed { checks.append(("user list", true, "this account is on it")) }
        if let active = report.ownerPremiumActive, active { checks.append(("developer's Premium", true, "active")) }
        if !report.scopesGranted.isEmpty {
            checks.append(("scopes", true, report.scopesGranted.sorted().joined(separator: " ")))
        }
        if let readable = report.playlistEntriesReadable, readable {
            checks.append(("playlist songs", true, "the songs of your own playlists can be read"))
        }
        if let days = report.daysLeftOnSignIn, days >= 14 {
            checks.append(("sign-in", true, "\(days) days left"))
        }
        checks.append(
            (
                "requests today", true,
                "\(report.requestsLast24Hours) in the last 24 h from this device, of its share of \(report.dailyShare); "
                    + "this report sent \(report.requestsSpent)"
            ))
        for finding in report.findings { checks.append(words(finding)) }
        return checks
    }

    /// A finding as a failed check: what is wrong and what to do.
    static func words(_ finding: CapabilityReport.Finding) -> (String, Bool, String) {
        switch finding {
        case .userNotListed:
            (
                "user list", false,
                "this Spotify account is not on the app's list of users: in Spotify's developer dashboard, open the app, "
                    + "add the account's email under User Management (five users at most), then run 'spotlink login' again"
            )
        case .ownerPremiumLapsed:
            (
                "developer's Premium", false,
                "Spotify stopped the app for everyone: the developer's Premium lapsed; it works again once it is renewed"
            )
        case .scopeMissing(let scope):
            ("scopes", false, "\(scope) was not granted: run 'spotlink login' again to ask for it")
        case .signInEndsSoon(let days):
            (
                "sign-in", false,
                "Spotify ends it in \(days) day\(days == 1 ? "" : "s"): run 'spotlink login' to keep access"
            )
        case .signedOut: ("sign-in", false, "nobody is signed in: run 'spotlink login' first")
        case .playlistEntriesHidden:
            (
                "playlist songs", false,
                "Spotify did not show the songs of your own playlist: durations and song times stay unknown"
            )
        case .quotaMostlySpent(let spent, let share):
            (
                "requests today", false,
                "\(spent) of this device's \(share) sent in the last 24 h: wait before large actions"
            )
        }
    }

    static func reachable(_ url: URL) async -> Bool {
        let request = HTTPRequest(method: .get, url: url)
        return
            (try? await platformDefaultTransport().send(
                request, body: nil, timeout: .seconds(5), maxBodyBytes: 64 * 1024)) != nil
    }
}

/// `open --json`.
private struct OpenJSON: Encodable {
    let url: String
    let opened: Bool
    let urls: [String]
    let iosURLs: [String]
    let contentLink: String
    let label: String

    enum CodingKeys: String, CodingKey {
        case url, opened, urls, label
        case iosURLs = "ios_urls", contentLink = "content_link"
    }
}

/// `export --json`.
private struct ExportJSON: Encodable {
    let file: String
    let bytes: Int
}

/// `import --json`.
private struct ImportJSON: Encodable {
    let imported: Int
    let added: Int
    let replaced: Int
    let kept: [String]
    let unchanged: Int
    let sessionsAdded: Int

    enum CodingKeys: String, CodingKey {
        case imported, added, replaced, kept, unchanged
        case sessionsAdded = "sessions_added"
    }
}

/// `privacy --json`.
private struct PrivacyJSON: Encodable {
    let scopes: [String: String]
    let stored: [String]
    let never: [String]
    let revoke: [String]
}

/// `doctor --json`: each check, and with `--online` what the app may do.
private struct DoctorJSON: Encodable {
    /// One check.
    struct Check: Encodable {
        let check: String
        let ok: Bool
        let detail: String
    }

    /// The capability report.
    struct Capabilities: Encodable {
        let scopesGranted: [String]
        let scopesMissing: [String]
        let requestsLast24Hours: Int
        let dailyShare: Int
        let requestsSpent: Int
        let findings: [String]
        let clientGeneration: String?
        let userListed: Bool?
        let ownerPremiumActive: Bool?
        let playlistEntriesReadable: Bool?
        let daysLeftOnSignIn: Int?

        init(_ report: CapabilityReport) {
            scopesGranted = report.scopesGranted
            scopesMissing = report.scopesMissing
            requestsLast24Hours = report.requestsLast24Hours
            dailyShare = report.dailyShare
            requestsSpent = report.requestsSpent
            findings = report.findings.map { Doctor.words($0).0 + ": " + Doctor.words($0).2 }
            clientGeneration = report.clientGeneration?.rawValue
            userListed = report.userListed
            ownerPremiumActive = report.ownerPremiumActive
            playlistEntriesReadable = report.playlistEntriesReadable
            daysLeftOnSignIn = report.daysLeftOnSignIn
        }

        enum CodingKeys: String, CodingKey {
            case findings
            case scopesGranted = "scopes_granted", scopesMissing = "scopes_missing"
            case requestsLast24Hours = "requests_last_24_hours", dailyShare = "daily_share"
            case requestsSpent = "requests_spent", clientGeneration = "client_generation"
            case userListed = "user_listed", ownerPremiumActive = "owner_premium_active"
            case playlistEntriesReadable = "playlist_entries_readable", daysLeftOnSignIn = "days_left_on_sign_in"
        }
    }

    let checks: [Check]
    let capabilities: Capabilities?
}
