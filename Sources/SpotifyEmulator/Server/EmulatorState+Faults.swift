import Foundation
import SpotifyLinkSupport

/// A misbehaviour the emulator plays on the next matching Web API requests.
package struct FaultRule: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        /// 429 with the rule's `Retry-After` (any text, even garbage).
        case rateLimited = "429"
        /// 429 with a `Retry-After` of 1–4 s at random, whatever the caller's pace: the noisy
        /// neighbour a client ID shared with other apps or devices sees in 2026.
        case noisyNeighbour = "429-noisy"
        /// 429 `QUOTA_EXCEEDED`, the Development Mode quota, with the rule's `Retry-After`.
        case quotaExceeded = "429-quota"
        case serverError = "500"
        case serviceUnavailable = "503"
        /// A proxy's HTML 502 page.
        case badGatewayHTML = "502-html"
        /// A 200 whose body stops halfway.
        case truncated = "truncate"
        /// The connection closes before any response.
        case reset
        /// 403 for a user not on the app's allow list: a plain-text body, as live.
        case notRegistered = "403-not-registered"
        /// 403 when the app owner's Premium lapsed.
        case premiumRequired = "403-premium"
        /// 403 `PREMIUM_REQUIRED`: a player command for a user without Premium (the user's plan,
        /// not the owner's).
        case userPremiumRequired = "403-user-premium"
        /// 403 for a scope the user never granted.
        case insufficientScope = "403-scope"
        /// The transient 401 "Access token missing" on a good token.
        case transientUnauthorized = "401-transient"
        /// An outage: 502 (a proxy's HTML page) and 503 in turn, `count` answers long. Spotify
        /// being unavailable, never a rate limit or a quota: no `Retry-After`, no `reason`.
        case outage = "5xx-burst"
    }

    package var kind: Kind
    package var remaining: Int
    package var pathPrefix: String?
    package var retryAfter: String?

    package init(kind: Kind, count: Int = 1, pathPrefix: String? = nil, retryAfter: String? = nil) {
        self.kind = kind
        self.remaining = count
        self.pathPrefix = pathPrefix
        self.retryAfter = retryAfter
    }
}

extension EmulatorState {
    package func addFault(_ rule: FaultRule) { faults.append(rule) }
    package func clearFaults() { faults.removeAll() }

    package func currentLatency() -> Duration {
        guard configuration.latencyJitter > .zero else { return latency }
        let jitterMs = Int(configuration.latencyJitter.seconds * 1000)
        return latency + .milliseconds(Int(random.next() % UInt64(max(jitterMs, 1))))
    }

    func takeFault(for request: EmulatorRequest) -> EmulatorResponse? {
        if let index = faults.firstIndex(where: {
            $0.remaining > 0 && ($0.pathPrefix.map(request.path.hasPrefix) ?? true)
        }) {
            let rule = faults[index]
            faults[index].remaining -= 1
            if faults[index].remaining == 0 { faults.remove(at: index) }
            return response(for: rule)
        }
        if serverErrorRate > 0, Double(random.next() % 1_000_000) / 1_000_000 < serverErrorRate {
            return .apiError(500, "Server error")
        }
        return nil
    }

    private func response(for rule: FaultRule) -> EmulatorResponse {
        switch rule.kind {
        case .rateLimited: return .rateLimitExceeded(retryAfter: rule.retryAfter)
        case .noisyNeighbour: return .rateLimitExceeded(retryAfter: "\(1 + random.next() % 4)")
        case .quotaExceeded: return .quotaExceeded(retryAfter: rule.retryAfter)
        case .notRegistered:
            return EmulatorResponse(
                status: 403, headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: Data("User not registered in the Developer Dashboard".utf8))
        case .premiumRequired: return .apiError(403, "Active premium subscription required for the owner of the app")
        case .userPremiumRequired:
            return .json(
                .object([
                    (
                        "error",
                        .object([
                            ("status", .int(403)), ("message", .string("Player command failed: Premium required")),
                            ("reason", .string("PREMIUM_REQUIRED")),
                        ])
                    )
                ]), status: 403)
        case .insufficientScope: return .apiError(403, "Insufficient client scope")
        case .transientUnauthorized: return .apiError(401, "Access token missing")
        case .serverError: return .apiError(500, "Server error")
        case .serviceUnavailable: return .apiError(503, "Service unavailable")
        case .badGatewayHTML: return Self.badGateway
        case .outage: return rule.remaining % 2 == 0 ? Self.badGateway : .apiError(503, "Service unavailable")
        case .truncated:
            var response = EmulatorResponse.json(userJSON())
            response.delivery = .truncated
            return response
        case .reset:
            var response = EmulatorResponse.json(.object([]))
            response.delivery = .reset
            return response
        }
    }

    /// A proxy's HTML 502 page.
    private static var badGateway: EmulatorResponse {
        var response = EmulatorResponse.html("<html><body><h1>502 Bad Gateway</h1></body></html>", status: 502)
        response.headers.removeAll { $0.0 == "Content-Security-Policy" }
        return response
    }

    package func statistics() -> JSONValue {
        let routes = stats.keys.sorted().map { route in
            (route, JSONValue.object(stats[route]!.keys.sorted().map { (String($0), .int(stats[route]![$0]!)) }))
        }
        let total = stats.values.reduce(0) { $0 + $1.values.reduce(0, +) }
        return .object([("total", .int(total)), ("requests", .object(routes))])
    }

    /// Requests counted for `route` (as `GET /v1/me/player/currently-playing`), all statuses, or one.
    package func count(_ route: String, status: Int? = nil) -> Int {
        guard let byStatus = stats[route] else { return 0 }
        return status.map { byStatus[$0] ?? 0 } ?? byStatus.values.reduce(0, +)
    }

    package func resetStatistics() { stats.removeAll() }

    package func total(prefix: String) -> Int {
        stats.filter { $0.key.hasPrefix(prefix) }.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }
}
