import Foundation
import Logging
import PostgresNIO
@_spi(Storage) import SpotifyLinkPostgres
import SpotifyWebAPI

/// Test helper for the shared-quota tests: one server-like process that sends `COUNT` background
/// requests (`GET /me`) to the emulator through a client whose ledger is in PostgreSQL, then prints
/// one line: `sent N quota N budget N other N` (requests that got an answer, and refusals by kind).
///
/// Usage: `LedgerQuotaChild POSTGRES_URL EMULATOR_URL TOKEN CLIENT_ID COUNT [DAILY_BUDGET]`
let arguments = CommandLine.arguments
guard arguments.count >= 6, let count = Int(arguments[5]) else {
    FileHandle.standardError.write(
        Data("usage: LedgerQuotaChild POSTGRES_URL EMULATOR_URL TOKEN CLIENT_ID COUNT [DAILY_BUDGET]\n".utf8))
    exit(2)
}
let postgres = PostgresClient(
    configuration: try PostgresURL.configuration(arguments[1]), backgroundLogger: Logger(label: "child.postgres"))
let running = Task { await postgres.run() }
let client = SpotifyClient(
    configuration: .emulator(url: URL(string: arguments[2])!),
    tokens: StaticAccessTokenProvider(AccessToken(arguments[3])),
    ledger: RequestLedger(
        key: SpotifyAppKey(issuer: "emulator", clientID: arguments[4]), postgres: postgres,
        dailyBudget: arguments.count > 6 ? Int(arguments[6]) : nil))
var sent = 0, quota = 0, budget = 0, other = 0
for _ in 0..<count {
    do {
        _ = try await SpotifyClient.withOrigin(.backgroundWork) { try await client.currentUser() }
        sent += 1
    } catch let error as SpotifyAPIError where error.code == .quotaExceeded {
        quota += 1
    } catch let error as SpotifyAPIError where error.code == .budgetExhausted {
        budget += 1
    } catch {
        other += 1
        FileHandle.standardError.write(Data("\(error)\n".utf8))
    }
}
print("sent \(sent) quota \(quota) budget \(budget) other \(other)")
running.cancel()
