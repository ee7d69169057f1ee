package import Foundation
package import SpotifyLinkExtensions
import SpotifyLinkSupport
import Synchronization

#if canImport(ActivityKit)
    import ActivityKit
#endif

/// Where a routine's Live Activity is shown: ActivityKit on iOS (``ActivityKitRoutineHost``); the
/// tests' ``RecordingRoutineHost`` elsewhere. The logic stays in ``RoutineActivityModel``, which the
/// Linux tests run; this only carries its calls.
package protocol RoutineActivityHost: Sendable {
    /// Starts a Live Activity showing `state`, seen as stale from `staleAt` (the app may be gone
    /// when the routine ends); returns its ID.
    func start(
        _ attributes: RoutineActivityAttributes, _ state: RoutineActivityAttributes.ContentState, staleAt: Date?
    ) throws -> String
    /// Shows `state` in the Live Activity `id`.
    func update(_ id: String, _ state: RoutineActivityAttributes.ContentState) async
    /// Ends the Live Activity `id`, showing `state` last; `immediately` removes it from the Lock Screen.
    func end(_ id: String, _ state: RoutineActivityAttributes.ContentState?, immediately: Bool) async
    /// Ends, at once, every routine Live Activity of the app, also one a previous launch started.
    func endAll() async
}

#if canImport(ActivityKit)
    /// ActivityKit's Live Activities (iOS 16.2 API; the package's iOS target is 17).
    struct ActivityKitRoutineHost: RoutineActivityHost {
        func start(
            _ attributes: RoutineActivityAttributes, _ state: RoutineActivityAttributes.ContentState, staleAt: Date?
        ) throws -> String {
            guard ActivityAuthorizationInfo().areActivitiesEnabled else { throw RoutineActivityError.turnedOff }
            let content = ActivityContent(state: state, staleDate: staleAt)
            return try Activity.request(attributes: attributes, content: content, pushType: nil).id
        }

        func update(_ id: String, _ state: RoutineActivityAttributes.ContentState) async {
            for activity in Activity<RoutineActivityAttributes>.activities where activity.id == id {
                await activity.update(ActivityContent(state: state, staleDate: state.endsAt))
            }
        }

        func end(_ id: String, _ state: RoutineActivityAttributes.ContentState?, immediately: Bool) async {
            for activity in Activity<RoutineActivityAttributes>.activities where activity.id == id {
                await activity.end(
                    state.map { ActivityContent(state: $0, staleDate: nil) },
                    dismissalPolicy: immediately ? .immediate : .default)
            }
        }

        func endAll() async {
            for activity in Activity<RoutineActivityAttributes>.activities {
                await activity.end(nil, dismissalPolicy: .immediate)
            }
        }
    }
#endif

/// Why a routine's Live Activity did not start.
public enum RoutineActivityError: Error, Sendable, Equatable {
    /// The user turned Live Activities off for the app (Settings): the routine runs without one.
    case turnedOff
}

/// Records what the model asked of Live Activities, as ActivityKit would show them: the tests'
/// and the bench's host.
package final class RecordingRoutineHost: RoutineActivityHost {
    /// One Live Activity as it was last shown.
    package struct Shown: Sendable, Equatable {
        package var attributes: RoutineActivityAttributes
        package var states: [RoutineActivityAttributes.ContentState]
        package var ended = false
        package var removedAtOnce = false
    }

    private let shown = Lock<[String: Shown]>([:])
    private let order = Lock<[String]>([])
    private let refusing: Bool

    /// A host that shows every Live Activity, or, with `refusing`, one whose user turned them off.
    package init(refusing: Bool = false) {
        self.refusing = refusing
    }

    /// Every Live Activity started, in order.
    package var activities: [Shown] {
        let ids = order.withLock { $0 }
        return shown.withLock { shown in ids.compactMap { shown[$0] } }
    }

    /// The Live Activities not ended.
    package var running: [Shown] { activities.filter { !$0.ended } }

    package func start(
        _ attributes: RoutineActivityAttributes, _ state: RoutineActivityAttributes.ContentState, staleAt: Date?
    ) throws -> String {
        if refusing { throw RoutineActivityError.turnedOff }
        let id = UUID().uuidString
        shown.withLock { $0[id] = Shown(attributes: attributes, states: [state]) }
        order.withLock { $0.append(id) }
        return id
    }

    package func update(_ id: String, _ state: RoutineActivityAttributes.ContentState) async {
        shown.withLock { shown in
            guard shown[id]?.ended == false else { return }
            shown[id]?.states.append(state)
        }
    }

    package func end(_ id: String, _ state: RoutineActivityAttributes.ContentState?, immediately: Bool) async {
        shown.withLock { shown in
            guard shown[id]?.ended == false else { return }
            if let state { shown[id]?.states.append(state) }
            shown[id]?.ended = true
            shown[id]?.removedAtOnce = immediately
        }
    }

    package func endAll() async {
        shown.withLock { shown in
            for id in shown.keys where shown[id]?.ended == false {
                shown[id]?.ended = true
                shown[id]?.removedAtOnce = true
            }
        }
    }
}
