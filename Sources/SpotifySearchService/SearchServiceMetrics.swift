package import Prometheus

/// The service's Prometheus metrics (`GET /metrics`): requests by route and status, requests sent
/// to Spotify, refusals by reason and the service's own time per answer. No label carries a
/// device, an address or search text.
package struct SearchServiceMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    /// Requests sent to Spotify, counted when they leave.
    package let spotifyRequests: Counter
    /// Searches answered from another caller's request in flight.
    package let coalesced: Counter
    let duration: DurationHistogram

    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "spotlink", subsystem: "search", metricName: metric, unitName: unit, helpText: help)
    }

    package init() {
        spotifyRequests = registry.makeCounter(
            descriptor: Self.name("spotify_requests", "total", "Requests the service sent to Spotify's Web API."))
        coalesced = registry.makeCounter(
            descriptor: Self.name("coalesced", "total", "Searches answered by an identical search already in flight."))
        duration = registry.makeDurationHistogram(
            descriptor: Self.name(
                "answer", "seconds", "Time from a request's arrival to its answer, Spotify's included."),
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(250),
                .seconds(1), .seconds(5),
            ])
    }

    /// Counts an answer to `route` with `status`.
    func answered(_ route: String, status: Int) {
        registry.makeCounter(
            descriptor: Self.name("requests", "total", "Requests the service answered, by route and HTTP status."),
            labels: [("route", route), ("status", "\(status)")]
        ).increment()
    }

    /// Counts a refusal for `reason` (an error code of the service's answers).
    func refused(_ reason: String) {
        registry.makeCounter(
            descriptor: Self.name("refusals", "total", "Requests refused before reaching Spotify, by reason."),
            labels: [("reason", reason)]
        ).increment()
    }

    /// The exposition text.
    package func exposition() -> [UInt8] { registry.emitToBuffer() }
}
