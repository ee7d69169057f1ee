import Foundation
import SpotifyLinkSupport
import Synchronization

/// What a metric is held to, and whether missing it can fail a run.
///
/// An **exact** target is a count or a time on a virtual clock: the same on every machine, so a
/// miss is a regression in the code and fails `spotlink-bench --check`. A **machine** target is a
/// wall-clock time, a throughput or a memory figure: it depends on the machine and on what else
/// runs there, so a miss is reported and flagged but never fails a run (a timing gate on a shared
/// CI machine would be a flaky test). A **contrast** is a figure shown beside the others, with no
/// bound of its own.
struct Target: Sendable {
    /// The bound a figure must respect.
    enum Bound: Sendable {
        case atMost(Double)
        case atLeast(Double)
        case exactly(Double)

        func holds(for figure: Double) -> Bool {
            switch self {
            case .atMost(let limit): figure <= limit
            case .atLeast(let limit): figure >= limit
            case .exactly(let expected): figure == expected
            }
        }

        var text: String {
            switch self {
            case .atMost(let limit): "<= \(Self.format(limit))"
            case .atLeast(let limit): ">= \(Self.format(limit))"
            case .exactly(let expected): "exactly \(Self.format(expected))"
            }
        }

        private static func format(_ number: Double) -> String {
            number == number.rounded() ? String(Int(number)) : String(number)
        }
    }

    /// How a miss is treated.
    enum Kind: String, Sendable {
        case exact, machine, contrast
    }

    let kind: Kind
    let bound: Bound?
    /// Whether the bound applies to value ÷ floor rather than to the value.
    let onRatio: Bool
    let note: String?

    /// A count or virtual-clock figure: a miss fails `--check`.
    static func exact(_ bound: Bound, onRatio: Bool = false, _ note: String? = nil) -> Target {
        Target(kind: .exact, bound: bound, onRatio: onRatio, note: note)
    }

    /// A wall-clock, throughput or memory figure: a miss is flagged, never fails a run.
    static func machine(_ bound: Bound, onRatio: Bool = false, _ note: String? = nil) -> Target {
        Target(kind: .machine, bound: bound, onRatio: onRatio, note: note)
    }

    /// A figure shown for comparison, with no bound.
    static func contrast(_ note: String = "contrast") -> Target {
        Target(kind: .contrast, bound: nil, onRatio: false, note: note)
    }

    /// Whether the figure meets the bound; `nil` when there is no bound or no ratio to judge.
    func met(value: Double, ratio: Double?) -> Bool? {
        guard let bound else { return nil }
        guard let figure = onRatio ? ratio : value else { return nil }
        return bound.holds(for: figure)
    }

    var text: String {
        let boundText = bound.map { (onRatio ? "ratio " : "") + $0.text }
        return [boundText, note].compactMap { $0 }.joined(separator: " ")
    }
}

/// Prints metrics as text or JSON lines, and keeps what a `--check` run is judged on.
final class Report: Sendable {
    /// One metric's verdict.
    enum Verdict: String, Sendable {
        case met, missed, skipped, shown
    }

    private struct Outcome: Sendable {
        let name: String
        let kind: Target.Kind
        let verdict: Verdict
        let detail: String
    }

    let json: Bool
    private let outcomes = Lock<[Outcome]>([])

    init(json: Bool) { self.json = json }

    /// Records and prints one metric.
    func metric(
        _ name: String, _ value: Double, _ unit: String, floor: Double?, target: Target, extra: [String: Any] = [:]
    ) {
        let ratio = floor.flatMap { $0 > 0 ? value / $0 : nil }
        let skipped = extra["skipped"].map { "\($0)" }
        let verdict: Verdict =
            switch (skipped, target.met(value: value, ratio: ratio)) {
            case (_?, _): .skipped
            case (nil, true?): .met
            case (nil, false?): .missed
            case (nil, nil): .shown
            }
        let figure = target.onRatio ? ratio.map { String(format: "ratio %.3f", $0) } : String(format: "%.3f", value)
        let detail = skipped ?? "\(figure ?? "no figure"), target \(target.text)"
        outcomes.withLock { $0.append(Outcome(name: name, kind: target.kind, verdict: verdict, detail: detail)) }
        if json {
            var object: [String: Any] = [
                "metric": name, "value": value, "unit": unit, "floor": floor ?? NSNull(), "ratio": ratio ?? NSNull(),
                "target": target.text, "kind": target.kind.rawValue, "verdict": verdict.rawValue,
            ]
            object.merge(extra) { first, _ in first }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            let floorText = floor.map { String(format: "floor %.3f", $0) } ?? "no floor"
            let ratioText = ratio.map { String(format: "ratio %.2f", $0) } ?? ""
            let extraText = extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let mark =
                switch (verdict, target.kind) {
                case (.missed, .exact): "MISSED"
                case (.missed, _): "missed (machine)"
                case (.skipped, _): "SKIPPED"
                default: ""
                }
            // Unbuffered, like the tally on standard error, so a log that joins the two keeps their order.
            let line = String(
                format: "%-34@ %12.3f %-6@ %@ %@  (target %@) %@ %@", name as NSString, value, unit as NSString,
                floorText, ratioText, target.text, mark, extraText)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    /// Prints the tally to standard error; with `check`, whether the run passes: every exact
    /// target met and nothing skipped. Machine targets are listed when missed, never failed on.
    func conclude(check: Bool) -> Bool {
        let all = outcomes.withLock { $0 }
        let exactMissed = all.filter { $0.kind == .exact && $0.verdict == .missed }
        let machineMissed = all.filter { $0.kind == .machine && $0.verdict == .missed }
        let skipped = all.filter { $0.verdict == .skipped }
        let exactMet = all.filter { $0.kind == .exact && $0.verdict == .met }.count
        let machineMet = all.filter { $0.kind == .machine && $0.verdict == .met }.count
        var lines = [
            "\(all.count) metrics: exact targets \(exactMet) met, \(exactMissed.count) missed; "
                + "machine targets \(machineMet) met, \(machineMissed.count) missed; \(skipped.count) skipped"
        ]
        lines += exactMissed.map { "  missed (exact, fails --check): \($0.name): \($0.detail)" }
        lines += machineMissed.map { "  missed (machine-dependent, reported only): \($0.name): \($0.detail)" }
        lines += skipped.map { "  skipped\(check ? " (fails --check)" : ""): \($0.name): \($0.detail)" }
        let passed = exactMissed.isEmpty && skipped.isEmpty
        if check { lines.append(passed ? "check passed" : "check FAILED") }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        return passed || !check
    }
}
