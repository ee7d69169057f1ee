import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyAuth
import SpotifyEmulator
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

/// `SpotifyLink` is made on the main actor as the app launches: making it touches no disk, the
/// databases open at their first use off the main actor, a folder that cannot be opened shows as a
/// state, and an App Group puts everything an app and its widget share in the group's container.
@MainActor
@Suite("Launching: no disk on the main actor, failures as state, the App Group")
struct LaunchTests {
    /// The data protection and backup calls, as the platform would get them, with whether each
    /// came on the main thread.
    final class FileCalls: Sendable {
        struct Call: Sendable, Equatable {
            let action: String
            let path: String
            let onMainQueue: Bool
        }
        private let calls = Lock<[Call]>([])

        var recorded: [Call] { calls.withLock { $0 } }

        var protection: FileProtection {
            FileProtection(
                protect: { url in self.record("protect", url) },
                excludeFromBackup: { url in self.record("exclude", url) })
        }

        /// Marks the main queue, the main actor's executor, so a call can tell it runs there (on
        /// Linux the main actor's jobs do not always run on the main thread).
        static let mainQueue: DispatchSpecificKey<Bool> = {
            let key = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: key, value: true)
            return key
        }()

        private func record(_ action: String, _ url: URL) {
            let onMain = DispatchQueue.getSpecific(key: Self.mainQueue) == true
            let call = Call(action: action, path: url.standardizedFileURL.path, onMainQueue: onMain)
            calls.withLock { $0.append(call) }
        }

        func paths(_ action: String) -> Set<String> { Set(recorded.filter { $0.action == action }.map(\.path)) }
    }

    nonisolated static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("launch-\(UUID().uuidString)")
            .standardizedFileURL
    }

    func configuration(folder: URL, calls: FileCalls) -> SpotifyLink.Configuration {
        var configuration = SpotifyLink.Configuration(
            clientID: "spotlink-demo", redirectURI: "myapp://spotify-callback",
            server: .emulator(url: URL(string: "http://127.0.0.1:9")!))
        configuration.folder = folder
        configuration.tokenStore = MemoryTokenStore()
        configuration.clock = VirtualClock()
        configuration.protection = calls.protection
        return configuration
    }

    @Test func makingItTouchesNoDiskAndTheFirstReadsOpenTheDatabasesOffTheMainActor() async throws {
        _ = FileCalls.mainQueue
        #expect(
            DispatchQueue.getSpecific(key: FileCalls.mainQueue) == true, "the main actor must run on the main queue")
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let calls = FileCalls()

        let spotify = SpotifyLink(configuration(folder: folder, calls: calls))
        #expect(!FileManager.default.fileExists(atPath: folder.path), "making SpotifyLink created the data folder")
        #expect(calls.recorded.isEmpty)

        let card = spotify.card(for: RecordID(namespace: "session", id: "1"))
        await card.load()
        #expect(card.note == nil)
        _ = try await spotify.ledger.usage(at: Date())

        let links = folder.appendingPathComponent("links.sqlite").path
        let ledger = folder.appendingPathComponent("spotify-requests.sqlite").path
        for file in [links, ledger, folder.appendingPathComponent(".spotifylink-installed").path] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) was not made at the first use")
        }
        #expect(!calls.recorded.isEmpty)
        #expect(calls.recorded.filter(\.onMainQueue).isEmpty, "disk work on the main actor: \(calls.recorded)")
        // The folder and both databases get the protection class; the ledger (and its WAL and
        // shared-memory files) stay out of backups, the links (the app's data) do not.
        #expect(calls.paths("protect").isSuperset(of: [folder.path, links, ledger]))
        #expect(calls.paths("exclude") == [ledger, ledger + "-wal", ledger + "-shm"])
    }

    @Test func aFolderThatCannotBeOpenedShowsAsTheCardsStateAndTheNextUseTriesAgain() async throws {
        let parent = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        // A file where the data folder's parent should be: nothing can be made under it.
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let blocker = parent.appendingPathComponent("Application Support")
        #expect(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
        let spotify = SpotifyLink(
            configuration(folder: blocker.appendingPathComponent("SpotifyLink"), calls: FileCalls()))

        let record = RecordID(namespace: "session", id: "1")
        let card = spotify.card(for: record)
        await card.load()
        #expect(card.note == .storageUnavailable)
        #expect(spotify.text(card.note!).contains("Free up some space"))
        // The ledger says so in its own layer's error, with the storage's words.
        let failure = await #expect(throws: SpotifyAPIError.self) { try await spotify.ledger.usage(at: Date()) }
        #expect(failure?.code == .ledgerUnavailable)
        #expect(failure?.message.contains("could not be opened") == true, "\(failure?.message ?? "")")
        #expect(SpotifyMessage(try #require(failure)) == .storageUnavailable)

        // The disk is fixed: the same SpotifyLink opens the folder at the next use.
        try FileManager.default.removeItem(at: blocker)
        try await spotify.links.link(record, to: try SpotifyID("37i9dQZF1DX8NTLI2TtZa6"))
        await card.load()
        // No one has connected: connecting is what shows the details.
        #expect(card.note == .playlistDetailsNeedConnection)
        #expect(try card.card?.metadata.id == SpotifyID("37i9dQZF1DX8NTLI2TtZa6"))
    }

    @Test func anAppGroupPutsTheFolderAndTheLockSubfolderInItsContainer() throws {
        let data = Self.temporaryFolder()
        let configuration = SpotifyLink.Configuration(
            clientID: "spotlink-demo", redirectURI: "myapp://spotify-callback", appGroup: "group.dev.example.journal",
            environment: ["XDG_DATA_HOME": data.path])
        let container = data.appendingPathComponent("group.dev.example.journal")
        #expect(configuration.appGroup == "group.dev.example.journal")
        #expect(configuration.folder.path == container.appendingPathComponent("SpotifyLink").path)
        let store = try #require(configuration.tokenStore as? SecretServiceTokenStore)
        // The lock is a subfolder the package makes (0700), never the container root.
        #expect(store.lockDirectory?.path == container.appendingPathComponent("SpotifyLink/locks").path)

        let alone = SpotifyLink.Configuration(
            clientID: "spotlink-demo", redirectURI: "myapp://spotify-callback", appGroup: nil,
            environment: ["XDG_DATA_HOME": data.path])
        #expect(alone.appGroup == nil)
        #expect(alone.folder.path == data.appendingPathComponent("SpotifyLink").path)
    }
}

/// An app and its widget are two processes: with one App Group they spend one daily budget.
@Suite("Launching: an app and its widget in one App Group")
struct AppGroupProcessTests {
    /// Two processes, each trying twice the device's background budget of 4 at once, get 4
    /// answers between them, not 8.
    @Test func twoProcessesOfOneAppGroupSpendOneDailyBudget() async throws {
        let data = LaunchTests.temporaryFolder()
        let tokens = LaunchTests.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: tokens)
        }
        var emulatorConfiguration = EmulatorConfiguration()
        emulatorConfiguration.clients = [.init(id: "spotlink-demo", redirectURIs: ["myapp://spotify-callback"])]
        try await withEmulator(emulatorConfiguration) { (emulator: EmulatorServer) async throws in
            // The app's first launch signs in; both processes are later launches of the app and
            // its widget, and read that sign-in.
            var configuration = SpotifyLink.Configuration(
                clientID: "spotlink-demo", redirectURI: "myapp://spotify-callback",
                server: .emulator(url: emulator.baseURL), appGroup: "group.dev.example.journal",
                environment: ["XDG_DATA_HOME": data.path])
            configuration.tokenStore = FileTokenStore(directory: tokens)
            let app = await SpotifyLink(configuration)
            try await BrowserSignIn(redirectURI: "myapp://spotify-callback").run(session: app.session) { url, _ in
                try await ConsentBrowser().callback(for: url)
            }
            // The first launch also made the group's request ledger: this test is about sharing one
            // budget, not about creating the file (which `LockStress` and the ledger's own
            // process tests race). Two children creating it at once on a loaded machine could find
            // it busy past the opening's retries, and an unusable ledger holds requests back (it
            // fails closed).
            #expect(try await app.ledger.usage(at: Date()).last24Hours == 0)

            let arguments = [
                emulator.baseURL.absoluteString, "spotlink-demo", "group.dev.example.journal", tokens.path, "8",
            ]
            var childEnvironment = ProcessInfo.processInfo.environment
            childEnvironment["XDG_DATA_HOME"] = data.path
            let environment = childEnvironment
            let outputs = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        let child = try await ChildProcess(
                            builtExecutable(named: "AppGroupChild"), arguments, environment: environment
                        ).run()
                        #expect(child.status == 0, "AppGroupChild failed: \(child.errors)")
                        return child.output.trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                }
                var outputs: [String] = []
                for try await output in group { outputs.append(output) }
                return outputs
            }
            let counts = outputs.map { line in
                line.split(separator: " ").compactMap { Int($0) }
            }
            #expect(counts.count == 2 && counts.allSatisfy { $0.count == 3 }, "unexpected output: \(outputs)")
            #expect(counts.map { $0[0] }.reduce(0, +) == 4, "answers across both processes: \(outputs)")
            #expect(counts.map { $0[1] }.reduce(0, +) == 12, "budget refusals across both processes: \(outputs)")
            #expect(counts.map { $0[2] }.reduce(0, +) == 0, "\(outputs)")
            let ledger = data.appendingPathComponent("group.dev.example.journal/SpotifyLink/spotify-requests.sqlite")
            #expect(FileManager.default.fileExists(atPath: ledger.path))
        }
    }
}
