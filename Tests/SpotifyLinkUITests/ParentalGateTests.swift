import Foundation
@_spi(Storage) import PlaylistLinks
import SpotifyEmulator
import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyTesting
import SpotifyWebAPI
import Synchronization
import Testing

@testable import SpotifyLinkUI

/// A children's app on a parent's account (issue 69 §1): with a parental gate set, no sign-in
/// sheet opens, no link out to Spotify opens and the picker lists nothing before an adult passes
/// it; a cancelled wait is refused.
@MainActor
@Suite("The parental gate", .serialized)
struct ParentalGateTests {
    /// The answer an adult gives to `challenge`.
    static func answer(to challenge: ParentalGateModel.Challenge) throws -> String {
        guard case .parentalGateQuestion(let first, let second) = challenge.question else {
            throw HarnessError("not a question: \(challenge.question)")
        }
        return "\(first * second)"
    }

    /// Waits for the gate's question for `purpose`, failing loudly when none comes.
    static func question(
        _ gate: ParentalGateModel, for purpose: ParentalGate.Purpose
    ) async throws -> ParentalGateModel.Challenge {
        try await waitUntil("the gate asks an adult before \(purpose)") { gate.challenge?.purpose == purpose }
        return try #require(gate.challenge)
    }

    /// Connects through the gate, as an adult does.
    static func connectedThroughTheGate() async throws -> UIHarness {
        let harness = try await UIHarness(parentalGate: .question)
        harness.connection.connect(using: harness.browser)
        let gate = harness.spotify.parentalGate
        gate.answer(try answer(to: try await question(gate, for: .signIn)))
        await harness.connection.waitForConnect()
        guard harness.connection.isConnected else { throw HarnessError("not connected: \(harness.connection.phase)") }
        return harness
    }

    @Test func noSignInSheetOpensBeforeAnAdultAnswers() async throws {
        let harness = try await UIHarness(parentalGate: .question)
        let gate = harness.spotify.parentalGate
        #expect(gate.isEnabled && gate.challenge == nil)
        harness.connection.connect(using: harness.browser)
        let first = try await Self.question(gate, for: .signIn)
        #expect(harness.signIns.value == 0)
        #expect(harness.connection.phase == .connecting)
        // A wrong answer asks another question; still no sheet.
        gate.answer("1")
        #expect(gate.note == .parentalGateWrongAnswer)
        let second = try #require(gate.challenge)
        #expect(second.id != first.id && second.purpose == .signIn)
        // The sheet is dismissed: the sign-in ends where it was, with nothing to report.
        gate.cancel()
        await harness.connection.waitForConnect()
        #expect(harness.connection.phase == .disconnected)
        #expect(harness.connection.message == nil)
        #expect(harness.signIns.value == 0)
        #expect(gate.challenge == nil && gate.note == nil)
        // The right answer, in a Japanese keyboard's full-width digits, opens the sheet once.
        harness.connection.connect(using: harness.browser)
        let third = try await Self.question(gate, for: .signIn)
        let fullWidth = String(
            try Self.answer(to: third).unicodeScalars.map { Character(Unicode.Scalar($0.value - 0x30 + 0xFF10)!) })
        gate.answer(fullWidth)
        await harness.connection.waitForConnect()
        #expect(harness.connection.isConnected)
        #expect(harness.signIns.value == 1)
        await harness.stop()
    }

    @Test func threeWrongAnswersCloseTheGate() async throws {
        let harness = try await UIHarness(parentalGate: .question)
        let gate = harness.spotify.parentalGate
        harness.connection.connect(using: harness.browser)
        _ = try await Self.question(gate, for: .signIn)
        for _ in 1...ParentalGateModel.allowedWrongAnswers { gate.answer("not a number") }
        await harness.connection.waitForConnect()
        #expect(gate.challenge == nil)
        #expect(harness.connection.phase == .disconnected)
        #expect(harness.signIns.value == 0)
        await harness.stop()
    }

    @Test func noLinkOutOpensBeforeAnAdultAnswers() async throws {
        let harness = try await Self.connectedThroughTheGate()
        let gate = harness.spotify.parentalGate
        let (record, deep) = try await harness.linkDeepWork(to: "1")
        let card = harness.spotify.card(for: record)
        await card.load()
        let link = try #require(card.openInSpotify())
        #expect(link == OpenInSpotify(.playlist(deep)))
        let opened = Lock<[URL]>([])
        let refused = Task {
            await link.open { url in
                opened.withLock { $0.append(url) }; return true
            }
        }
        _ = try await Self.question(gate, for: .openSpotify)
        #expect(opened.withLock { $0 }.isEmpty)
        gate.cancel()
        #expect(await refused.value == nil)
        #expect(opened.withLock { $0 }.isEmpty)
        // Passed, it opens the first URL of the platform's order.
        let passed = Task {
            await link.open { url in
                opened.withLock { $0.append(url) }; return true
            }
        }
        gate.answer(try Self.answer(to: try await Self.question(gate, for: .openSpotify)))
        #expect(await passed.value == link.urls.first)
        #expect(opened.withLock { $0 } == [link.urls[0]])
        // Every model's link goes through it: the song search's, the learner's, the routine's.
        let track = try #require(try await harness.client.searchTracks("wild", limit: 1, offset: 0).items.first)
        var links = [
            harness.spotify.songSearch().openInSpotify(track), harness.spotify.learner().openInSpotify(track),
        ]
        let indicator = harness.spotify.nowPlaying()
        indicator.start(routine: .playlist(deep))
        links.append(indicator.openInSpotify())
        indicator.stop()
        for link in links {
            let waiting = Task { try await #require(link).open { _ in true } }
            _ = try await Self.question(gate, for: .openSpotify)
            gate.cancel()
            #expect(try await waiting.value == nil)
        }
        await harness.stop()
    }

    @Test func thePickerListsNothingBeforeAnAdultAnswers() async throws {
        let harness = try await Self.connectedThroughTheGate()
        let gate = harness.spotify.parentalGate
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        let picker = harness.spotify.picker()
        let appearing = Task { await picker.appear() }
        _ = try await Self.question(gate, for: .choosePlaylist)
        // Typing while the question waits searches nothing and lists nothing.
        picker.query = "focus"
        #expect(picker.results.isEmpty)
        gate.cancel()
        await appearing.value
        #expect(picker.phase == .failed(.parentalGateReason(.choosePlaylist)))
        #expect(picker.results.isEmpty)
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before)
        // Passed, the picker lists the account's playlists.
        let again = Task { await picker.appear() }
        gate.answer(try Self.answer(to: try await Self.question(gate, for: .choosePlaylist)))
        await again.value
        #expect(picker.results.contains { $0.name == "Morning Focus" })
        await harness.stop()
    }

    /// The picker's view goes away while the question shows (SwiftUI cancels its `.task`): the
    /// appear ends having listed and sent nothing, the question goes, and the next appear asks
    /// again before it lists.
    @Test func aPickerCancelledAtTheGateListsNothingAndAsksAgain() async throws {
        let harness = try await Self.connectedThroughTheGate()
        let gate = harness.spotify.parentalGate
        let before = await harness.emulator.totalRequests(prefix: "GET /v1/")
        let picker = harness.spotify.picker()
        let appearing = Task { await picker.appear() }
        _ = try await Self.question(gate, for: .choosePlaylist)
        appearing.cancel()
        await appearing.value
        try await waitUntil("the question gone with its only waiter") {
            gate.challenge == nil && gate.waitingCount == 0
        }
        #expect(picker.results.isEmpty)
        #expect(picker.phase == .failed(.parentalGateReason(.choosePlaylist)))
        #expect(await harness.emulator.totalRequests(prefix: "GET /v1/") == before)
        let again = Task { await picker.appear() }
        gate.answer(try Self.answer(to: try await Self.question(gate, for: .choosePlaylist)))
        await again.value
        #expect(picker.results.contains { $0.name == "Morning Focus" })
        await harness.stop()
    }

    /// SwiftUI cancels a view's task when it goes away: a wait cancelled before or while the
    /// question is shown is refused, and the question goes with the last one waiting.
    @Test func aCancelledWaitIsRefusedAndTheQuestionGoes() async throws {
        let harness = try await UIHarness(parentalGate: .question)
        let gate = harness.spotify.parentalGate
        // Cancelled before it asks.
        let early = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return await gate.pass(.openSpotify)
        }
        #expect(await early.value == false)
        #expect(gate.challenge == nil)
        // Cancelled while the question is shown; a second moment waiting shares the question.
        let first = Task { await gate.pass(.openSpotify) }
        let challenge = try await Self.question(gate, for: .openSpotify)
        let second = Task { await gate.pass(.openSpotify) }
        try await waitUntil("both moments wait") { gate.waitingCount == 2 }
        #expect(gate.challenge == challenge)
        first.cancel()
        #expect(await first.value == false)
        try await waitUntil("the cancelled moment leaves") { gate.waitingCount == 1 }
        #expect(gate.challenge == challenge, "the question stays while another moment waits")
        second.cancel()
        #expect(await second.value == false)
        try await waitUntil("the question goes with the last one waiting") { gate.challenge == nil }
        // A sign-in cancelled while the question is shown opens no sheet.
        harness.connection.connect(using: harness.browser)
        _ = try await Self.question(gate, for: .signIn)
        harness.connection.cancelConnect()
        await harness.connection.waitForConnect()
        #expect(harness.connection.phase == .disconnected)
        #expect(harness.signIns.value == 0)
        #expect(gate.challenge == nil)
        await harness.stop()
    }

    /// The app's own gate (its parent area's PIN) is asked with the moment it guards.
    @Test func anAppsOwnGateIsAskedWithTheMomentItGuards() async throws {
        let asked = Lock<[ParentalGate.Purpose]>([])
        let harness = try await UIHarness(
            parentalGate: .custom { purpose in
                asked.withLock { $0.append(purpose) }
                return purpose == .signIn
            })
        try await harness.connect()
        #expect(harness.signIns.value == 1)
        let (record, _) = try await harness.linkDeepWork(to: "1")
        let card = harness.spotify.card(for: record)
        await card.load()
        #expect(await card.openInSpotify()?.open { _ in true } == nil)
        let picker = harness.spotify.picker()
        await picker.appear()
        #expect(picker.phase == .failed(.parentalGateReason(.choosePlaylist)))
        #expect(asked.withLock { $0 } == [.signIn, .openSpotify, .choosePlaylist])
        #expect(harness.spotify.parentalGate.challenge == nil)
        await harness.stop()
    }

    /// With no gate, nothing is asked: the sign-in and links open at once.
    @Test func withoutAGateNothingIsAsked() async throws {
        let harness = try await UIHarness.connected()
        #expect(!harness.spotify.parentalGate.isEnabled)
        let (record, _) = try await harness.linkDeepWork(to: "1")
        let card = harness.spotify.card(for: record)
        await card.load()
        #expect(await card.openInSpotify()?.open { _ in true } != nil)
        #expect(harness.spotify.parentalGate.challenge == nil)
        await harness.stop()
    }

    @Test func answersAreReadInEitherWidthOfDigits() {
        #expect(ParentalGateModel.number(in: " 56 ") == 56)
        #expect(ParentalGateModel.number(in: "５６") == 56)
        #expect(ParentalGateModel.number(in: "fifty-six") == nil)
        #expect(ParentalGateModel.number(in: "") == nil)
        #expect(ParentalGateModel.number(in: "99999999999999999999") == nil)
    }

    @Test func theQuestionIsWordedInBothLanguages() {
        let english = SpotifyText(locale: Locale(identifier: "en_US"))
        let japanese = SpotifyText(locale: Locale(identifier: "ja_JP"))
        #expect(english(.parentalGateQuestion(7, 8)).contains("what is seven times eight?"))
        #expect(japanese(.parentalGateQuestion(7, 8)).contains("七かける八"))
        #expect(english(.parentalGateReason(.signIn)) == "A grown-up is needed to connect Spotify.")
        #expect(japanese(.parentalGateReason(.openSpotify)).contains("Spotifyを開くには"))
        // Neither wording writes the answer's digits.
        #expect(!english(.parentalGateQuestion(7, 8)).contains("56"))
        #expect(!japanese(.parentalGateQuestion(7, 8)).contains("56"))
    }
}
