import Foundation
import Testing

/// Issue 66 item 1 from the command line: `doctor` says a request ledger it cannot read holds
/// requests back, where it used to say "✓ no cooldown".
@Suite("spotlink and a request ledger it cannot read")
struct LedgerDoctorTests {
    @Test func doctorSaysTheLedgerHoldsRequestsBack() async throws {
        let cli = try SpotLinkBinary()
        let data = cli.home.appendingPathComponent("data")
        try FileManager.default.createDirectory(
            at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let ledger = data.appendingPathComponent("spotify-requests.sqlite")
        try Data(repeating: 0x5A, count: 8_192).write(to: ledger)

        let doctor = try await cli.run(["doctor", "--data-dir", data.path])
        #expect(doctor.stdout.contains("✗ request ledger: "), "\(doctor.stdout)")
        #expect(doctor.stdout.contains(ledger.path) && doctor.stdout.contains("Move it aside"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("no cooldown"), "\(doctor.stdout)")
        #expect(doctor.status != 0)
    }
}
