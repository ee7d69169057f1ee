import Foundation
import GRDB
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

extension SpotLinkCommandTests {
    /// The whole product in one command, for people and as JSON.
    @Suite("spotlink demo")
    struct Demo {
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
    }
}
