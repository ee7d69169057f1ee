import Foundation
@_spi(Storage) import PlaylistLinks
@_spi(Storage) import SpotifyAuth
import SpotifyLinkUI
@_spi(Transport) import SpotifyWebAPI
import Testing

/// Text an app can translate: every message the models carry has English and Japanese words, times
/// follow the locale, and an app's own words replace the package's.
@Suite("The models' messages in English and Japanese")
struct TextTests {
    static let english = SpotifyText(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!)
    static let japanese = SpotifyText(locale: Locale(identifier: "ja_JP"), timeZone: TimeZone(identifier: "UTC")!)

    /// The samples cover every case: adding one without a sample fails here.
    /// The capability report's findings, worded: an unlisted user's says where the fix is, in
    /// English and Japanese; a lapsed Premium is the owner's.
    @Test func theCapabilityFindingsAreWorded() {
        let message = SpotifyMessage(CapabilityReport.Finding.userNotListed)
        #expect(SpotifyText(locale: Locale(identifier: "en_US"))(message).contains("User Management"))
        #expect(SpotifyText(locale: Locale(identifier: "ja_JP"))(message).contains("User Management"))
        #expect(SpotifyMessage(CapabilityReport.Finding.ownerPremiumLapsed) == .ownerPremiumRequired)
    }

    @Test func theSamplesCoverEveryMessage() {
        #expect(Set(SpotifyMessage.samples.map(\.coverageIndex)) == Set(0..<SpotifyMessage.coverageCount))
    }

    @Test(arguments: SpotifyMessage.samples)
    func everyMessageHasEnglishAndJapaneseText(_ message: SpotifyMessage) {
        let english = Self.english(message)
        let japanese = Self.japanese(message)
        #expect(!english.isEmpty && !japanese.isEmpty)
        #expect(english != japanese, "\(message) is not translated")
        // Japanese text is written in Japanese: kana or kanji in every message.
        #expect(
            japanese.unicodeScalars.contains {
                (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value)
            }, "\(japanese)")
        #expect(!english.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) } || english.contains("さくら"))
    }

    @Test func theLanguageFollowsTheLocale() {
        #expect(SpotifyText(locale: Locale(identifier: "ja_JP")).language == .japanese)
        #expect(SpotifyText(locale: Locale(identifier: "ja")).language == .japanese)
        #expect(SpotifyText(locale: Locale(identifier: "en_GB")).language == .english)
        #expect(SpotifyText(locale: Locale(identifier: "de_DE")).language == .english)
    }

    /// Times follow the locale's 12- or 24-hour clock, not a fixed "HH:mm".
    @Test func timesFollowTheLocale() {
        // 2026-09-22 16:20 UTC.
        let afternoon = Date(timeIntervalSince1970: 1_790_094_000)
        let utc = TimeZone(identifier: "UTC")!
        let american = SpotifyText(locale: Locale(identifier: "en_US"), timeZone: utc).time(afternoon)
        let british = SpotifyText(locale: Locale(identifier: "en_GB"), timeZone: utc).time(afternoon)
        let japanese = SpotifyText(locale: Locale(identifier: "ja_JP"), timeZone: utc).time(afternoon)
        #expect(american.contains("4:20") && american.contains("PM"), "\(american)")
        #expect(british == "16:20", "\(british)")
        #expect(japanese == "16:20", "\(japanese)")
        #expect(Self.english(.quotaExceeded(until: afternoon)).contains(american))
        #expect(Self.japanese(.quotaExceeded(until: afternoon)).contains("16:20ごろ"))
        let tokyo = SpotifyText(locale: Locale(identifier: "ja_JP"), timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo.time(afternoon) == "1:20", "the user's time zone: \(tokyo.time(afternoon))")
    }

    @Test func durationsAndSongsInBothLanguages() {
        #expect(Self.english(.playlistSummary(tracks: 12, duration: .seconds(2880))) == "12 tracks · 48 min")
        #expect(Self.japanese(.playlistSummary(tracks: 12, duration: .seconds(2880))) == "12曲・48分")
        #expect(Self.japanese(.playlistSummary(tracks: nil, duration: .seconds(10_200))) == "2時間50分")
        #expect(Self.english(.songs(4.4)) == "4.5 songs")
        #expect(Self.japanese(.songs(4.4)) == "4.5曲")
        #expect(Self.japanese(.songs(0.2)) == "1曲未満")
        #expect(Self.japanese(.routineSummary(songs: 3)) == "3曲を聴きました。")
        #expect(Self.english(.routineSummary(songs: nil)) == "No music was playing during this routine.")
        #expect(Self.english(.explicitSongs(3)) == "3 explicit songs")
        #expect(Self.english(.explicitSongs(1)) == "1 explicit song")
        #expect(Self.japanese(.explicitSongs(3)) == "不適切な表現を含む曲：3曲")
        #expect(Self.english(.accountTypeNotAvailable) == "Not available")
        // What VoiceOver reads: words, not the screen's abbreviations and capitals.
        #expect(Self.english(.playlistSummarySpoken(tracks: 12, duration: .seconds(2880))) == "12 tracks, 48 minutes")
        #expect(
            Self.english(.playlistSummarySpoken(tracks: 1, duration: .seconds(10_200))) == "1 track, 2 hours 50 minutes"
        )
        #expect(Self.english(.playlistSummarySpoken(tracks: nil, duration: .seconds(3600))) == "1 hour")
        #expect(Self.japanese(.playlistSummarySpoken(tracks: 12, duration: .seconds(2880))) == "12曲、48分")
        #expect(Self.english(.coverDescription(playlist: "Deep Work")) == "Cover of the playlist Deep Work")
        #expect(Self.japanese(.coverDescription(playlist: "Deep Work")) == "プレイリスト「Deep Work」のカバー")
        #expect(Self.english(.spotifyButtonSpoken(.openSpotify)) == "Open Spotify")
        #expect(Self.japanese(.spotifyButtonSpoken(.openSpotify)) == "Spotifyを開く")
        #expect(
            Self.english(.playlistRowSpoken(name: "Lo-Fi", owner: "Lofi Lab", tracks: 80, access: .detailsOnly))
                == "Lo-Fi, by Lofi Lab, 80 tracks, Followed: name and cover only")
        #expect(
            Self.japanese(.playlistRowSpoken(name: "Lo-Fi", owner: nil, tracks: 80, access: .complete))
                == "Lo-Fi、80曲、曲と再生時間")
        #expect(Self.japanese(.accountTypeNotAvailable) == "取得できません")
    }

    /// The app's own words, for the messages it chooses (from a String Catalog, say); the package's
    /// for the rest.
    @Test func anAppReplacesAnyMessageItChooses() {
        let text = SpotifyText(locale: Locale(identifier: "en_US")) { message in
            if case .offline = message { "Kein Netz." } else { nil }
        }
        #expect(text(.offline) == "Kein Netz.")
        #expect(text(.noSavedPlaylists) == "No saved playlists yet.")
    }

    /// What the models say for each kind of error: a value, never a sentence of the error's.
    @Test func errorsBecomeMessages() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let reset = now.addingTimeInterval(3600)
        #expect(SpotifyMessage(SpotifyAPIError.transport("no route"), now: now) == .offline)
        #expect(
            SpotifyMessage(SpotifyAPIError(code: .quotaExceeded, status: 429, message: "", retryAt: reset), now: now)
                == .quotaExceeded(until: reset))
        #expect(
            SpotifyMessage(SpotifyAPIError(code: .rateLimited, message: "", retryAfter: .seconds(30)), now: now)
                == .rateLimited(until: now.addingTimeInterval(30)))
        #expect(
            SpotifyMessage(SpotifyAPIError(code: .missingScope, message: "", scope: "user-top-read"), now: now)
                == .missingScope("user-top-read"))
        #expect(
            SpotifyMessage(SpotifyAPIError(code: .userPremiumRequired, message: ""), now: now) == .userPremiumRequired)
        #expect(SpotifyMessage(OAuthError(code: .accessDenied, message: ""), now: now) == nil)
        #expect(SpotifyMessage(OAuthError(code: .systemTooOld, message: ""), now: now) == .updateSystemToConnect)
        #expect(SpotifyMessage(CancellationError(), now: now) == nil)
        #expect(SpotifyMessage(TokenStoreError(code: .unavailable, message: ""), now: now) == .deviceLocked)
        #expect(SpotifyMessage(TokenStoreError(code: .misconfigured, message: ""), now: now) == .appMisconfigured)
        #expect(SpotifyMessage(PlaylistAvailability.notFound) == .playlistDeleted)
        #expect(SpotifyMessage(PlaylistAvailability.available) == nil)
    }
}
