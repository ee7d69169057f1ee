import ArgumentParser
import EmulatorCommandLine
import Foundation
import SpotifyEmulator
import Testing

/// The emulator's flags, as `spotify-emulator` and `spotlink emulator` read them: checked in the
/// command-line target, each refusal naming its flag; the library takes a configuration only.
@Suite("The emulator's flags")
struct EmulatorFlagTests {
    @Test(arguments: [
        (["--quota", "0"], "--quota"), (["--quota-window", "0"], "--quota-window"),
        (["--developer", "nobody"], "--developer"), (["--developer", "ghost=alice"], "--developer"),
        (["--access-token-ttl", "0"], "--access-token-ttl"), (["--latency-ms=-1"], "--latency-ms"),
        (["--rate-limit", "0"], "--rate-limit"), (["--extra-playlists", "10001"], "--extra-playlists"),
        (["--client-created", "June 2025"], "--client-created"),
    ])
    func aBadValueIsRefusedNamingItsFlag(arguments: [String], flag: String) throws {
        let options = try EmulatorOptions.parse(arguments)
        #expect {
            _ = try options.configuration()
        } throws: { error in
            (error as? ValidationError)?.message.hasPrefix(flag + " ") == true
        }
    }

    @Test func theFlagsDescribeTheConfiguration() throws {
        let options = try EmulatorOptions.parse([
            "--client-id", "app-1", "--client-id", "app-2", "--developer", "app-2=alice",
            "--redirect-uri", "http://127.0.0.1:4321/callback", "--client-created", "2025-06-01",
            "--quota", "900", "--quota-window", "3600", "--latency-ms", "40", "--rate-limit", "180",
            "--access-token-ttl", "600", "--extra-playlists", "3", "--shape", "transition",
        ])
        let configuration = try options.configuration()
        #expect(configuration.clients.map(\.id) == ["app-1", "app-2"])
        #expect(configuration.clients.map(\.developer) == ["developer", "alice"])
        #expect(configuration.clients.allSatisfy { $0.redirectURIs == ["http://127.0.0.1:4321/callback"] })
        #expect(configuration.clients.allSatisfy { $0.predatesRestrictions })
        #expect(configuration.quota == 900 && configuration.quotaWindow == .seconds(3600))
        #expect(configuration.latency == .milliseconds(40) && configuration.rateLimit == 180)
        #expect(configuration.accessTokenTTL == .seconds(600) && configuration.extraLibraryPlaylists == 3)
        #expect(configuration.shape == .transition)
    }

    @Test func noFlagsAreTheDemoClientCreatedAfterTheRestrictions() throws {
        let configuration = try EmulatorOptions.parse([]).configuration()
        #expect(configuration.clients.map(\.id) == ["spotlink-demo"])
        #expect(configuration.clients.map(\.redirectURIs) == [["http://127.0.0.1/callback"]])
        #expect(configuration.clients.allSatisfy { !$0.predatesRestrictions })
    }
}
