import ArgumentParser
import Foundation
@_spi(Storage) import PlaylistLinks
import SpotLinkSystem
@_spi(Storage) import SpotifyAuth
import SpotifyAuthLoopback
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkServices
import SpotifyWebAPI

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to Spotify through the browser (PKCE, no client secret).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The redirect URI registered for the app: a loopback address, e.g. http://127.0.0.1/callback.")
    var redirectURI = "http://127.0.0.1/callback"
    @Option(
        help: """
            Where to keep the tokens: \(StoreChoice.allCases.map(\.rawValue).joined(separator: ", ")) \
            (default: the store of the last login, else \(StoreChoice.platformDefault.rawValue); a plain \
            file only when asked for; postgres keeps it sealed in SPOTLINK_POSTGRES_URL's database with the \
            keys in SPOTLINK_TOKEN_KEYS, in a spotlink built with --traits PostgreSQL).
            """)
    var store: StoreChoice?
    @Flag(help: "Do not try to open a browser; only print the URL.")
    var noBrowser = false
    @Option(
        name: .customLong("scope"),
        help:
            "A scope to add to the ones granted now (repeatable), e.g. user-top-read; Spotify shows its consent page again."
    )
    var addedScopes: [String] = []
    @Option(help: "Seconds to wait for the sign-in to finish in the browser (1 to 3600).")
    var timeout = 300

    func validate() throws {
        guard (1...3600).contains(timeout) else {
            throw ValidationError("--timeout takes seconds from 1 to 3600, as 300 (five minutes)")
        }
        do {
            _ = try RedirectURIPolicy.validate(redirectURI)
        } catch let error as OAuthError {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let context = try Context(global)
        // A second login (a scope added) keeps the store of the first unless told otherwise.
        let store = self.store ?? context.loginStoreChoice
        let tokenStore = try context.tokenStore(store)
        try await Self.checkUsable(tokenStore, context)
        let spotify = try context.services(store: tokenStore)
        let session = spotify.session
        let signIn = LoopbackSignIn(redirectURI: redirectURI, timeout: .seconds(timeout))
        let noBrowser = noBrowser
        do {
            let waiting = Self.waiting(timeout)
            let tokens = try await signIn.run(session: session, adding: addedScopes) { url in
                Output.note("Open this URL to sign in: \(url.absoluteString)")
                if !noBrowser { SystemOpener.open(url) }
                Output.note("\(waiting)")
            }
            try context.remember(store: store)
            let user = try await Self.checkAccount(spotify.client, session)
            if global.json {
                Output.json(
                    LoginJSON(
                        store: "\(tokenStore.kind)", scopes: tokens.scopes, accountID: user?.accountID,
                        displayName: user?.displayName))
            } else {
                let name = user.map { " as \(TerminalText($0.displayName ?? $0.id))" } ?? ""
                Output.line("Signed in\(name). Tokens are kept in the \(tokenStore.kind).")
            }
        } catch let error as OAuthError where error.code == .configuration {
            throw CLIFailure(error.message, exitCode: 2)
        } catch let error as OAuthError where error.code == .timedOut {
            throw CLIFailure(Self.notFinished(timeout))
        }
    }

    /// What the command waits for, said when it starts waiting (issue 66 item 2: it waited its
    /// whole timeout in silence, so a page that never loaded looked like a hung command).
    static func waiting(_ seconds: Int) -> String {
        "Waiting up to \(Self.span(seconds)) for the browser to come back to this computer with the sign-in "
            + "(Ctrl-C stops)."
    }

    /// The timeout's message: what did not happen, the likely causes, and what to do.
    static func notFinished(_ seconds: Int) -> String {
        "No sign-in came back within \(Self.span(seconds)). If Spotify's page did not load in the browser, check "
            + "the network connection (a captive portal or a stalled proxy can hold it); if the page said the "
            + "address is not allowed, register the redirect URI in the app's settings on Spotify's developer "
            + "dashboard. Run 'spotlink login' again when ready (--timeout gives more time)."
    }

    private static func span(_ seconds: Int) -> String {
        seconds % 60 == 0 && seconds >= 120
            ? "\(seconds / 60) minutes" : seconds == 1 ? "1 second" : "\(seconds) seconds"
    }

    /// Asks Spotify who signed in (one request). A user not on a Development Mode app's user list
    /// finishes the sign-in and is then refused every call: that is a failure to report now, not
    /// at the next command. The tokens stay, so they work once the developer adds the account.
    /// Offline or rate limited, the sign-in stands and the name is unknown.
    static func checkAccount(_ client: SpotifyClient, _ session: SpotifySession) async throws -> CurrentUser? {
        do {
            let user = try await client.currentUser()
            _ = try? await session.remember(user)
            return user
        } catch let error as SpotifyAPIError
            where error.code == .userNotRegistered || error.code == .ownerPremiumRequired
        {
            throw CLIFailure("Signed in, but Spotify refuses every request for this account. " + error.message)
        } catch {
            return nil
        }
    }

    /// Fails before the browser opens when the chosen store cannot keep tokens (checklist row 33):
    /// the user is told which store failed and how to choose another, never switched silently.
    static func checkUsable(_ store: any TokenStore, _ context: Context) async throws {
        do {
            _ = try await store.load(SpotifyAppKey(issuer: context.server.issuer, clientID: context.clientID))
            #if os(Linux)
                // Reading works on a locked keyring (nothing is found); writing is what fails.
                try await (store as? SecretServiceTokenStore)?.checkWritable()
            #endif
        } catch let error as TokenStoreError where error.code == .unavailable || error.code == .insecure {
            // The advice to choose the file store is for another store; the file store's own
            // message says how to fix its folder.
            let advice: String
            if case .file = store.kind {
                advice = ""
            } else {
                advice = " To keep the tokens in a 0600 file instead, pass --store file."
            }
            throw CLIFailure("\(error.message)\(advice)", exitCode: 1)
        } catch let error as TokenStoreError where error.code == .corrupt {
            // Already moved aside or removed; signing in stores good tokens.
        }
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Remove this app's Spotify tokens from every store that holds them, and the details saved from Spotify; links stay.",
        discussion: """
            Every copy is removed, also one the store refuses to read (a token file others can read, a \
            symbolic link, a file moved aside as unreadable). It says what it removed and what it could \
            not, and exits 1 while a sign-in may remain (a database that did not answer, a PostgreSQL \
            sign-in sealed under a key this process was not given: --force removes that one unread).
            """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Keep the saved playlist names, covers, counts and durations on this device.")
    var keepDetails = false
    @Flag(
        help: "Also remove a sign-in this process cannot open (sealed under another key, or changed outside spotlink).")
    var force = false

    /// What became of one store's copy.
    enum Outcome {
        case removed(store: String, note: String?)
        case remains(store: String, reason: String)
    }

    func run() async throws {
        let context = try Context(global)
        let key = SpotifyAppKey(issuer: context.server.issuer, clientID: context.clientID)
        // Whichever store holds tokens (the settings file may be gone, or an earlier login may
        // have chosen another store): look in each one this system has.
        var outcomes: [Outcome] = []
        for choice in StoreChoice.allCases where choice != .memory {
            guard let store = try? context.tokenStore(choice) else { continue }
            if let outcome = await Self.signOut(of: store, key, force: force) { outcomes.append(outcome) }
        }
        // Spotify's Developer Policy: on a disconnect, delete the user's data. The links are the
        // user's own records and stay, naming their playlists by ID.
        var detailsFailure: String?
        if !keepDetails, FileManager.default.fileExists(atPath: context.databaseURL.path) {
            do {
                try await context.links().forgetSpotifyDetails()
            } catch {
                detailsFailure = CLIFailure(error).message
            }
        }
        report(outcomes, detailsFailure: detailsFailure, issuer: context.server.issuer)
        let remains = outcomes.contains { if case .remains = $0 { true } else { false } }
        if remains || detailsFailure != nil { throw ExitCode(1) }
    }

    /// Removes `key`'s sign-in from `store`, every copy of it, whether or not the store would read it.
    static func signOut(of store: any TokenStore, _ key: SpotifyAppKey, force: Bool) async -> Outcome? {
        let name = "\(store.kind)"
        var note: String?
        let file = store as? FileTokenStore
        let linkTarget = file?.symbolicLinkTarget(of: key)
        do {
            let held = try await store.load(key) != nil
            let aside = file?.copies(of: key).count ?? 0
            guard held || aside > 0 else { return nil }
            if aside > 0 { note = "with \(Output.count(aside, "copy", plural: "copies")) kept aside as unreadable" }
        } catch let error as TokenStoreError {
            switch error.code {
            case .corrupt, .insecure:
                // Unreadable, or readable by others: it is removed all the same, and that is what
                // the user asked for.
                note =
                    if let linkTarget {
                        "it was a symbolic link to \(linkTarget): the link was removed, and that file left as it "
                            + "is (spotlink removes nothing outside its folder); delete it if it holds this sign-in"
                    } else {
                        "it was refused for reading: \(error.message)"
                    }
            case .misconfigured, .tampered:
                guard force else {
                    return .remains(
                        store: name,
                        reason:
                            "\(error.message) It was not removed: run 'spotlink logout --force' to remove it unread.")
                }
                note = "removed unread, as --force asked"
            case .unavailable where [.secretService, .keychain].contains(store.kind):
                return nil  // no keyring on this system: it holds nothing of ours
            case _ where file != nil:
                // A token file this user cannot read (its mode changed) is still this user's to
                // remove from their own folder: left, the same advice would repeat forever.
                note = "it could not be read: \(error.message)"
            default:
                return .remains(store: name, reason: "\(error.message) A sign-in may remain there: run logout again.")
            }
        } catch {
            return .remains(store: name, reason: "\(CLIFailure(error).message) A sign-in may remain there.")
        }
        do {
            try await store.remove(key)
            return .removed(store: name, note: note)
        } catch {
            return .remains(store: name, reason: "It could not be removed: \(CLIFailure(error).message)")
        }
    }

    private func report(_ outcomes: [Outcome], detailsFailure: String?, issuer: String) {
        let removed = outcomes.compactMap { if case .removed(let store, _) = $0 { store } else { nil } }
        let remains = outcomes.compactMap {
            if case .remains(let store, let reason) = $0 { (store, reason) } else { nil }
        }
        if global.json {
            Output.json(
                LogoutJSON(
                    signedOut: remains.isEmpty, removedFrom: removed,
                    notes: outcomes.compactMap { if case .removed(_, let note) = $0 { note } else { nil } },
                    notRemoved: remains.map { LogoutJSON.Remains(store: $0.0, reason: $0.1) },
                    forgotDetails: !keepDetails && detailsFailure == nil, detailsError: detailsFailure))
            return
        }
        for outcome in outcomes {
            switch outcome {
            case .removed(let store, let note):
                Output.line("The Spotify sign-in was removed from the \(store)\(note.map { " (\($0))" } ?? "").")
            case .remains(let store, let reason):
                Output.line("The Spotify sign-in was NOT removed from the \(store): \(reason)")
            }
        }
        if outcomes.isEmpty { Output.line("No Spotify tokens were stored for \(issuer).") }
        if let detailsFailure {
            Output.line("The details saved from Spotify could not be removed: \(detailsFailure)")
        } else if keepDetails {
            Output.line("The saved playlist details stay on this device.")
        } else {
            Output.line(
                "The details saved from Spotify (playlist names, owners, covers, counts, durations) were removed; the links stay."
            )
        }
        Output.line(
            remains.isEmpty
                ? "Signed out. To revoke this app's access to your Spotify account as well, open "
                    + "\(AuthorizationServer.revokeAccessPage.absoluteString) (a token already issued works until it expires, up to an hour)."
                : "A sign-in may remain: see above.")
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Who is signed in, with which scopes and store, until when, and the Spotify requests spent.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The developer's apps that share the request quota (every client ID of the developer).")
    var apps = 1
    @Option(help: "The users of each app (Development Mode allows five).")
    var users = 5
    @Option(help: "The devices each user runs the app on.")
    var devices = 1

    /// This device's share of the developer's daily quota, from the options.
    var share: QuotaShare { QuotaShare(apps: apps, usersPerApp: users, devicesPerUser: devices) }

    func validate() throws {
        guard apps > 0, users > 0, devices > 0 else {
            throw ValidationError("--apps, --users and --devices must be at least 1.")
        }
    }

    func run() async throws {
        let context = try Context(global)
        let store = try context.tokenStore()
        let spotify = try context.services(store: store)
        let session = spotify.session
        guard let tokens = try await session.tokens() else {
            throw CLIFailure("Not signed in to \(context.server.issuer). Run 'spotlink login'.", exitCode: 3)
        }
        let client = spotify.client
        let limits = await RequestReport(client: client)
        // During a cooldown nothing is sent, not even to ask who is signed in; offline, what is
        // saved is shown and said so.
        var offline = false
        var user: CurrentUser?
        if limits.cooldown == nil {
            do {
                user = try await client.currentUser()
            } catch  where CLIFailure.isUnreachable(error) {
                offline = true
            }
        }
        if let user { try await session.remember(user) }
        let account = try await session.tokens()?.account
        let warning = try await session.daysUntilSignInEnds().map { days in
            "Spotify ends this sign-in in \(Output.count(days, "day")) (six months after signing in). "
                + "Sign in again to keep access."
        }
        let ageDays = Int(client.clock.now.timeIntervalSince(tokens.signedInAt) / 86400)
        if global.json {
            Output.json(
                StatusJSON(
                    user: user?.id ?? account?.userID, accountID: account?.accountID,
                    displayName: user?.displayName ?? account?.displayName, scopes: tokens.scopes,
                    store: "\(store.kind)",
                    accessTokenExpiresAt: tokens.expiresAt.map { ISO8601DateFormatter().string(from: $0) },
                    signedInDaysAgo: ageDays,
                    signInExpiresAt: ISO8601DateFormatter().string(from: tokens.signInExpiresAt),
                    issuer: context.server.issuer, cooldown: limits.cooldownJSON, requests: limits.requestsJSON,
                    learnedLimit: limits.learnedJSON,
                    quotaShare: StatusJSON.Share(share), offline: offline))
            return
        }
        if let user {
            Output.line(
                "Signed in as \(Output.bold(TerminalText(user.name))) (\(TerminalText(user.id))) at \(context.server.issuer)"
            )
        } else if offline {
            // What the sign-in saved of the account, said as such.
            let saved = account.map { "\(TerminalText($0.displayName ?? $0.userID)) " } ?? ""
            Output.line(
                "Signed in as \(saved)at \(context.server.issuer) "
                    + "(as saved: Spotify can't be reached; what follows is this device's own record)")
        } else {
            Output.line("Signed in at \(context.server.issuer) (who is not asked while the cooldown lasts)")
        }
        Output.line("Scopes: \(tokens.scopes.joined(separator: ", "))")
        Output.line("Tokens kept in the \(store.kind)")
        Output.line("Access token expires: \(tokens.expiresAt.map { "\($0)" } ?? "unknown")")
        Output.line(
            "Signed in \(ageDays) days ago; Spotify ends the sign-in after six months (on \(tokens.signInExpiresAt)).")
        if let warning { Output.line("\(warning)") }
        for line in limits.lines { Output.line("\(line)") }
        let division: String =
            "\(share.developerQuota) ÷ \(Output.count(share.apps, "app")) ÷ \(Output.count(share.usersPerApp, "user")) "
            + "÷ \(Output.count(share.devicesPerUser, "device"))"
        let stop: String = Self.budgetWords(share: share.dailyBudget, learned: limits.learned)
        Output.line(
            "This device's share of the developer's quota: \(share.perDevice) requests a day (\(division)); "
                + "an app's background work stops at \(stop).")
    }

    /// Where background work stops, as the client judges it: this share's budget, or the learned
    /// one when Spotify refused lower (`RequestLedger.backgroundBudget(at:)`), said as such.
    static func budgetWords(share: Int, learned: LearnedQuota?) -> String {
        guard let learned, learned.backgroundBudget < share else { return "\(share)" }
        return "\(learned.backgroundBudget), the learned limit's (\(share) by this share alone)"
    }
}

/// The cooldown and the requests spent, as `status` and `doctor` show them.
struct RequestReport {
    var cooldown: Cooldown?
    var usage: RequestUsage?
    var message: String?
    /// The daily limit learned from Spotify's refusals of the last 30 days, if it refused.
    var learned: LearnedQuota?

    init(client: SpotifyClient) async {
        cooldown = await client.cooldown()
        usage = try? await client.requestUsage()
        message = cooldown.map { SpotifyAPIError.coolingDown($0, now: client.clock.now).message }
        learned = try? await client.ledger.learnedQuota(at: client.clock.now)
    }

    /// The learned limit in words: what Spotify refused at, and what background work keeps to.
    static func words(_ learned: LearnedQuota) -> String {
        "Spotify refused this app after \(Output.count(learned.limit, "request")) in a day "
            + "(learned \(ISO8601DateFormatter().string(from: learned.learnedAt))); background work stops at "
            + "\(learned.backgroundBudget) a day"
    }

    var lines: [String] {
        var lines: [String] = []
        if let message { lines.append("Cooldown: " + message) }
        if let learned { lines.append("Learned limit: " + Self.words(learned) + ".") }
        if let usage {
            lines.append(
                "Requests to Spotify: \(usage.lastHour) in the last hour, \(usage.last24Hours) in the last 24 h"
                    + (usage.background24Hours > 0 ? " (\(usage.background24Hours) by background work)" : ""))
            for entry in usage.byRoute.prefix(8) { lines.append("  \(entry.count)  \(entry.route)") }
        }
        return lines
    }

    /// The cooldown, for `--json`: `null` when there is none.
    var cooldownJSON: CooldownJSON? {
        cooldown.map {
            CooldownJSON(
                kind: $0.kind.rawValue, until: ISO8601DateFormatter().string(from: $0.until), message: message ?? "")
        }
    }

    /// The ledger's counts, for `--json`: left out when the ledger could not be read.
    var requestsJSON: RequestsJSON? {
        usage.map { usage in
            RequestsJSON(
                lastHour: usage.lastHour, last24h: usage.last24Hours, background24h: usage.background24Hours,
                byEndpoint: Dictionary(uniqueKeysWithValues: usage.byRoute.map { ($0.route, $0.count) }),
                byOutcome: Dictionary(uniqueKeysWithValues: usage.byStatus.map { (String($0.key), $0.value) })
                    .merging(usage.unanswered > 0 ? ["no answer": usage.unanswered] : [:]) { $1 })
        }
    }

    /// The learned limit, for `--json`: `null` when Spotify has not refused in 30 days.
    var learnedJSON: LearnedJSON? {
        learned.map {
            LearnedJSON(
                limit: $0.limit, backgroundBudget: $0.backgroundBudget,
                learnedAt: ISO8601DateFormatter().string(from: $0.learnedAt))
        }
    }

    /// A learned limit in `--json`.
    struct LearnedJSON: Encodable {
        let limit: Int
        let backgroundBudget: Int
        let learnedAt: String

        enum CodingKeys: String, CodingKey {
            case limit
            case backgroundBudget = "background_budget", learnedAt = "learned_at"
        }
    }

    /// A cooldown in `--json`.
    struct CooldownJSON: Encodable {
        let kind: String
        let until: String
        let message: String
    }

    /// The ledger's counts in `--json`.
    struct RequestsJSON: Encodable {
        let lastHour: Int
        let last24h: Int
        let background24h: Int
        let byEndpoint: [String: Int]
        let byOutcome: [String: Int]

        enum CodingKeys: String, CodingKey {
            case lastHour = "last_hour", last24h = "last_24h", background24h = "background_24h"
            case byEndpoint = "by_endpoint", byOutcome = "by_outcome"
        }
    }
}

/// `login --json`.
private struct LoginJSON: Encodable {
    let signedIn = true
    let store: String
    let scopes: [String]
    let accountID: String?
    let displayName: String?

    enum CodingKeys: String, CodingKey {
        case store, scopes
        case signedIn = "signed_in", accountID = "account_id", displayName = "display_name"
    }
}

/// `logout --json`.
private struct LogoutJSON: Encodable {
    /// A store the sign-in could not be removed from, and why.
    struct Remains: Encodable {
        let store: String
        let reason: String
    }

    let signedOut: Bool
    let removedFrom: [String]
    /// What a removal found worth saying (a copy refused for reading, a link's target left).
    let notes: [String]
    let notRemoved: [Remains]
    let forgotDetails: Bool
    @Nullable var detailsError: String?

    enum CodingKeys: String, CodingKey {
        case signedOut = "signed_out", removedFrom = "removed_from", notes, notRemoved = "not_removed"
        case forgotDetails = "forgot_details", detailsError = "details_error"
    }
}

/// `status --json`.
private struct StatusJSON: Encodable {
    /// The device's share of the developer's quota.
    struct Share: Encodable {
        let developerQuota: Int
        let apps: Int
        let usersPerApp: Int
        let devicesPerUser: Int
        let perDevice: Int
        let backgroundBudget: Int

        init(_ share: QuotaShare) {
            developerQuota = share.developerQuota
            apps = share.apps
            usersPerApp = share.usersPerApp
            devicesPerUser = share.devicesPerUser
            perDevice = share.perDevice
            backgroundBudget = share.dailyBudget
        }

        enum CodingKeys: String, CodingKey {
            case apps
            case developerQuota = "developer_quota", usersPerApp = "users_per_app"
            case devicesPerUser = "devices_per_user", perDevice = "per_device", backgroundBudget = "background_budget"
        }
    }

    @Nullable var user: String?
    @Nullable var accountID: String?
    @Nullable var displayName: String?
    let scopes: [String]
    let store: String
    @Nullable var accessTokenExpiresAt: String?
    let signedInDaysAgo: Int
    let signInExpiresAt: String
    let issuer: String
    @Nullable var cooldown: RequestReport.CooldownJSON?
    let requests: RequestReport.RequestsJSON?
    /// The limit learned from Spotify's refusals: `null` when it has not refused in 30 days.
    @Nullable var learnedLimit: RequestReport.LearnedJSON?
    let quotaShare: Share
    /// Whether Spotify could not be reached: the user is the one the sign-in saved.
    let offline: Bool

    enum CodingKeys: String, CodingKey {
        case user, scopes, store, issuer, cooldown, requests, offline
        case learnedLimit = "learned_limit"
        case accountID = "account_id", displayName = "display_name"
        case accessTokenExpiresAt = "access_token_expires_at", signedInDaysAgo = "signed_in_days_ago"
        case signInExpiresAt = "sign_in_expires_at", quotaShare = "quota_share"
    }
}
