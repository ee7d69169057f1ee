import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

/// Stops a running child when a step the test takes beside it fails, and keeps that step's error.
final class ChildControl: Sendable {
    private let state = Lock<(process: Process?, failure: (any Error)?)>((nil, nil))

    /// The error of the step that failed, if one did.
    var failure: (any Error)? { state.withLock { $0.failure } }

    func attach(_ process: Process) { state.withLock { $0.process = process } }

    /// Keeps `error` and ends the child (it would otherwise wait for what the step never did).
    func fail(_ error: any Error) {
        let process = state.withLock { state in
            state.failure = state.failure ?? error
            return state.process
        }
        if process?.isRunning == true { process?.terminate() }
    }
}

/// Runs the built `spotlink` binary with a private HOME and XDG folders.
struct SpotLinkBinary {
    let home: URL
    /// Variables added to the child's otherwise minimal environment.
    var extraEnvironment: [String: String] = [:]
    /// The child's umask, as octal text (`"000"`), when the test sets one.
    var umask: String?
    /// The child's working directory, when the test sets one.
    var workingDirectory: URL?
    /// The user the child runs as (`runuser -u`), when the test (run as root) sets one.
    var user: String?

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// `spotlink login --no-browser`, with the test acting as the browser on the printed URL.
    /// Tokens go to the file store unless `arguments` choose one: the child has no keyring. A visit
    /// that fails stops the child at once and is thrown, instead of the login waiting out its deadline.
    func login(_ arguments: [String], choosingStore: Bool = true) async throws -> Result {
        let store = arguments.contains("--store") || !choosingStore ? [] : ["--store", "file"]
        let child = ChildControl()
        let result = try await run(["login", "--no-browser"] + store + arguments, control: child) { line in
            guard let range = line.range(of: "Open this URL to sign in: ") else { return }
            let authorize = URL(string: String(line[range.upperBound...]))!
            Task {
                do { _ = try await ConsentBrowser().visit(authorize) } catch { child.fail(error) }
            }
        }
        if let failure = child.failure { throw failure }
        return result
    }

    var environment: [String: String] {
        // Under ThreadSanitizer the child is instrumented too: it keeps the run's options, so a
        // race in it halts it with its report on stderr, as in the test process.
        let sanitizer = ProcessInfo.processInfo.environment["TSAN_OPTIONS"].map { ["TSAN_OPTIONS": $0] } ?? [:]
        // The PostgreSQL stores' deadline that scripts/with-postgres.sh sets for a loaded machine.
        let deadline =
            ProcessInfo.processInfo.environment["SPOTLINK_POSTGRES_DEADLINE"].map {
                ["SPOTLINK_POSTGRES_DEADLINE": $0]
            } ?? [:]
        return [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
        ].merging(sanitizer) { $1 }.merging(deadline) { $1 }.merging(extraEnvironment) { $1 }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments`; `onStderrLine` sees stderr as it arrives (to act as the user's browser).
    /// The child waits for one of the run's shared slots (``ChildSlots``) before it starts.
    func run(
        _ arguments: [String], input: String? = nil, control: ChildControl? = nil,
        onStderrLine: (@Sendable (String) -> Void)? = nil
    ) async throws -> Result {
        try await ChildSlots.shared.running {
            try await runNow(arguments, input: input, control: control, onStderrLine: onStderrLine)
        }
    }

    private func runNow(
        _ arguments: [String], input: String?, control: ChildControl?, onStderrLine: (@Sendable (String) -> Void)?
    ) async throws -> Result {
        let process = Process()
        control?.attach(process)
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "umask \(umask); exec \"$0\" \"$@\"", builtExecutable(named: "spotlink").path] + arguments
        } else if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", user, "--", builtExecutable(named: "spotlink").path] + arguments
        } else {
            process.executableURL = builtExecutable(named: "spotlink")
            process.arguments = arguments
        }
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let input {
            let stdin = Pipe()
            process.standardInput = stdin
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        // Nothing here blocks a thread of the cooperative pool: an emulator in this process
        // needs those threads to answer the child. The pipes are read on threads of their own, not
        // through `readabilityHandler`: on Linux that is a dispatch source, and one still being
        // cancelled when its pipe closes crashed libdispatch's event loop (1 run in 3 under load).
        let outData = Lock(Data())
        let errText = Lock("")
        async let outRead: Void = ChildProcess.readToEnd(out.fileHandleForReading) { chunk in
            outData.withLock { $0.append(chunk) }
        }
        async let errRead: Void = ChildProcess.readToEnd(err.fileHandleForReading) { chunk in
            let text = String(decoding: chunk, as: UTF8.self)
            errText.withLock { $0 += text }
            for line in text.split(separator: "\n") { onStderrLine?(String(line)) }
        }
        let ended: ChildProcess.Ended
        do {
            // Bounded: a child that hangs, or whose end is never reported, fails its test with what
            // it wrote instead of holding the whole run.
            ended = try await ChildProcess.start(process, deadline: .seconds(600))
        } catch {
            // No child holds the write ends: close them so the readers see the end.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            await outRead
            await errRead
            throw error
        }
        await outRead
        await errRead
        let stdout = outData.withLock { $0 }
        guard ended == .exited else {
            throw ChildProcess.TimedOut(
                command: (["spotlink"] + arguments).joined(separator: " "), deadline: .seconds(600),
                output: String(decoding: stdout, as: UTF8.self) + errText.withLock { $0 })
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: errText.withLock { $0 })
    }

}

@Suite("spotlink as a binary", .serialized)
struct SpotLinkBinaryTests {
    @Test func demoRunsTheWholeProduct() async throws {
        let result = try await SpotLinkBinary().run(["demo"])
        #expect(result.status == 0, "\(result.stderr)")
        for step in [
            "Signed in", "Read every entry of Everything Archive", "Morning routine", "Stopped the emulator",
            "You got through", "Disconnected", "Done",
        ] {
            #expect(result.stdout.contains(step), "missing step: \(step)")
        }
    }

    @Test func demoJSONIsOneObjectPerLine() async throws {
        let result = try await SpotLinkBinary().run(["demo", "--json"])
        #expect(result.status == 0, "\(result.stderr.suffix(6000))")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 10)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test func loginThenEveryCommandAgainstAnEmulatorAndOffline() async throws {
        let cli = try SpotLinkBinary()
        var emulator = try await EmulatorServer.startForTest()
        // Stopped and restarted on purpose below; stopped on any failure too.
        do {
            let url = emulator.baseURL.absoluteString
            let common = ["--emulator", url]

            let login = try await cli.login(common)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Signed in"))

            let status = try await cli.run(["status", "--json"] + common)
            #expect(status.status == 0)
            let statusObject = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            #expect(statusObject["user"] as? String == "emu-user")
            let share = try #require(statusObject["quota_share"] as? [String: Any])
            #expect(share["per_device"] as? Int == 160 && share["background_budget"] as? Int == 80)
            let shared = try await cli.run(["status", "--apps", "2", "--users", "4"] + common)
            #expect(
                shared.stdout.contains(
                    "share of the developer's quota: 100 requests a day (800 ÷ 2 apps ÷ 4 users ÷ 1 device)"))
            #expect(shared.stdout.contains("background work stops at 50"))
            #expect(try await cli.run(["status", "--users", "0"] + common).status == 2)

            let playlists = try await cli.run(["playlists", "--filter", "FOCUS", "--json"] + common)
            #expect(playlists.status == 0)
            #expect(playlists.stdout.contains("Morning Focus"))
            #expect(playlists.stdout.contains(#""unavailable":1"#))
            let listed = try await cli.run(["playlists"] + common)
            #expect(listed.stdout.contains("1 playlist in your library is no longer available on Spotify"))
            #expect(!listed.stdout.contains("Old Roadtrip"))
            let search = try await cli.run(["search", "focus", "--limit", "3", "--json"] + common)
            #expect(search.status == 0 && search.stdout.contains("next_offset"))
            #expect(try await cli.run(["search", "focus", "--limit", "11"] + common).status == 2)

            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let show = try await cli.run(
                ["playlist", "show", "https://open.spotify.com/intl-de/playlist/\(deep)?si=x", "--json"] + common)
            #expect(show.status == 0)
            #expect(show.stdout.contains("\"tracks\":50"))

            #expect(try await cli.run(["session", "new", "Focus block", "--minutes", "20"] + common).status == 0)
            let attach = try await cli.run(["session", "attach", "1", "spotify:playlist:\(deep)"] + common)
            #expect(attach.status == 0, "\(attach.stderr)")
            let card = try await cli.run(["session", "show", "1", "--json"] + common)
            let cardObject = try #require(
                try JSONSerialization.jsonObject(with: Data(card.stdout.utf8)) as? [String: Any])
            let playlist = try #require(cardObject["playlist"] as? [String: Any])
            #expect(playlist["tracks"] as? Int == 50)
            #expect((playlist["cover_bytes"] as? Int ?? 0) > 0)

            await emulator.control("faults", ["kind": "429", "retry_after": "3600"])
            let limited = try await cli.run(["playlists"] + common)
            #expect(limited.status == 4, "\(limited.stderr)")
            #expect(limited.stderr.contains("retry after"))
            // The next process honours the cooldown the first one learned: it sends nothing.
            await emulator.resetStatistics()
            let stillLimited = try await cli.run(["search", "focus"] + common)
            #expect(stillLimited.status == 4 && stillLimited.stderr.contains("rate limit"), "\(stillLimited.stderr)")
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)

            await emulator.stop()
            let offlineCard = try await cli.run(["session", "show", "1"] + common)
            #expect(offlineCard.status == 0)
            #expect(offlineCard.stdout.contains("Deep Work") && offlineCard.stdout.contains("50 tracks"))
            var later = cli
            later.extraEnvironment["SPOTLINK_CLOCK_OFFSET_SECONDS"] = "3700"
            let offline = try await later.run(["playlists"] + common)
            #expect(offline.status == 5, "\(offline.stderr)")

            emulator = try await emulator.restarted()
            let export = cli.home.appendingPathComponent("links.json").path
            #expect(try await later.run(["playlists"] + common).status == 0)
            #expect(try await cli.run(["export", export] + common).status == 0)
            #expect(try await cli.run(["logout"] + common).status == 0)
            let signedOut = try await cli.run(["playlists"] + common)
            #expect(signedOut.status == 3)
            #expect(signedOut.stderr.contains("spotlink login"))
            // The logout forgot what Spotify said: the session keeps its link, the file holds no name.
            let forgotten = try await cli.run(["session", "show", "1"] + common)
            #expect(!forgotten.stdout.contains("Deep Work") && forgotten.stdout.contains("open.spotify.com/playlist/"))
            let database = try Data(contentsOf: cli.home.appendingPathComponent("data/spotlink/links.sqlite"))
            #expect(database.range(of: Data("Deep Work".utf8)) == nil)
            #expect(try await cli.run(["import", export] + common).status == 0)
            #expect(try await cli.run(["session", "show", "1"] + common).stdout.contains("Deep Work"))
            await emulator.stop()
        } catch {
            await emulator.stop()
            throw error
        }
    }

    @Test func aQuotaLearnedByOneProcessKeepsEveryLaterOneQuietUntilItEnds() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            #expect(try await cli.run(["session", "new", "Focus"] + common).status == 0)
            #expect(try await cli.run(["session", "attach", "1", deep] + common).status == 0)
            await emulator.control("faults", ["kind": "429-quota", "retry_after": "43200"])
            let first = try await cli.run(["playlists"] + common)
            #expect(first.status == 4)
            #expect(
                first.stderr.contains("daily request quota") && first.stderr.contains("about 12 h, around "),
                "\(first.stderr)")
            #expect(first.stderr.contains("readable offline"))
            await emulator.resetStatistics()
            for arguments in [
                ["playlists"], ["search", "focus"], ["playlist", "show", deep], ["now-playing"], ["refresh"],
            ] {
                let result = try await cli.run(arguments + common)
                #expect(result.status == 4, "\(arguments): \(result.stderr)")
            }
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
            // Saved cards still read.
            let card = try await cli.run(["session", "show", "1"] + common)
            #expect(card.status == 0 && card.stdout.contains("Deep Work"))
            let status = try await cli.run(["status"] + common)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("Cooldown: Spotify's daily request quota"))
            #expect(status.stdout.contains("Requests to Spotify: ") && status.stdout.contains("GET /me/playlists"))
            let json = try await cli.run(["status", "--json"] + common)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((object["cooldown"] as? [String: Any])?["kind"] as? String == "quota")
            #expect(((object["requests"] as? [String: Any])?["by_outcome"] as? [String: Int])?["429"] == 1)
            let doctor = try await cli.run(["doctor"] + common)
            #expect(doctor.stdout.contains("✗ request quota: Spotify's daily request quota"), "\(doctor.stdout)")
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 0)
            // Half a day later the cooldown has ended by itself.
            var later = cli
            later.extraEnvironment["SPOTLINK_CLOCK_OFFSET_SECONDS"] = "43300"
            let after = try await later.run(["playlists"] + common)
            #expect(after.status == 0, "\(after.stderr)")
            #expect(await emulator.totalRequests(prefix: "GET /v1/") == 1)
        }
    }

    /// A user not on the app's user list finishes the sign-in and is then refused every call:
    /// `spotlink login` says so and exits 1, with the one `/me` it asks anyway. Once the account is
    /// added, the kept sign-in works.
    @Test func loginSaysWhenTheAccountIsNotOnTheUserList() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            await emulator.control("faults", ["kind": "403-not-registered", "path": "/v1/me"])
            let refused = try await cli.login(common)
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("Signed in, but Spotify refuses") && refused.stderr.contains("User Management"))
            #expect(!refused.stdout.contains("Signed in"))
            #expect(await emulator.requestCount("GET /v1/me") == 1)
            let playlists = try await cli.run(["playlists"] + common)
            #expect(playlists.status == 0, "\(playlists.stderr)")
            let login = try await cli.login(["--json"] + common)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(login.stdout.utf8)) as? [String: Any])
            #expect(object["account_id"] as? String == "acct-emu-user")
        }
    }

    /// `doctor --online` asks Spotify what this app may do, in at most five requests, and says what
    /// to do about each finding; an unlisted account is found in one request.
    @Test func doctorOnlineReportsWhatTheAppMayDo() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            let before = await emulator.totalRequests(prefix: "GET /v1/")
            let doctor = try await cli.run(["doctor", "--online", "--json"] + common)
            #expect(doctor.status == 0, "\(doctor.stdout) \(doctor.stderr)")
            let sent = await emulator.totalRequests(prefix: "GET /v1/") - before
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
            let report = try #require(object["capabilities"] as? [String: Any], "\(object)")
            #expect(report["requests_spent"] as? Int == sent && sent <= 5, "sent \(sent): \(report)")
            #expect(report["client_generation"] as? String == "newer" && report["user_listed"] as? Bool == true)
            #expect(report["playlist_entries_readable"] as? Bool == true)

            await emulator.control("faults", ["kind": "403-not-registered", "count": "10"])
            let refused = try await cli.run(["doctor", "--online"] + common)
            #expect(refused.status == 1)
            #expect(refused.stdout.contains("✗ user list: this Spotify account is not on the app's list of users"))
            #expect(refused.stdout.contains("User Management"), "\(refused.stdout)")
            #expect(refused.stdout.contains("this report sent 1"), "\(refused.stdout)")
        }
    }

    @Test func eachRefusalPrintsItsOwnActionableSentence() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            var seen: Set<String> = []
            for (kind, exit, says) in [
                ("403-not-registered", Int32(1), "User Management"), ("403-premium", 1, "Premium"),
                ("403-scope", 3, "spotlink login"),
            ] {
                await emulator.control("faults", ["kind": kind])
                let result = try await cli.run(["playlists"] + common)
                #expect(result.status == exit, "\(kind): \(result.stderr)")
                #expect(result.stderr.contains(says), "\(kind): \(result.stderr)")
                seen.insert(result.stderr)
            }
            #expect(seen.count == 3)
            await emulator.control("faults", ["kind": "403-scope", "path": "/v1/me/player"])
            let playing = try await cli.run(["now-playing"] + common)
            #expect(playing.status == 3)
            #expect(playing.stderr.contains("spotlink login --scope user-read-currently-playing"), "\(playing.stderr)")
            // A transient 401 is waited out; the sign-in stays.
            await emulator.control("faults", ["kind": "401-transient"])
            #expect(try await cli.run(["playlists"] + common).status == 0)
            // Adding a scope signs in again with the consent page and keeps the others.
            let added = try await cli.login(["--scope", "user-top-read", "--json"] + common)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stderr.contains("show_dialog=true"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
            let scopes = try #require(object["scopes"] as? [String])
            #expect(scopes.contains("user-top-read") && scopes.contains("user-read-currently-playing"))
            let status = try await cli.run(["status", "--json"] + common)
            let statusObject = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            #expect(statusObject["account_id"] as? String == "acct-emu-user")
        }
    }

    @Test func theLearningAppsCommands() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            // Saved and top tracks need scopes the default sign-in does not ask for.
            let unscoped = try await cli.run(["library", "tracks"] + common)
            #expect(
                unscoped.status == 3 && unscoped.stderr.contains("spotlink login --scope user-library-read"),
                "\(unscoped.stderr)")
            #expect(await emulator.totalRequests(prefix: "GET /v1/me/tracks") == 0)
            let login = try await cli.login(["--scope", "user-library-read", "--scope", "user-top-read"] + common)
            #expect(login.status == 0, "\(login.stderr)")

            let search = try await cli.run(["search", "さくら", "--type", "track", "--json"] + common)
            #expect(search.status == 0, "\(search.stderr)")
            // Links are printed as links: no escaped slashes.
            #expect(search.stdout.contains("https://open.spotify.com/track/") && !search.stdout.contains("\\/"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any])
            let first = try #require((object["tracks"] as? [[String: Any]])?.first)
            #expect(first["name"] as? String == "さくら色の朝")
            #expect(first["preview_url"] is NSNull)
            let uri = try #require(first["uri"] as? String)
            let text = try await cli.run(["search", "ハルカゼ", "--type", "track"] + common)
            #expect(
                text.status == 0 && text.stdout.contains("ハルカゼ") && text.stdout.contains("ひかり · 3:07"), "\(text.stdout)"
            )

            let show = try await cli.run(["track", "show", uri] + common)
            #expect(
                show.status == 0 && show.stdout.contains("さくら色の朝")
                    && show.stdout.contains("Open in Spotify: https://open.spotify.com/track/"))
            #expect(
                try await cli.run(["track", "show", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"] + common).status == 2)

            let me = try await cli.run(["me", "--json"] + common)
            #expect(me.status == 0 && me.stdout.contains("\"account_id\":\"acct-emu-user\""), "\(me.stdout)")
            let saved = try await cli.run(["library", "tracks", "--limit", "5", "--json"] + common)
            #expect(saved.status == 0 && saved.stdout.contains("\"total\":25"), "\(saved.stdout) \(saved.stderr)")
            let top = try await cli.run(["top", "tracks", "--range", "short", "--limit", "3"] + common)
            #expect(
                top.status == 0 && top.stdout.split(separator: "\n").first?.contains("夜明けのうた") == true, "\(top.stdout)")
            let artists = try await cli.run(["top", "artists", "--json"] + common)
            #expect(artists.status == 0 && artists.stdout.contains("j-pop"))

            let open = try await cli.run(["open", "track", uri, "--uri"] + common)
            #expect(open.status == 0 && open.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == uri)
            let openPlaylist = try await cli.run([
                "open", "playlist", "https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n?si=x",
            ])
            #expect(openPlaylist.stdout.contains("https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n"))
            #expect(try await cli.run(["open", "track"] + common).status == 2)

            // Complete JSON: every one of 10,000 entries.
            let archive = try #require(await emulator.playlists().first { $0.name == "Everything Archive" }).id
            let big = try await cli.run(["playlist", "show", archive, "--json"] + common)
            let bigObject = try #require(
                try JSONSerialization.jsonObject(with: Data(big.stdout.utf8)) as? [String: Any])
            #expect((bigObject["entries"] as? [Any])?.count == 10_000)
            // Said before the read, on stderr: what it costs of the quota.
            #expect(big.stderr.contains("Reading all 10000 entries sends 200 requests to Spotify ("), "\(big.stderr)")
        }
    }

    @Test func appOnlySearchUsesTheClientSecretFromTheEnvironment() async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients = [
            .init(id: "learning-tool", redirectURIs: ["http://127.0.0.1/callback"], secret: "SENTINEL_SECRET_x:y")
        ]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            var cli = try SpotLinkBinary()
            let common = ["--emulator", emulator.baseURL.absoluteString, "--client-id", "learning-tool", "--verbose"]
            let missing = try await cli.run(["search", "ともだち", "--type", "track", "--app-only"] + common)
            #expect(missing.status == 2 && missing.stderr.contains("SPOTIFY_CLIENT_SECRET"))
            cli.extraEnvironment["SPOTIFY_CLIENT_SECRET"] = "SENTINEL_SECRET_x:y"
            let found = try await cli.run(["search", "ともだち", "--type", "track", "--app-only"] + common)
            #expect(found.status == 0 && found.stdout.contains("ともだち"), "\(found.stderr)")
            #expect(!(found.stdout + found.stderr).contains("SENTINEL_SECRET"))
            #expect(await emulator.requestCount("POST /api/token") == 1)
        }
    }

    @Test func namesFromSpotifyCannotDriveTheTerminal() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let hostile = "Deep\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31mWork\u{2028}\u{202E}evil\u{2066}"
            await emulator.control("playlists/\(deep)/rename", ["name": hostile])
            #expect(try await cli.run(["session", "new", "S"] + common).status == 0)
            var outputs: [String] = []
            for arguments in [
                ["playlists"], ["playlist", "show", deep], ["session", "attach", "1", deep], ["session", "show", "1"],
            ] {
                let result = try await cli.run(arguments + common)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                outputs += [result.stdout, result.stderr]
            }
            let all = outputs.joined()
            #expect(all.contains("Deep"))
            #expect(!all.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x2028, 0x202E, 0x2066].contains($0.value) })
        }
    }

    @Test func personalDataIsWrittenForItsOwnerAloneWhateverTheUmask() async throws {
        var cli = try SpotLinkBinary()
        cli.umask = "000"
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            #expect(try await cli.run(["playlists"] + common).status == 0)
            #expect(try await cli.run(["session", "new", "S"] + common).status == 0)
            let export = cli.home.appendingPathComponent("links.json")
            #expect(try await cli.run(["export", export.path] + common).status == 0)
            let data = cli.home.appendingPathComponent("data/spotlink")
            for file in [
                data.appendingPathComponent("links.sqlite"), data.appendingPathComponent("spotify-requests.sqlite"),
                cli.home.appendingPathComponent("config/spotlink/settings.json"), export,
            ] {
                let mode = try #require(
                    try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
                #expect(mode == 0o600, "\(file.lastPathComponent): \(String(mode, radix: 8))")
            }
            // Every folder spotlink made on the way, not only the last: `umask 000` gave them 0777.
            for folder in ["data", "data/spotlink", "config", "config/spotlink", "config/spotlink/tokens"] {
                let mode =
                    try FileManager.default.attributesOfItem(
                        atPath: cli.home.appendingPathComponent(folder).path)[.posixPermissions] as? Int
                #expect(mode == 0o700, "\(folder): \(String(mode ?? 0, radix: 8))")
            }
            // A database an earlier version (or a copy) left readable by others is closed again.
            let links = data.appendingPathComponent("links.sqlite")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: links.path)
            #expect(try await cli.run(["session", "list"] + common).status == 0)
            #expect(try FileManager.default.attributesOfItem(atPath: links.path)[.posixPermissions] as? Int == 0o600)
            // A file far larger than any export is refused before it is read.
            let huge = cli.home.appendingPathComponent("huge.json")
            #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
            let handle = try FileHandle(forWritingTo: huge)
            try handle.truncate(atOffset: 65 << 20)
            try handle.close()
            let refused = try await cli.run(["import", huge.path] + common)
            #expect(refused.status == 1 && refused.stderr.contains("too large"))
        }
    }

    @Test func logoutFindsTheTokensWhereverTheyAreAndSaysWhere() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            #expect(try await cli.login(common).status == 0)
            // The settings that named the store are gone: the old logout looked in the default store only.
            try FileManager.default.removeItem(at: cli.home.appendingPathComponent("config/spotlink/settings.json"))
            let logout = try await cli.run(["logout"] + common)
            #expect(logout.status == 0)
            #expect(logout.stdout.contains("removed from the file"), "\(logout.stdout)")
            #expect(logout.stdout.contains("up to an hour"))
            let tokens = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path).filter {
                $0.contains("tokens-") && $0.hasSuffix(".json")
            }
            #expect(tokens.isEmpty, "\(tokens)")
            #expect(try await cli.run(["status"] + common).status == 3)
            let again = try await cli.run(["logout", "--json"] + common)
            #expect(again.stdout.contains("\"removed_from\":[]") && again.stdout.contains("\"forgot_details\":true"))
            let keeping = try await cli.run(["logout", "--keep-details"] + common)
            #expect(keeping.stdout.contains("The saved playlist details stay on this device."), "\(keeping.stdout)")
        }
    }

    /// The case the old logout got wrong: tokens in the keyring, settings gone, and a logout that
    /// looked in the file store only. Needs the keyring daemon CI runs (`.ci/with-keyring`).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil,
            "needs a D-Bus session with a keyring"))
    func logoutEmptiesTheKeyringEvenWhenTheSettingsAreGone() async throws {
        var cli = try SpotLinkBinary()
        cli.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] =
            ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            let login = try await cli.login(["--store", "secret-service"] + common)
            guard login.status == 0 else {
                // Without a usable keyring daemon there is nothing to test; CI has one and requires it.
                #expect(
                    ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_SECRET_SERVICE"] != "1", "\(login.stderr)")
                return
            }
            try FileManager.default.removeItem(at: cli.home.appendingPathComponent("config/spotlink/settings.json"))
            let logout = try await cli.run(["logout"] + common)
            #expect(logout.stdout.contains("removed from the Secret Service"), "\(logout.stdout)")
            // Nothing is left in the keyring: signing in is needed again.
            let again = try await cli.run(["logout", "--json"] + common)
            #expect(again.stdout.contains("\"removed_from\":[]"), "\(again.stdout)")
        }
    }

    @Test func verboseOutputNeverShowsASecret() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString, "--verbose"]
            var outputs: [String] = []
            let login = try await cli.login(common)
            outputs += [login.stdout, login.stderr]
            let playlist = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(playlist)"])
            let export = cli.home.appendingPathComponent("export.json").path
            let commands: [[String]] = [
                ["status"], ["playlists"], ["now-playing"], ["privacy"], ["doctor"], ["search", "focus"],
                ["session", "new", "Focus", "--minutes", "1"],
                ["session", "attach", "1", "spotify:playlist:\(playlist)"],
                ["session", "show", "1"], ["session", "list"], ["open", "1"], ["refresh"],
                ["routine", "1", "--minutes", "0.02"],
                ["export", export], ["import", export], ["playlist", "show", playlist],
            ]
            for arguments in commands {
                let result = try await cli.run(arguments + common)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                outputs += [result.stdout, result.stderr]
            }
            // A refresh at --verbose: the access token is expired on the service, so the next call refreshes.
            await emulator.control("tokens/expire")
            let refreshed = try await cli.run(["playlists"] + common)
            outputs += [refreshed.stdout, refreshed.stderr]
            #expect(refreshed.stderr.contains("spotify token refresh"), "\(refreshed.stderr)")
            #expect(refreshed.stdout.contains("Deep Work"))
            let tokenFiles = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path).filter {
                $0.hasSuffix(".json") && $0.contains("tokens")
            }
            let file = try #require(tokenFiles.first)
            let stored = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: cli.home.appendingPathComponent(file)))
                    as? [String: Any])
            let secrets = [stored["accessToken"] as? String, stored["refreshToken"] as? String].compactMap { $0 }
            #expect(secrets.count == 2)
            #expect(outputs.joined().contains("spotify request"))
            let logout = try await cli.run(["logout"] + common)
            outputs += [logout.stdout, logout.stderr]
            let exported = try String(contentsOfFile: export, encoding: .utf8)
            for output in outputs + [exported] {
                for secret in secrets { #expect(!output.contains(secret)) }
                // Every code, access token and refresh token the emulator ever issued has one of these.
                for prefix in ["EMU_CODE_", "EMU_AT_", "EMU_RT_"] {
                    #expect(!output.contains(prefix), "\(prefix) in: \(output.prefix(200))")
                }
            }
        }
    }

    @Test(arguments: [
        (["session", "show", "99"], Int32(1), "no session"),
        (["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"], 1, "no session"),
        (["session", "attach", "1", "not-a-link"], 2, "not a spotify link"),
        (["frobnicate"], 2, "Unexpected argument"),
        (["emulator", "--shape", "sometimes"], 2, "one of '2026' and 'transition'"),
        (["emulator", "--refresh-rotation", "sometimes"], 2, "one of 'none' and 'rotate'"),
        (["session", "new", "X", "--minutes=-3"], 2, "from 1 to 1440"),
        (["playlists"], 2, "client ID"),
        (
            ["login", "--redirect-uri", "http://localhost:8888/callback", "--emulator", "http://127.0.0.1:9"], 2,
            "127.0.0.1"
        ),
        (["status", "--emulator", "http://127.0.0.1:9"], 3, "spotlink login"),
    ])
    func failureModes(arguments: [String], status: Int32, message: String) async throws {
        let result = try await SpotLinkBinary().run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.lowercased().contains(message.lowercased()), "\(result.stderr)")
    }

    @Test func badLinkIsAUsageError() async throws {
        let cli = try SpotLinkBinary()
        #expect(try await cli.run(["session", "new", "X"]).status == 0)
        let result = try await cli.run(["session", "attach", "1", "https://example.com/playlist/x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a Spotify link"))
    }

    /// A usage mistake is found by the parser's validation, before any work: exit 2, the reason and
    /// the usage, and no data folder made.
    @Test(arguments: [
        (["session", "attach", "1", "https://example.com/playlist/x"], "not a Spotify link"),
        (["session", "attach", "1"], "or use --pick"),
        (["session", "new", "  "], "needs a title"),
        (["session", "new", "Focus", "--minutes", "0"], "from 1 to 1440"),
        (["open", "track"], "Give the track to open"),
        (["open", "1", "spotify:track:4uLU6hMCjMI75M1A2tKUQC"], "followed by a link"),
        (["routine", "1", "--minutes=-5"], "more than 0 and at most 1440"),
        (["--emulator", "ftp://127.0.0.1", "status"], "needs a URL"),
    ])
    func usageErrorsStopBeforeAnyWork(_ arguments: [String], _ reason: String) async throws {
        let cli = try SpotLinkBinary()
        let folder = cli.home.appendingPathComponent("untouched")
        let result = try await cli.run(arguments + ["--data-dir", folder.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(reason) && result.stderr.contains("Usage:"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// Global options work before the subcommand as well as after it.
    @Test func globalOptionsWorkBeforeTheSubcommandToo() async throws {
        let cli = try SpotLinkBinary()
        let folder = cli.home.appendingPathComponent("elsewhere").path
        let before = try await cli.run(["--data-dir", folder, "--json", "privacy"])
        let after = try await cli.run(["privacy", "--data-dir", folder, "--json"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == after.stdout && before.stdout.contains(folder))
        let equals = try await cli.run(["--data-dir=\(folder)", "--json", "privacy"])
        #expect(equals.stdout == after.stdout, "\(equals.stderr)")
        // Not signed in (exit 3), not a usage error (exit 2, "Unknown option '--emulator'").
        let playlists = try await cli.run(["--emulator", "http://127.0.0.1:9", "playlists"])
        #expect(playlists.status == 3, "\(playlists.stderr)")
        #expect(!playlists.stderr.contains("Unknown option"))
        #expect(try await cli.run(["--emulator", "http://127.0.0.1:9"]).status == 2)
    }

    /// Export, attach another playlist, import the export: the newer link stays and the summary says
    /// so; `--replace` takes the file's and says that.
    @Test func anImportNeverSilentlyReplacesANewerLink() async throws {
        let cli = try SpotLinkBinary()
        let data = ["--data-dir", cli.home.appendingPathComponent("data").path]
        let export = cli.home.appendingPathComponent("links.json").path
        #expect(try await cli.run(["session", "new", "Focus"] + data).status == 0)
        #expect(
            try await cli.run(["session", "attach", "1", "spotify:playlist:3cEYpjA9oz9GiPac4AsH4n"] + data).status == 0)
        #expect(try await cli.run(["export", export] + data).status == 0)
        #expect(
            try await cli.run(["session", "attach", "1", "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M"] + data).status == 0)

        let kept = try await cli.run(["import", export] + data)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout.contains("0 replaced") && kept.stdout.contains("1 kept"), "\(kept.stdout)")
        #expect(kept.stdout.contains("session/1: kept this device's newer link"), "\(kept.stdout)")
        #expect(kept.stdout.contains("--replace"))
        #expect(try await linkedPlaylist() == "37i9dQZF1DXcBWIGoYBM5M")

        let replaced = try await cli.run(["import", export, "--replace", "--json"] + data)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(
            replaced.stdout.contains("\"replaced\":1") && replaced.stdout.contains("\"kept\":[]"), "\(replaced.stdout)")
        #expect(try await linkedPlaylist() == "3cEYpjA9oz9GiPac4AsH4n")

        /// Session 1's playlist, as a fresh export says.
        func linkedPlaylist() async throws -> String? {
            let file = cli.home.appendingPathComponent("now-\(UUID().uuidString).json")
            #expect(try await cli.run(["export", file.path] + data).status == 0)
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            let links = (object?["links"] as? [String: Any])?["links"] as? [[String: Any]]
            return links?.first?["playlist"] as? String
        }
    }

    /// As the XDG Base Directory rules say: an empty variable means the default, and a relative
    /// path is invalid and ignored. Tokens and databases never land in the working directory (which
    /// may be a git checkout).
    @Test(arguments: [("", ""), ("relative/data", "relative/config"), ("", "config"), (".", ".")])
    func emptyOrRelativeXDGFoldersMeanTheDefaultsNeverTheWorkingDirectory(data: String, config: String) async throws {
        var cli = try SpotLinkBinary()
        let workingDirectory = cli.home.appendingPathComponent("checkout")
        try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
        cli.workingDirectory = workingDirectory
        cli.extraEnvironment = ["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config]
        try await withEmulator { (emulator: EmulatorServer) async throws in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            let login = try await cli.login(common)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(try await cli.run(["session", "new", "Focus"] + common).status == 0)
        }
        // A coverage build's child leaves its profile (default.profraw) where it ran: not spotlink's.
        let left = try FileManager.default.contentsOfDirectory(atPath: workingDirectory.path)
        #expect(left.filter { !$0.hasSuffix(".profraw") }.isEmpty, "\(left)")
        let home = cli.home.standardizedFileURL.path
        let made = try FileManager.default.subpathsOfDirectory(atPath: cli.home.path).filter {
            $0.hasSuffix("tokens") || $0.hasSuffix(".sqlite")
        }
        #expect(
            Set(made).isSuperset(of: [".config/spotlink/tokens", ".local/share/spotlink/links.sqlite"]),
            "under \(home): \(made)")
        #expect(made.allSatisfy { $0.hasPrefix(".config/") || $0.hasPrefix(".local/") }, "\(made)")
    }

    @Test func versionAndPrivacy() async throws {
        let version = try await SpotLinkBinary().run(["--version"])
        #expect(version.status == 0 && version.stdout.contains("0.1.0"))
        let privacy = try await SpotLinkBinary().run(["privacy", "--json"])
        #expect(privacy.status == 0)
        #expect(privacy.stdout.contains("playlist-read-private"))
    }
}

@Suite("spotlink and the secret stores (checklist row 33)", .serialized)
struct SecretStoreChoiceTests {
    static let sessionBus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]

    @Test func withoutAKeyringLoginStopsBeforeTheBrowserAndOffersTheFileStore() async throws {
        var cli = try SpotLinkBinary()
        cli.extraEnvironment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/spotlink-test-bus"]
        try await withEmulator { emulator in
            let result = try await cli.run(["login", "--no-browser", "--emulator", emulator.baseURL.absoluteString])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("Secret Service store"))
            #expect(result.stderr.contains("--store file"))
            #expect(!result.stderr.contains("Open this URL"))
            // Nothing was written anywhere instead: no silent fallback to a file.
            let tokens = cli.home.appendingPathComponent("config/spotlink/tokens")
            #expect(!FileManager.default.fileExists(atPath: tokens.path))
            #expect(await emulator.requestCount("POST /api/token") == 0)
        }
    }

    static let keyringTools =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-run-session")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-keyring-daemon")

    /// Row 33's locked keyring, for real: a private D-Bus session whose GNOME Keyring is created,
    /// unlocked, then locked over D-Bus, with no display for a password prompt. Reading finds
    /// nothing there (no error), so login probes with a write and stops before the browser.
    @Test(
        .enabled(
            if: keyringTools || ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_SECRET_SERVICE"] == "1",
            "needs dbus-run-session and gnome-keyring-daemon (apt-get install dbus-x11 gnome-keyring)"))
    func aLockedKeyringStopsLoginBeforeTheBrowserAndSaysWhy() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { emulator in
            let keyring = cli.home.appendingPathComponent("keyring")
            let script = """
                export HOME='\(keyring.path)' XDG_DATA_HOME='\(keyring.path)/data'
                printf unlock-me | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
                dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \\
                  org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
                export HOME='\(cli.home.path)' XDG_DATA_HOME='\(cli.home.path)/data' XDG_CONFIG_HOME='\(cli.home.path)/config'
                status=0
                '\(builtExecutable(named: "spotlink").path)' login --store secret-service --no-browser \\
                  --emulator '\(emulator.baseURL.absoluteString)' --client-id spotlink-demo 2>'\(cli.home.path)/stderr.txt' || status=$?
                # The keyring daemon this session started (by D-Bus activation too) ends with it.
                for pid in $(pgrep -x gnome-keyring-d); do
                  grep -qz "$DBUS_SESSION_BUS_ADDRESS" /proc/$pid/environ 2>/dev/null && kill $pid
                done
                exit $status
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
            process.arguments = ["--", "/bin/sh", "-c", script]
            process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
            // Files, not pipes: the keyring daemon outlives the command and would hold a pipe open.
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in continuation.resume() }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            let stderr = (try? String(contentsOf: cli.home.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 1, "\(stderr)")
            #expect(stderr.contains("Secret Service store cannot be used") && stderr.contains("locked"), "\(stderr)")
            #expect(stderr.contains("--store file"))
            #expect(
                !stderr.contains("Open this URL"), "the browser step began on a keyring that cannot keep the tokens")
            #expect(await emulator.requestCount("POST /api/token") == 0)
        }
    }

    @Test(
        .enabled(
            if: sessionBus != nil || ProcessInfo.processInfo.environment["SPOTLINK_REQUIRE_SECRET_SERVICE"] == "1",
            "no D-Bus session: run inside dbus-run-session with an unlocked gnome-keyring-daemon, as .ci/run does"))
    func loginKeepsTokensInTheKeyringAndSaysSo() async throws {
        var cli = try SpotLinkBinary()
        cli.extraEnvironment = ["DBUS_SESSION_BUS_ADDRESS": try #require(Self.sessionBus)]
        try await withEmulator { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            let login = try await cli.login(["--store", "secret-service"] + common)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Secret Service"))
            let status = try await cli.run(["status", "--json"] + common)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("Secret Service"))
            #expect(
                !FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("config/spotlink/tokens").path))
            #expect(try await cli.run(["logout"] + common).status == 0)
            #expect(try await cli.run(["status"] + common).status == 3)
        }
    }
}

@Suite("spotlink processes sharing one sign-in (checklist row 26)", .serialized)
struct TwoProcessTests {
    @Test(arguments: [EmulatorConfiguration.RefreshRotation.none, .rotate])
    func twoProcessesRefreshOnceBetweenThem(rotation: EmulatorConfiguration.RefreshRotation) async throws {
        let cli = try SpotLinkBinary()
        var configuration = EmulatorConfiguration()
        configuration.refreshRotation = rotation
        try await withEmulator(configuration) { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            let login = try await cli.login(common)
            #expect(login.status == 0)
            // The access token expires on the emulator's side; both processes meet a 401 at once.
            await emulator.advanceClock(by: .seconds(3601))
            async let first = cli.run(["playlists", "--json"] + common)
            async let second = cli.run(["status", "--json"] + common)
            let results = try await [first, second]
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            #expect(await emulator.requestCount("POST /api/token", status: 200) == 2)
            #expect(await emulator.requestCount("POST /api/token", status: 400) == 0)
            // Both keep working afterwards: nothing was revoked by a racing refresh.
            #expect(try await cli.run(["status"] + common).status == 0)
        }
    }
}

/// A data folder (0700) in `cli`'s home holding a copy of the database the version before
/// `PlaylistLinkStore` wrote (Tests/Fixtures/README.md).
private func earlierDataFolder(in cli: SpotLinkBinary, named name: String) throws -> URL {
    let data = cli.home.appendingPathComponent(name)
    try FileManager.default.createDirectory(
        at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/spotlink-fe0207e.sqlite")
    try FileManager.default.copyItem(at: fixture, to: data.appendingPathComponent("spotlink.sqlite"))
    return data
}

@Suite("spotlink commands, the rest", .serialized)
struct MoreCommandTests {
    /// The journal and the links of a data folder written by the version before the storage moved
    /// behind `PlaylistLinkStore` (Tests/Fixtures/README.md): every session and card is still there.
    @Test func aDataFolderOfTheEarlierVersionOpensWithEverySessionAndCard() async throws {
        let cli = try SpotLinkBinary()
        let data = try earlierDataFolder(in: cli, named: "earlier")
        let common = ["--data-dir", data.path]

        let list = try await cli.run(["session", "list"] + common)
        #expect(list.status == 0, "\(list.stderr)")
        for line in [
            "1  Morning routine  20 min  ♫ Morning Focus", "2  Evening wind-down  15 min  ♫ 37i9dQZF1DXcBWIGoYBM5M",
            "3  Unlinked",
        ] {
            #expect(list.stdout.contains(line), "missing: \(line)\n\(list.stdout)")
        }
        let show = try await cli.run(["session", "show", "1"] + common)
        #expect(
            show.stdout.contains("49 tracks · 2 h 50 min") && show.stdout.contains("cover: 11786 bytes cached"),
            "\(show.stdout)")
        #expect(try await cli.run(["session", "new", "After the move"] + common).stdout.contains("Created session 4"))
        // The doctor finds the file sound (it also reports no client ID and no network here).
        #expect(try await cli.run(["doctor"] + common).stdout.contains("✓ database: integrity ok"))
    }

    /// The journal and the links share the file's one writer, so deleting a session and its link is
    /// one transaction: when the session's row cannot go, the link stays too.
    @Test func aSessionDeleteThatFailsLeavesItsLink() async throws {
        let cli = try SpotLinkBinary()
        let data = try earlierDataFolder(in: cli, named: "refusing")
        let common = ["--data-dir", data.path]
        #expect(try await cli.run(["session", "list"] + common).status == 0)
        // The first command moved the earlier version's spotlink.sqlite to the app's name.
        let file = data.appendingPathComponent("links.sqlite")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("spotlink.sqlite").path))
        try await DatabaseQueue(path: file.path).write { db in
            try db.execute(
                sql: "CREATE TRIGGER refuse BEFORE DELETE ON session BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        let delete = try await cli.run(["session", "delete", "1"] + common)
        #expect(delete.status != 0)
        #expect(delete.stderr.contains("refused"), "\(delete.stderr)")
        let show = try await cli.run(["session", "show", "1"] + common)
        #expect(show.stdout.contains("Morning Focus"), "\(show.stdout)")
    }

    @Test func openRefreshDetachDeleteDoctorAndNowPlaying() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            _ = try await cli.login(common)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            #expect(try await cli.run(["session", "new", "A"] + common).status == 0)
            #expect(try await cli.run(["session", "attach", "1", deep] + common).status == 0)

            let open = try await cli.run(["open", "1", "--uri", "--json"] + common)
            #expect(open.status == 0)
            let opened = try #require(try JSONSerialization.jsonObject(with: Data(open.stdout.utf8)) as? [String: Any])
            #expect(opened["url"] as? String == "spotify:playlist:\(deep)")
            #expect(
                opened["urls"] as? [String] == [
                    "spotify:playlist:\(deep)", "https://open.spotify.com/playlist/\(deep)",
                ])
            #expect(opened["label"] as? String == "openSpotify")

            await emulator.control("playlists/\(deep)/rename", ["name": "Deep Work II"])
            let refresh = try await cli.run(["refresh", "--json"] + common)
            #expect(refresh.status == 0 && refresh.stdout.contains("\"refreshed\":1"))
            #expect(try await cli.run(["session", "list"] + common).stdout.contains("Deep Work II"))

            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            let playing = try await cli.run(["now-playing", "--json"] + common)
            #expect(playing.status == 0 && playing.stdout.contains("\"state\":\"playing\""))
            await emulator.control("player/stop")
            #expect(try await cli.run(["now-playing"] + common).stdout.contains("Nothing is playing"))

            let doctor = try await cli.run(["doctor", "--json"] + common)
            #expect(doctor.status == 0, "\(doctor.stdout)")
            let badRedirect = try await cli.run(
                ["doctor", "--redirect-uri", "http://localhost:8888/callback"] + common)
            #expect(badRedirect.status == 1)
            #expect(badRedirect.stdout.contains("http://127.0.0.1:8888/callback"))

            #expect(try await cli.run(["session", "detach", "1"] + common).stdout.contains("Detached"))
            #expect(try await cli.run(["session", "show", "1"] + common).stdout.contains("No playlist attached"))
            #expect(try await cli.run(["session", "delete", "1"] + common).status == 0)
            #expect(try await cli.run(["session", "show", "1"] + common).status == 1)
        }
    }
}

@Suite("spotlink routine, picker and emulator", .serialized)
struct InteractiveCommandTests {
    /// A routine shorter than Spotify's first answer waits for that answer instead of reporting
    /// "no music" it never asked about (under ThreadSanitizer on a loaded machine, a 3 s routine
    /// ended before its first poll came back).
    @Test func aRoutineShorterThanTheFirstAnswerWaitsForIt() async throws {
        let cli = try SpotLinkBinary()
        var configuration = EmulatorConfiguration()
        configuration.latency = .milliseconds(1500)
        try await withEmulator(configuration) { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            _ = try await cli.login(common)
            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            #expect(try await cli.run(["session", "new", "Run", "--minutes", "20"] + common).status == 0)
            #expect(try await cli.run(["session", "attach", "1", "spotify:playlist:\(deep)"] + common).status == 0)
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            // 0.6 s of routine; every answer takes 1.5 s.
            let routine = try await cli.run(["routine", "1", "--minutes", "0.01", "--polling", "economical"] + common)
            #expect(routine.status == 0, "\(routine.stderr)")
            #expect(routine.stdout.contains("▶"), "\(routine.stdout)")
            #expect(!routine.stdout.contains("No music was playing"))
        }
    }

    @Test func pickerRoutineAndSummary() async throws {
        let cli = try SpotLinkBinary()
        try await withEmulator { emulator in
            let common = ["--emulator", emulator.baseURL.absoluteString]
            _ = try await cli.login(common)
            #expect(try await cli.run(["playlists"] + common).status == 0)
            #expect(try await cli.run(["session", "new", "Run", "--minutes", "20"] + common).status == 0)
            // Type a filter, then pick the first match.
            let pick = try await cli.run(["session", "attach", "1", "--pick"] + common, input: "deep\n1\n")
            #expect(pick.status == 0, "\(pick.stderr)")
            #expect(pick.stdout.contains("Deep Work"))

            let deep = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            await emulator.control("player/play", ["context_uri": "spotify:playlist:\(deep)"])
            let routine = try await cli.run(["routine", "1", "--minutes", "0.05", "--polling", "economical"] + common)
            #expect(routine.status == 0, "\(routine.stderr)")
            #expect(routine.stdout.contains("open.spotify.com/playlist/\(deep)"))
            #expect(routine.stdout.contains("▶"))
            #expect(routine.stdout.contains("You got through"))
            await emulator.control("player/stop")
            let silent = try await cli.run(["routine", "1", "--minutes", "0.02"] + common)
            #expect(silent.stdout.contains("No music was playing"))
        }
    }

    @Test func emulatorCommandPrintsItsURLAndControlTokenAndStopsOnSIGTERM() async throws {
        let process = Process()
        process.executableURL = builtExecutable(named: "spotlink")
        process.arguments = ["emulator", "--port", "0", "--auto-approve"]
        let out = Pipe()
        process.standardOutput = out
        let chunks = AsyncStream.makeStream(of: String.self)
        out.fileHandleForReading.readabilityHandler = { handle in
            chunks.continuation.yield(String(decoding: handle.availableData, as: UTF8.self))
        }
        let exited = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        var text = ""
        for await chunk in chunks.stream {
            text += chunk
            if text.filter({ $0 == "\n" }).count >= 2 || chunk.isEmpty { break }
        }
        out.fileHandleForReading.readabilityHandler = nil
        defer { try? out.fileHandleForReading.close() }
        let lines = text.split(separator: "\n").map(String.init)
        try #require(lines.count >= 2, "the emulator printed \(text.debugDescription)")
        #expect(lines[0].hasPrefix("listening on http://127.0.0.1:"))
        #expect(lines[1].hasPrefix("control token: EMU_CONTROL_"))
        let url = try #require(URL(string: String(lines[0].dropFirst("listening on ".count))))
        let token = String(lines[1].dropFirst("control token: ".count))
        let stats = url.appendingPathComponent("emulator/stats")
        #expect(try await TestHTTP().send(.get, stats).status == 401)
        #expect(try await TestHTTP().send(.get, stats, headers: ["Authorization": "Bearer \(token)"]).status == 200)
        kill(process.processIdentifier, SIGTERM)
        var codes = exited.stream.makeAsyncIterator()
        #expect(await codes.next() == 0)
    }
}
