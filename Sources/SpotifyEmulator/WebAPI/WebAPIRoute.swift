/// A route of the emulator's Web API: a method and a path under `/v1`, the clients it serves, and
/// what answers it. ``EmulatorState/webAPIRoutes`` is the table.
struct WebAPIRoute: Sendable {
    /// Which clients a route serves.
    enum Reach: Sendable {
        /// Every client.
        case everyClient
        /// Removed in February 2026 for a client created since: 403, as the 2026 reports show for
        /// each removal they name (the emulator's README cites them; one counter-report says 404).
        /// A client created before 2026-02-11, for which Spotify postponed the removal, is served.
        case removedForNewerClients
        /// Removed in 2026 for every client: 403, as live answers (``WebAPIRoute/removed(_:method:)``).
        case removed
    }

    /// What a route's handler is given.
    struct Call {
        /// The request.
        let request: EmulatorRequest
        /// The access token's record.
        let access: AccessRecord
        /// The segments the pattern's `{}` matched, in order.
        let parameters: [String]
        /// Whether the client was created before 2026-02-11.
        let predatesRestrictions: Bool
    }

    /// The HTTP method.
    let method: String
    /// The path under `/v1`, a segment an element: a literal, or `{}` for any one segment.
    let pattern: [String]
    /// The clients it serves.
    let reach: Reach
    /// Whether only a user's token reaches it: a client-credentials token gets 401.
    let needsUser: Bool
    /// The handler, on the emulator's state.
    let answer: @Sendable (isolated EmulatorState, Call) -> EmulatorResponse

    /// `method` on `path` (`/playlists/{}/items`), for `reach`: a read unless told otherwise.
    init(
        _ path: String, _ reach: Reach = .everyClient, method: String = "GET", user needsUser: Bool = false,
        _ answer: @escaping @Sendable (isolated EmulatorState, Call) -> EmulatorResponse
    ) {
        self.method = method
        self.pattern = path.split(separator: "/").map(String.init)
        self.reach = reach
        self.needsUser = needsUser
        self.answer = answer
    }

    /// Live's answer on a route removed in 2026.
    static let forbidden = EmulatorResponse.apiError(403, "Forbidden")

    /// `method` on `path`, removed in 2026 for every client: it answers 403 whatever is asked.
    static func removed(_ path: String, method: String = "GET") -> WebAPIRoute {
        WebAPIRoute(path, .removed, method: method) { _, _ in forbidden }
    }

    /// What the pattern's `{}` match in `segments`, or `nil` when the path is not this route's.
    func parameters(of segments: ArraySlice<String>) -> [String]? {
        guard segments.count == pattern.count else { return nil }
        var parameters: [String] = []
        for (segment, expected) in zip(segments, pattern) {
            if expected == "{}" {
                parameters.append(segment)
            } else if segment != expected {
                return nil
            }
        }
        return parameters
    }

    /// Whether the route is removed for a client: it answers 403.
    func isRemoved(predatesRestrictions: Bool) -> Bool {
        reach == .removed || (reach == .removedForNewerClients && !predatesRestrictions)
    }
}
