import Foundation
import SpotifyEmulator
import SpotifyTesting
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

#if canImport(Glibc)
    import Glibc
#endif
// `stat` is declared again where swift-crypto brings CoreFoundation in (the signed-out search's HMAC).
#if canImport(CoreFoundation)
    import CoreFoundation
#endif

func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("spotlink-tests-\(UUID().uuidString)")
}

func mode(_ url: URL) -> Int {
    var info = stat()
    stat(url.path, &info)
    return Int(info.st_mode & 0o777)
}

/// A 64 KiB tmpfs mounted for one test, to fill up or make read-only (root only).
struct SmallFilesystem {
    let root: URL

    static let available: Bool = {
        guard geteuid() == 0, let probe = try? SmallFilesystem() else { return false }
        probe.unmount()
        return true
    }()

    init() throws {
        root = temporaryDirectory()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", root.path]) else {
            throw HarnessFailure("could not mount a tmpfs on \(root.path)")
        }
    }

    /// Writes until the filesystem has no space left.
    func fill() {
        let fd = open(root.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o600)
        let chunk = [UInt8](repeating: 0, count: 4096)
        while write(fd, chunk, chunk.count) > 0 {}
        close(fd)
    }

    func remountReadOnly() throws {
        guard Self.run("/bin/mount", ["-o", "remount,ro", root.path]) else {
            throw HarnessFailure("could not remount read-only")
        }
    }

    func unmount() {
        _ = Self.run("/bin/umount", [root.path])
        try? FileManager.default.removeItem(at: root)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

struct HarnessFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Two sessions on two store instances over the same storage, holding an expired token: the
/// first refreshes; the second, told its token failed, finds the new one and makes no request.
func expectSecondSessionReusesTheRefresh(first: any TokenStore, second: any TokenStore, clock: VirtualClock)
    async throws
{
    let firstSession = session(
        ScriptedTransport([.json(#"{"access_token":"SENTINEL_AT_new","expires_in":3600}"#)]), store: first, clock: clock
    )
    let secondTransport = ScriptedTransport([])
    let secondSession = session(secondTransport, store: second, clock: clock)
    #expect(try await firstSession.accessToken().unredactedValue == "SENTINEL_AT_new")
    #expect(
        try await secondSession.refreshedAccessToken(replacing: AccessToken("SENTINEL_AT_old")).unredactedValue
            == "SENTINEL_AT_new")
    #expect(secondTransport.requests.isEmpty)
}

@Suite("File token store (checklist rows 26, 27, 31–34)", .serialized)
struct FileTokenStoreTests {
    let clock = VirtualClock()

    @Test func firstWriteUnderUmask000Is0600In0700() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root.appendingPathComponent("tokens"))
        let previous = umask(0)
        defer { umask(previous) }
        try await store.save(storedTokens(clock: clock), for: testKey)
        #expect(mode(store.directory) == 0o700)
        #expect(mode(store.fileURL(testKey)) == 0o600)
        await #expect(try store.load(testKey) == storedTokens(clock: clock))
    }

    @Test func aWorldReadableFileIsRefused() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        chmod(store.fileURL(testKey).path, 0o644)
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .insecure
        }
    }

    @Test func aSymlinkIsNeverFollowed() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        let target = root.appendingPathComponent("elsewhere.json")
        try FileManager.default.moveItem(at: store.fileURL(testKey), to: target)
        try FileManager.default.createSymbolicLink(at: store.fileURL(testKey), withDestinationURL: target)
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .insecure
        }
        // Saving replaces the link itself; the file it pointed at is untouched.
        let before = try Data(contentsOf: target)
        try await store.save(storedTokens(access: "SENTINEL_AT_new", clock: clock), for: testKey)
        #expect(try Data(contentsOf: target) == before)
    }

    @Test func aSymlinkedFolderIsRefused() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("link"), withDestinationURL: root.appendingPathComponent("real"))
        let store = FileTokenStore(directory: root.appendingPathComponent("link"))
        await #expect(throws: TokenStoreError.self) { try await store.save(storedTokens(clock: clock), for: testKey) }
    }

    /// The folder check on its own: a private regular file where the folder should be passes the
    /// owner and permission checks, and only "is a folder" refuses it.
    @Test func aFileInPlaceOfTheTokenFolderIsRefused() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let notAFolder = root.appendingPathComponent("tokens")
        try Data("x".utf8).write(to: notAFolder)
        chmod(notAFolder.path, 0o600)
        await #expect {
            try await FileTokenStore(directory: notAFolder).save(storedTokens(clock: clock), for: testKey)
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.code == .insecure && error?.message.contains("is not a folder") == true
        }
    }

    @Test(arguments: ["", "{not json", #"{"version":99,"accessToken":"x"}"#, "\u{0}\u{1}"])
    func corruptEmptyOrFutureStoresAreMovedAside(contents: String) async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        let url = store.fileURL(testKey)
        try Data(contents.utf8).write(to: url)
        chmod(url.path, 0o600)
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            guard let error = error as? TokenStoreError else { return false }
            return error.code == .corrupt && error.message.contains("sign in again")
                && !error.message.contains(contents.isEmpty ? "\u{7}" : contents)
        }
        await #expect(try store.load(testKey) == nil)
        let aside = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains("corrupt") }
        #expect(aside.count == 1)
    }

    @Test func twoCorruptFilesInOneSecondAreBothKeptAside() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        let url = store.fileURL(testKey)
        for contents in ["first broken", "second broken"] {
            try Data(contents.utf8).write(to: url)
            chmod(url.path, 0o600)
            await #expect(throws: TokenStoreError.self) { try await store.load(testKey) }
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains("corrupt") }
        #expect(aside.count == 2)
        let kept = try Set(aside.map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) })
        #expect(kept == ["first broken", "second broken"])
    }

    @Test func sessionTreatsACorruptStoreAsNeedingSignIn() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        try Data("garbage".utf8).write(to: store.fileURL(testKey))
        let subject = session(ScriptedTransport([]), store: store, clock: clock)
        await #expect(throws: OAuthError.self) { try await subject.accessToken() }
        guard case .needsSignIn = await subject.status else { Issue.record("status"); return }
    }

    @Test func aProcessKilledWhileSavingLeavesTheOldOrTheNewTokensWhole() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = SpotifyAppKey(issuer: "http://127.0.0.1:1", clientID: "crash-test")
        var generator = SeededGenerator(seed: 27)
        var lastReported = -1
        var kills = 0
        for _ in 0..<40 {
            let process = Process()
            process.executableURL = builtExecutable(named: "TokenCrashChild")
            process.arguments = [root.path, "\(lastReported + 1)", "\(Int.random(in: 0...3_000, using: &generator))"]
            let output = Pipe()
            process.standardOutput = output
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in continuation.resume() }
                do { try process.run() } catch { continuation.resume(throwing: error) }
            }
            #expect(process.terminationReason == .uncaughtSignal)
            kills += 1
            let saved = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").compactMap { Int($0.dropFirst("saved ".count)) }
            try output.fileHandleForReading.close()  // a Process ended through its handler keeps it open
            // Whatever moment the kill came, the file holds whole tokens: the last save reported,
            // or the one after it that completed before its report was written.
            let stored = try await #require(
                try FileTokenStore(directory: root).load(key),
                "tokens vanished after save \(saved.last ?? lastReported)")
            let number = try #require(Int(stored.accessToken.unredactedValue.dropFirst("SENTINEL_AT_".count)))
            #expect(number >= (saved.last ?? lastReported) && number > lastReported)
            #expect(stored.refreshToken?.unredactedValue == "SENTINEL_RT_\(number)")
            lastReported = number
        }
        #expect(kills == 40)
    }

    @Test func aWriteCutShortLeavesTheOldFileWhole() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        let original = storedTokens(clock: clock)
        try await store.save(original, for: testKey)
        // What a process killed mid-write leaves: a half-written temporary file beside the real one.
        let partial = root.appendingPathComponent(".tokens-\(UUID().uuidString).tmp")
        try Data(#"{"accessToken":"SENTINEL_AT_half"#.utf8).write(to: partial)
        await #expect(try store.load(testKey) == original)
        let replacement = storedTokens(access: "SENTINEL_AT_new", clock: clock)
        try await store.save(replacement, for: testKey)
        await #expect(try store.load(testKey) == replacement)
    }

    @Test(.enabled(if: SmallFilesystem.available, "needs root to mount a small tmpfs"), arguments: [false, true])
    func aFullOrReadOnlyDiskKeepsTheOldFile(readOnly: Bool) async throws {
        let filesystem = try SmallFilesystem()
        defer { filesystem.unmount() }
        let store = FileTokenStore(directory: filesystem.root.appendingPathComponent("tokens"))
        let original = storedTokens(clock: clock)
        try await store.save(original, for: testKey)
        if readOnly { try filesystem.remountReadOnly() } else { filesystem.fill() }
        await #expect {
            try await store.save(
                storedTokens(
                    access: "SENTINEL_AT_new", refresh: "SENTINEL_RT_\(String(repeating: "x", count: 8192))",
                    clock: clock), for: testKey)
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.code == .io && error?.message.contains("SENTINEL") == false
        }
        await #expect(try store.load(testKey) == original)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.directory.path).allSatisfy {
                !$0.hasSuffix(".tmp")
            })
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only folders"))
    func aFailedWriteKeepsTheOldFileAndLeavesNoTemporaryFile() async throws {
        let root = temporaryDirectory()
        defer {
            chmod(root.path, 0o700)
            try? FileManager.default.removeItem(at: root)
        }
        let store = FileTokenStore(directory: root)
        let original = storedTokens(clock: clock)
        try await store.save(original, for: testKey)
        chmod(root.path, 0o500)
        await #expect(throws: TokenStoreError.self) {
            try await store.save(storedTokens(access: "SENTINEL_AT_new", clock: clock), for: testKey)
        }
        chmod(root.path, 0o700)
        await #expect(try store.load(testKey) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func aSecondSessionReusesTheTokenTheFirstRefreshed() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(expiresIn: -1, clock: clock), for: testKey)
        try await expectSecondSessionReusesTheRefresh(
            first: store, second: FileTokenStore(directory: root), clock: clock)
    }

    @Test func keysKeepIssuersApart() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileTokenStore(directory: root)
        try await store.save(storedTokens(clock: clock), for: testKey)
        await #expect(
            try store.load(SpotifyAppKey(issuer: AuthorizationServer.live.issuer, clientID: "spotlink-demo")) == nil)
        await #expect(try store.load(SpotifyAppKey(issuer: testKey.issuer, clientID: "other")) == nil)
    }
}
