import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

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
