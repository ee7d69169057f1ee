import Foundation
import SpotifyLinkSupport
import Synchronization

@testable import SpotifyAuth

/// The Keychain as Apple documents it, for the four calls `KeychainTokenStore` makes, so that the
/// store's real logic runs in `swift test` on Linux:
/// - a generic password is identified by service, account and access group; adding one that
///   exists is `errSecDuplicateItem`; reading, updating or deleting one that does not is
///   `errSecItemNotFound`;
/// - a query without an access group searches every group the app is entitled to, and an item
///   added without one goes to the first (`keychain-access-groups`); naming a group the app is not
///   entitled to is `errSecMissingEntitlement`, and so is the data protection keychain for a
///   program without a signed entitlement (an unsigned macOS command-line tool);
/// - items stored `AfterFirstUnlockThisDeviceOnly` cannot be read or written before the device's
///   first unlock since it started: `errSecInteractionNotAllowed`;
/// - items outlive the app: a store made later over the same keychain finds them (an app deleted
///   and installed again on iOS finds its old sign-in).
final class KeychainStandIn: KeychainItems {
    struct Item: Equatable {
        var service: String
        var account: String
        var group: String
        var data: Data
        var label: String
    }

    private struct State {
        var items: [Item] = []
        var entitledGroups: [String]
        var unlockedSinceBoot = true
        var signedForDataProtection = true
        var calls: [String] = []
    }

    private let state: Lock<State>

    /// A keychain for an app entitled to `groups` (the first is where items go by default).
    init(entitledGroups groups: [String] = ["TEAMID.dev.spotifylink.app", "TEAMID.group.dev.spotifylink"]) {
        state = Lock(State(entitledGroups: groups))
    }

    /// The device restarted and has not been unlocked yet (`false`), or has been (`true`).
    func setUnlockedSinceBoot(_ unlocked: Bool) { state.withLock { $0.unlockedSinceBoot = unlocked } }
    /// The program carries no signed Keychain entitlement (an unsigned macOS command-line tool).
    func setUnsigned() { state.withLock { $0.signedForDataProtection = false } }
    /// What the keychain holds.
    var items: [Item] { state.withLock { $0.items } }
    /// The calls made, as `add`, `copy`, `update`, `delete`, `groups`.
    var calls: [String] { state.withLock { $0.calls } }
    /// Puts raw bytes in place of an item's data (what an older or newer app version may have left).
    func overwriteData(_ data: Data) {
        state.withLock { state in for i in state.items.indices { state.items[i].data = data } }
    }

    private func refusal(_ item: KeychainItemQuery, _ state: State) -> KeychainStatus? {
        if let group = item.accessGroup, !state.entitledGroups.contains(group) { return .missingEntitlement }
        if item.useDataProtectionKeychain, !state.signedForDataProtection { return .missingEntitlement }
        if !state.unlockedSinceBoot { return .interactionNotAllowed }
        return nil
    }

    private func matches(_ candidate: Item, _ item: KeychainItemQuery, _ state: State) -> Bool {
        candidate.service == item.service && candidate.account == item.account
            && (item.accessGroup.map { $0 == candidate.group } ?? state.entitledGroups.contains(candidate.group))
    }

    func copyData(_ item: KeychainItemQuery) -> (KeychainStatus, Data?) {
        state.withLock { state in
            state.calls.append("copy")
            if let refused = refusal(item, state) { return (refused, nil) }
            guard let found = state.items.first(where: { matches($0, item, state) }) else {
                return (.itemNotFound, nil)
            }
            return (.success, found.data)
        }
    }

    func add(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus {
        state.withLock { state in
            state.calls.append("add")
            if let refused = refusal(item, state) { return refused }
            let group = item.accessGroup ?? state.entitledGroups[0]
            if state.items.contains(where: {
                $0.service == item.service && $0.account == item.account && $0.group == group
            }) {
                return .duplicateItem
            }
            state.items.append(
                Item(service: item.service, account: item.account, group: group, data: data, label: label))
            return .success
        }
    }

    func update(_ item: KeychainItemQuery, data: Data, label: String) -> KeychainStatus {
        state.withLock { state in
            state.calls.append("update")
            if let refused = refusal(item, state) { return refused }
            var found = false
            for index in state.items.indices where matches(state.items[index], item, state) {
                state.items[index].data = data
                state.items[index].label = label
                found = true
            }
            return found ? .success : .itemNotFound
        }
    }

    func accessGroups(_ item: KeychainItemQuery) -> (KeychainStatus, [String]) {
        state.withLock { state in
            state.calls.append("groups")
            if let refused = refusal(item, state) { return (refused, []) }
            let groups = state.items.filter { matches($0, item, state) }.map(\.group)
            return (groups.isEmpty ? .itemNotFound : .success, groups)
        }
    }

    func delete(_ item: KeychainItemQuery) -> KeychainStatus {
        state.withLock { state in
            state.calls.append("delete")
            if let refused = refusal(item, state) { return refused }
            let groups = state.entitledGroups
            let kept = state.items.filter { candidate in
                !(candidate.service == item.service && candidate.account == item.account
                    && (item.accessGroup.map { $0 == candidate.group } ?? groups.contains(candidate.group)))
            }
            defer { state.items = kept }
            return kept.count < state.items.count ? .success : .itemNotFound
        }
    }

    func describe(_ status: KeychainStatus) -> String {
        switch status {
        case .interactionNotAllowed: "User interaction is not allowed."
        case .missingEntitlement: "A required entitlement isn't present."
        case .itemNotFound: "The specified item could not be found in the keychain."
        case .duplicateItem: "The specified item already exists in the keychain."
        default: "OSStatus \(status.osStatus)"
        }
    }
}
