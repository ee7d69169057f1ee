import Foundation
import HTTPTypes
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization

@testable import SpotifyWebAPI

/// A token provider that counts refreshes and hands out numbered sentinel tokens.
final class CountingTokenProvider: AccessTokenProvider {
    private let state = Lock<(current: Int, refreshes: Int)>((1, 0))
    /// The scopes granted; `nil` (unknown: nothing is checked before sending) by default.
    let scopes: Set<String>?

    init(scopes: Set<String>? = nil) {
        self.scopes = scopes
    }

    func accessToken(for apiBaseURL: URL, scopes needed: [String]) async throws -> AccessToken {
        if let scopes { try SpotifyAPIError.requireScope(of: needed, granted: scopes) }
        return try await accessToken()
    }

    var refreshes: Int { state.withLock { $0.refreshes } }

    func accessToken() async throws -> AccessToken {
        AccessToken("SENTINEL_AT_\(state.withLock { $0.current })")
    }

    func refreshedAccessToken(replacing failed: AccessToken) async throws -> AccessToken {
        state.withLock { state in
            if failed.unredactedValue == "SENTINEL_AT_\(state.current)" {
                state.current += 1
                state.refreshes += 1
            }
            return AccessToken("SENTINEL_AT_\(state.current)")
        }
    }
}

func makeClient(
    _ transport: ScriptedTransport,
    clock: VirtualClock = VirtualClock(mode: .automatic),
    tokens: any AccessTokenProvider = CountingTokenProvider(),
    ledger: RequestLedger = .inMemory(),
    configure: (inout SpotifyClient.Configuration) -> Void = { _ in }
) -> SpotifyClient {
    var configuration = SpotifyClient.Configuration.live
    configure(&configuration)
    return SpotifyClient(
        configuration: configuration, tokens: tokens, transport: transport, clock: clock, ledger: ledger)
}

let meJSON =
    #"{"id":"tester","display_name":"Test User","images":null,"uri":"spotify:user:tester","account_id":"acc-1"}"#
