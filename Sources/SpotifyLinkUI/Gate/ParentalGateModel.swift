import Foundation
public import Observation
public import SpotifyLinkServices
package import SpotifyWebAPI

/// A children's app's parental gate (``SpotifyLink/parentalGate``): what the app's sheet shows while
/// an adult is asked, and the answer it takes. The package asks it before the sign-in sheet opens,
/// before any link out to Spotify, and before the picker lists the account's playlists, when the
/// configuration sets `parentalGate` (`ParentalGate.question`); the app binds a sheet to
/// ``challenge`` and writes no check of its own (<doc:ChildrensApps> shows the sheet).
///
/// The question is a product of two numbers from 2 to 9 written in words, in the user's language
/// ("what is seven times eight?"): a child who cannot read cannot answer it. Three wrong answers
/// close the gate, as cancelling does; each wrong answer asks a new question. Two moments waiting
/// at once (a double tap) share one question. A task cancelled while it waits (a view that went
/// away) is refused, and the question goes when no one waits for it any more.
@MainActor @Observable
public final class ParentalGateModel {
    /// One question put to an adult.
    public struct Challenge: Sendable, Hashable, Identifiable {
        /// Distinct for each question asked, a new one after a wrong answer included.
        public let id: Int
        /// What the gate guards now.
        public let purpose: ParentalGate.Purpose
        /// Why an adult is asked (``SpotifyMessage/parentalGateReason(_:)``).
        public var reason: SpotifyMessage { .parentalGateReason(purpose) }
        /// The question (``SpotifyMessage/parentalGateQuestion(_:_:)``).
        public let question: SpotifyMessage
        /// The answer it takes.
        fileprivate let product: Int
    }

    /// The question waiting for an adult's answer; `nil` when none waits. Show it in a sheet.
    public private(set) var challenge: Challenge?
    /// Set after a wrong answer (``SpotifyMessage/parentalGateWrongAnswer``), cleared by the next
    /// question's right answer or by a new challenge.
    public private(set) var note: SpotifyMessage?
    /// Whether a question is shown: a sheet binds to it (`.sheet(isPresented: $gate.isAsking)` of a
    /// `@Bindable` gate). Set to `false` (the sheet dismissed), the gate closes, as ``cancel()``.
    public var isAsking: Bool {
        get { challenge != nil }
        set { if !newValue { cancel() } }
    }
    /// Whether a gate is set: with none, every moment passes and ``challenge`` stays `nil`.
    public var isEnabled: Bool { gate != nil }

    private let gate: ParentalGate?
    private let numbers: @MainActor () -> (Int, Int)
    private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var nextWaiter = 0
    private var nextChallenge = 0
    private var wrongAnswers = 0

    /// The most wrong answers before the gate closes.
    package static let allowedWrongAnswers = 3

    /// The gate `gate` describes, its questions drawn at random.
    package convenience init(gate: ParentalGate?) {
        self.init(gate: gate) { (Int.random(in: 2...9), Int.random(in: 2...9)) }
    }

    /// ``init(gate:)`` with the numbers of each question drawn by `numbers` (tests).
    package init(gate: ParentalGate?, numbers: @escaping @MainActor () -> (Int, Int)) {
        self.gate = gate
        self.numbers = numbers
    }

    /// Takes an adult's answer to ``challenge``, in ASCII or full-width digits: right, every moment
    /// waiting passes; wrong, a new question is asked, and the third wrong answer closes the gate.
    public func answer(_ text: String) {
        guard let current = challenge else { return }
        if Self.number(in: text) == current.product {
            finish(passed: true)
            return
        }
        wrongAnswers += 1
        guard wrongAnswers < Self.allowedWrongAnswers else {
            finish(passed: false)
            return
        }
        note = .parentalGateWrongAnswer
        challenge = makeChallenge(for: current.purpose)
    }

    /// Closes the gate: every moment waiting is refused (the sheet was dismissed).
    public func cancel() {
        guard challenge != nil else { return }
        finish(passed: false)
    }

    /// Whether an adult passed the gate for `purpose`: at once with no gate; otherwise once the
    /// app's own gate answers, or the question is answered, cancelled or the caller's task is.
    package func pass(_ purpose: ParentalGate.Purpose) async -> Bool {
        switch gate?.kind {
        case nil:
            return true
        case .custom(let check)?:
            let passed = await check(purpose)
            return passed && !Task.isCancelled
        case .question?:
            guard !Task.isCancelled else { return false }
            if challenge == nil {
                wrongAnswers = 0
                note = nil
                challenge = makeChallenge(for: purpose)
            }
            let waiter = nextWaiter
            nextWaiter += 1
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if Task.isCancelled {
                        continuation.resume(returning: false)
                        leave(waiter)
                    } else {
                        waiters[waiter] = continuation
                    }
                }
            } onCancel: {
                Task { @MainActor in self.leave(waiter, resuming: true) }
            }
        }
    }

    /// Moments waiting now (tests).
    package var waitingCount: Int { waiters.count }

    /// Removes `waiter` (its task was cancelled), refusing it when it still waits; the question goes
    /// when no one waits for it.
    private func leave(_ waiter: Int, resuming: Bool = false) {
        if let continuation = waiters.removeValue(forKey: waiter), resuming {
            continuation.resume(returning: false)
        }
        if waiters.isEmpty, challenge != nil {
            challenge = nil
            note = nil
        }
    }

    private func finish(passed: Bool) {
        let waiting = waiters
        waiters = [:]
        challenge = nil
        note = nil
        wrongAnswers = 0
        for continuation in waiting.values { continuation.resume(returning: passed) }
    }

    private func makeChallenge(for purpose: ParentalGate.Purpose) -> Challenge {
        let (first, second) = numbers()
        nextChallenge += 1
        return Challenge(
            id: nextChallenge, purpose: purpose, question: .parentalGateQuestion(first, second),
            product: first * second)
    }

    /// The number an answer holds, in ASCII or full-width digits (a Japanese keyboard's), spaces
    /// around it ignored; `nil` for anything else.
    static func number(in text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.map { scalar -> Character? in
            switch scalar.value {
            case 0x30...0x39: Character(scalar)
            case 0xFF10...0xFF19: Character(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
            default: nil
            }
        }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0 != nil }) else { return nil }
        return Int(String(digits.compactMap { $0 }))
    }
}

extension OpenInSpotify {
    /// This link, opened only once `gate` passes (`ParentalGate.Purpose.openSpotify`); unchanged
    /// when the app has no gate.
    @MainActor package func gated(by gate: ParentalGateModel) -> OpenInSpotify {
        guard gate.isEnabled else { return self }
        var gated = self
        gated.gate = { @MainActor in await gate.pass(.openSpotify) }
        return gated
    }
}
