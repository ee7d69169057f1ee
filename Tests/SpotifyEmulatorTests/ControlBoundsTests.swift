import Foundation
import SpotifyEmulator
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// The emulator's controls refuse what they cannot represent (issue 66 item 13): a clock advanced
/// by 1e300 seconds crashed the emulator the next time it read its clock.
@Suite("Emulator controls within bounds")
struct ControlBoundsTests {
    @Test func theClockMovesAtMostACentury() async throws {
        try await withEmulator { (emulator: EmulatorServer) async throws in
            for absurd in ["1e300", "inf", "nan", "-5", "ten", "3155760001"] {
                #expect(await emulator.control("clock/advance", ["seconds": absurd]) == 400, "\(absurd)")
            }
            #expect(await emulator.control("clock/advance", ["seconds": "86400"]) == 200)
            #expect(await emulator.control("clock", method: "GET") == 200)
            // The emulator still answers the Web API with its clock moved.
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL),
                tokens: StaticAccessTokenProvider(AccessToken(await emulator.issueAccessToken())),
                transport: PatientTransport())
            #expect(try await client.currentUser().id == "emu-user")
        }
    }
}
