import Foundation
import SpotifyTesting
import Testing

@_spi(Storage) @testable import SpotifyAuth
@testable import SpotifyWebAPI

/// The Keychain store's own logic (its four calls, their statuses, what each means for people),
/// run on Linux against the stand-in of the Keychain's documented behaviour.
@Suite("Keychain token store")
struct KeychainTokenStoreTests {
    let clock = VirtualClock()

    @Test func savingTwiceUpdatesTheItemInPlace() async throws {
        let keychain = KeychainStandIn()
        let store = KeychainTokenStore(keychain: keychain)
        try await store.save(storedTokens(clock: clock), for: testKey)
        try await store.save(storedTokens(access: "SENTINEL_AT_new", clock: clock), for: testKey)
        // Without a group: update in place wherever the item is, add when there is none; never a
        // delete, so there is no moment without tokens.
        #expect(keychain.calls == ["update", "add", "update"])
        #expect(keychain.items.count == 1)
        #expect(keychain.items.first?.label == "SpotifyLink sign-in (spotlink-demo)")
    }

    /// Before the first unlock since the device started, the item cannot be read: the store says
    /// so, and the session keeps the sign-in (no sign-out), which reads again once unlocked.
    @Test func beforeTheFirstUnlockTheSignInIsKeptAndReadLater() async throws {
        let keychain = KeychainStandIn()
        let store = KeychainTokenStore(keychain: keychain)
        try await store.save(storedTokens(clock: clock), for: testKey)
        keychain.setUnlockedSinceBoot(false)
        let session = session(ScriptedTransport([]), store: store, clock: clock)
        await #expect {
            try await session.accessToken()
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.code == .unavailable && error?.message.contains("unlocked") == true
                && error?.message.contains("kept") == true
        }
        #expect(await session.status == .signedOut, "the locked keychain ended no sign-in")
        keychain.setUnlockedSinceBoot(true)
        #expect(try await session.accessToken().unredactedValue == "SENTINEL_AT_old")
        #expect(keychain.items.count == 1)
    }

    /// An access group the app is not entitled to is the developer's set-up to fix, and the
    /// message says how: never "unlock the device".
    @Test func aMissingEntitlementIsNamedAsTheConfigurationErrorItIs() async throws {
        let store = KeychainTokenStore(accessGroup: "TEAMID.group.unknown", keychain: KeychainStandIn())
        await #expect {
            try await store.save(storedTokens(clock: clock), for: testKey)
        } throws: { error in
            let error = error as? TokenStoreError
            return error?.code == .misconfigured && error?.message.contains("TEAMID.group.unknown") == true
                && error?.message.contains("Keychain Sharing") == true && error?.message.contains("Unlock") == false
                && (error?.underlying as? KeychainFailure)?.status == -34018
        }
    }

    /// An unsigned macOS command-line tool cannot use the data protection keychain; it is told to
    /// opt out, and works once it does.
    @Test func anUnsignedToolIsToldToOptOutOfTheDataProtectionKeychain() async throws {
        let keychain = KeychainStandIn()
        keychain.setUnsigned()
        await #expect {
            try await KeychainTokenStore(keychain: keychain).save(storedTokens(clock: clock), for: testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .misconfigured
                && (error as? TokenStoreError)?.message.contains("useDataProtectionKeychain: false") == true
        }
        let tool = KeychainTokenStore(useDataProtectionKeychain: false, keychain: keychain)
        try await tool.save(storedTokens(clock: clock), for: testKey)
        await #expect(try tool.load(testKey) != nil)
    }

    /// An app and its widget share the sign-in through a Keychain access group: what one saves the
    /// other reads, and a store without a group (the app before it shared) finds it too.
    @Test func anAccessGroupSharesTheSignInWithTheAppsExtensions() async throws {
        let keychain = KeychainStandIn()
        let app = KeychainTokenStore(accessGroup: "TEAMID.group.dev.spotifylink", keychain: keychain)
        let widget = KeychainTokenStore(accessGroup: "TEAMID.group.dev.spotifylink", keychain: keychain)
        try await app.save(storedTokens(clock: clock), for: testKey)
        await #expect(try widget.load(testKey)?.accessToken.unredactedValue == "SENTINEL_AT_old")
        #expect(keychain.items.map(\.group) == ["TEAMID.group.dev.spotifylink"])
        await #expect(try KeychainTokenStore(keychain: keychain).load(testKey) != nil)
        try await widget.remove(testKey)
        await #expect(try app.load(testKey) == nil)
    }

    /// An app that sets `accessGroup` in a later version (to share with a new widget) finds the
    /// item its earlier version saved in its default group, and keeps one item: moved into the group.
    @Test func anAccessGroupAddedLaterMovesTheItemIntoTheGroup() async throws {
        let keychain = KeychainStandIn()
        try await KeychainTokenStore(keychain: keychain).save(storedTokens(clock: clock), for: testKey)
        #expect(keychain.items.map(\.group) == ["TEAMID.dev.spotifylink.app"])
        let shared = KeychainTokenStore(accessGroup: "TEAMID.group.dev.spotifylink", keychain: keychain)
        await #expect(try shared.load(testKey)?.refreshToken?.unredactedValue == "SENTINEL_RT_1")
        #expect(keychain.items.map(\.group) == ["TEAMID.group.dev.spotifylink"], "one item, in the group")
        try await shared.save(storedTokens(access: "SENTINEL_AT_new", clock: clock), for: testKey)
        #expect(keychain.items.count == 1)
    }

    /// An access group set in the widget's target only: the widget moves the app's item into the
    /// group, and the app (no group) then updates that item instead of adding a second one.
    @Test func anAccessGroupSetInTheWidgetOnlyStillLeavesOneItem() async throws {
        let keychain = KeychainStandIn()
        let app = KeychainTokenStore(keychain: keychain)
        let widget = KeychainTokenStore(accessGroup: "TEAMID.group.dev.spotifylink", keychain: keychain)
        try await app.save(storedTokens(clock: clock), for: testKey)
        await #expect(try widget.load(testKey) != nil)
        try await app.save(storedTokens(access: "SENTINEL_AT_new", clock: clock), for: testKey)
        #expect(keychain.items.count == 1, "the app added a second item: \(keychain.items.map(\.group))")
        await #expect(try widget.load(testKey)?.accessToken.unredactedValue == "SENTINEL_AT_new")
        // And a widget that saves after an app's item appeared elsewhere removes that copy.
        try await widget.save(storedTokens(access: "SENTINEL_AT_newer", clock: clock), for: testKey)
        #expect(keychain.items.map(\.group) == ["TEAMID.group.dev.spotifylink"])
        await #expect(try app.load(testKey)?.accessToken.unredactedValue == "SENTINEL_AT_newer")
    }

    /// Keychain items outlive the app on iOS: an app deleted and installed again finds the sign-in
    /// it had (its own files are gone). The store reads it as any other.
    @Test func aReinstalledAppFindsItsOldSignIn() async throws {
        let keychain = KeychainStandIn()
        try await KeychainTokenStore(keychain: keychain).save(storedTokens(clock: clock), for: testKey)
        let reinstalled = KeychainTokenStore(keychain: keychain)
        await #expect(try reinstalled.load(testKey)?.refreshToken?.unredactedValue == "SENTINEL_RT_1")
    }

    @Test func anUnreadableItemIsRemovedAndReportedWithoutItsContents() async throws {
        let keychain = KeychainStandIn()
        let store = KeychainTokenStore(keychain: keychain)
        try await store.save(storedTokens(clock: clock), for: testKey)
        keychain.overwriteData(Data("SENTINEL_AT_garbage{".utf8))
        await #expect {
            try await store.load(testKey)
        } throws: { error in
            (error as? TokenStoreError)?.code == .corrupt
                && (error as? TokenStoreError)?.message.contains("SENTINEL") == false
        }
        #expect(keychain.items.isEmpty)
    }

    @Test func statusesMapBothWays() {
        for status in [
            KeychainStatus.success, .itemNotFound, .duplicateItem, .interactionNotAllowed, .missingEntitlement,
            .authFailed, .notAvailable, .other(-1),
        ] {
            #expect(KeychainStatus(osStatus: status.osStatus) == status)
        }
        #expect(KeychainStatus.missingEntitlement.osStatus == -34018)
        #expect(KeychainStatus.interactionNotAllowed.osStatus == -25308)
    }
}
