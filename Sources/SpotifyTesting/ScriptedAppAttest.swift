package import Foundation
@_spi(Storage) package import SpotifyAuth
import SpotifyLinkSupport
import Synchronization

/// App Attest as a device does it, with ``TestAttester``'s test root in place of Apple's: what
/// the signed-out search's tests attest and assert with on Linux. Each new key is a new device
/// key; its counter goes up by one per assertion, as the Secure Enclave's does.
package final class ScriptedAppAttest: AppAttestDevice {
    private let state = Lock<(keys: [String: TestAttester], counters: [String: UInt32], made: Int)>(([:], [:], 0))
    package let isSupported: Bool

    package init(isSupported: Bool = true) { self.isSupported = isSupported }

    /// Keys made so far.
    package var keysMade: Int { state.withLock { $0.made } }

    package func generateKey() async throws -> String {
        let attester = TestAttester()
        let id = Data(attester.keyID).base64EncodedString()
        state.withLock {
            $0.keys[id] = attester
            $0.made += 1
        }
        return id
    }

    package func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
        guard let attester = state.withLock({ $0.keys[keyID] }) else { throw CocoaError(.featureUnsupported) }
        var spec = TestAttester.Attestation()
        spec.clientDataHash = Array(clientDataHash)
        return Data(try attester.attestation(spec))
    }

    package func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
        let (attester, counter) = try state.withLock { state -> (TestAttester, UInt32) in
            guard let attester = state.keys[keyID] else { throw CocoaError(.featureUnsupported) }
            let counter = state.counters[keyID, default: 0] + 1
            state.counters[keyID] = counter
            return (attester, counter)
        }
        return Data(try attester.assertion(clientDataHash: Array(clientDataHash), counter: counter))
    }
}

/// The Keychain's generic-password items in memory: enough for what the signed-out search keeps
/// (its key ID); the token store's tests use the fuller stand-in of its documented behaviour.
package final class MemoryKeychain: KeychainItems {
    private let items = Lock<[KeychainItemQuery: Data]>([:])

    package init() {}

    package func copyData(_ item: KeychainItemQuery) -> (KeychainStatus, Data?) {
        items.withLock { $0[item] }.map { (.success, $0) } ?? (.itemNotFound, nil)
    }

    package func add(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus {
        items.withLock { items in
            guard items[item] == nil else { return .duplicateItem }
            items[item] = data
            return .success
        }
    }

    package func update(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus {
        items.withLock { items in
            guard items[item] != nil else { return .itemNotFound }
            items[item] = data
            return .success
        }
    }

    package func delete(_ item: KeychainItemQuery) -> KeychainStatus {
        items.withLock { $0.removeValue(forKey: item) } == nil ? .itemNotFound : .success
    }

    package func accessGroups(_ item: KeychainItemQuery) -> (KeychainStatus, [String]) {
        (.success, items.withLock { $0[item] } == nil ? [] : [item.accessGroup ?? ""])
    }

    package func describe(_ status: KeychainStatus) -> String { "\(status)" }
}

/// An App Attest device that reports each of its calls to ``SuspensionPoints`` before it makes it
/// (and after, when the points trace returns): the signed-out search's cancellation sweep.
package struct TracedAppAttest: AppAttestDevice {
    let inner: any AppAttestDevice
    let points: SuspensionPoints

    /// `inner`, reporting to `points`.
    package init(_ inner: any AppAttestDevice, points: SuspensionPoints) {
        self.inner = inner
        self.points = points
    }

    package var isSupported: Bool { inner.isSupported }

    package func generateKey() async throws -> String {
        await points.reach("appAttest.generateKey")
        return try await inner.generateKey()
    }

    package func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
        await points.reach("appAttest.attestKey")
        return try await inner.attestKey(keyID, clientDataHash: clientDataHash)
    }

    package func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
        await points.reach("appAttest.generateAssertion")
        return try await inner.generateAssertion(keyID, clientDataHash: clientDataHash)
    }
}
