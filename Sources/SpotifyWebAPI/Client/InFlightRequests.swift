import Foundation
import HTTPTypes

/// Identical requests in flight at the same time share one exchange.
///
/// The first caller for a key starts the exchange in a task of its own; later callers for the same
/// key wait for that task's answer. A caller that is cancelled stops waiting at once, and the
/// exchange is cancelled only when no caller waits for it any more.
///
/// Each flight has an identity, and its task lands only itself: a flight whose callers all left is
/// dropped at once, so a caller for the same key after them starts a flight of its own, and the
/// abandoned task, when it lands later, neither ends the new flight nor hands its callers its
/// `CancellationError` (a picker closed and opened again at once).
actor InFlightRequests {
    typealias Answer = (HTTPResponse, Data)

    private struct Flight {
        /// Which flight this is, among every flight of this table.
        let id: Int
        var task: Task<Void, Never>
        var waiters: [Int: CheckedContinuation<Answer, any Error>] = [:]
    }

    private var flights: [String: Flight] = [:]
    /// Callers and flights, numbered from one counter: each number is used once.
    private var nextNumber = 0

    /// The answer for `key`: shared with a flight under way, or from `exchange` started now.
    func run(key: String, exchange: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        let waiter = number()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                if flights[key] == nil {
                    let id = number()
                    let task = Task {
                        let result: Result<Answer, any Error>
                        do { result = .success(try await exchange()) } catch { result = .failure(error) }
                        self.land(key, id, result)
                    }
                    flights[key] = Flight(id: id, task: task)
                }
                flights[key]?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.leave(key, waiter) }
        }
    }

    /// Callers waiting now, for all keys (for tests).
    var waiting: Int { flights.values.reduce(0) { $0 + $1.waiters.count } }

    /// Flights under way now, for all keys (for tests).
    var flying: Int { flights.count }

    /// Flights whose exchange has ended, answered or not, whether or not a caller still waited
    /// (for tests).
    private(set) var landed = 0

    private func number() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    /// Hands `result` to the callers of flight `id`, if it is still the flight for `key`: a flight
    /// dropped when its callers left has none, and another flight may hold the key by now.
    private func land(_ key: String, _ id: Int, _ result: Result<Answer, any Error>) {
        landed += 1
        guard let flight = flights[key], flight.id == id else { return }
        flights[key] = nil
        for continuation in flight.waiters.values { continuation.resume(with: result) }
    }

    private func leave(_ key: String, _ waiter: Int) {
        guard let continuation = flights[key]?.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(throwing: CancellationError())
        if let flight = flights[key], flight.waiters.isEmpty {
            flights[key] = nil
            flight.task.cancel()
        }
    }
}

/// The `ETag` and body of recent GET answers, so the next GET of the same URL can ask
/// `If-None-Match` and take a 304 as "unchanged".
///
/// Spotify sends ETags rarely; nothing relies on them. Bounded in entries and bytes.
actor ValidatorCache {
    struct Validator: Sendable {
        var etag: String
        var body: Data
    }

    private var entries: [URL: Validator] = [:]
    private var order: [URL] = []
    private var bytes = 0
    private let maxEntries = 64
    private let maxBytes = 4 << 20

    func validator(for url: URL) -> Validator? { entries[url] }

    func remember(etag: String, body: Data, for url: URL) {
        guard body.count <= maxBytes / 4 else { return }
        if let old = entries.removeValue(forKey: url) {
            bytes -= old.body.count
            order.removeAll { $0 == url }
        }
        entries[url] = Validator(etag: etag, body: body)
        order.append(url)
        bytes += body.count
        while entries.count > maxEntries || bytes > maxBytes, let oldest = order.first {
            order.removeFirst()
            bytes -= entries.removeValue(forKey: oldest)?.body.count ?? 0
        }
    }
}
