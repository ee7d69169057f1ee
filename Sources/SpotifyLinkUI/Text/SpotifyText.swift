public import Foundation
import PlaylistLinks
import SpotifyAuth
import SpotifyLinkSupport

/// Words a ``SpotifyMessage`` for people: in English or Japanese (the package's own text, chosen by
/// the locale's language), with times in the user's locale and 12/24-hour setting, or in the app's
/// own words for any message it chooses.
///
/// ```swift
/// let text = SpotifyText()                                 // the user's language and locale
/// Text(text(state.message))
/// // The app's own words for some messages, e.g. from its String Catalog; nil keeps the package's:
/// let custom = SpotifyText { message in
///     if case .offlineShowingSavedPlaylists = message { String(localized: "offline.saved") } else { nil }
/// }
/// ```
public struct SpotifyText: Sendable {
    /// The languages the package has text for.
    public enum Language: String, Sendable, CaseIterable {
        /// English, the default.
        case english = "en"
        /// Japanese.
        case japanese = "ja"
    }

    /// The locale times and numbers are formatted in.
    public var locale: Locale
    /// The time zone times are shown in.
    public var timeZone: TimeZone
    /// The language of the package's own text: Japanese when the locale's language is, else English.
    public var language: Language
    private let custom: (@Sendable (SpotifyMessage) -> String?)?

    /// Text in `locale`'s language (Japanese or English), times in `locale` and `timeZone`; `custom`
    /// returns the app's own words for a message, or `nil` to keep the package's.
    public init(
        locale: Locale = .autoupdatingCurrent, timeZone: TimeZone = .autoupdatingCurrent,
        custom: (@Sendable (SpotifyMessage) -> String?)? = nil
    ) {
        self.locale = locale
        self.timeZone = timeZone
        self.language = locale.language.languageCode?.identifier == "ja" ? .japanese : .english
        self.custom = custom
    }

    /// The words for `message`.
    public func callAsFunction(_ message: SpotifyMessage) -> String {
        if let words = custom?(message) { return words }
        return language == .japanese ? japanese(message) : english(message)
    }

    /// A time of day in the user's locale and 12/24-hour setting: "4:20 AM", "04:20", "4:20".
    public func time(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, timeZone: timeZone))
    }

    /// A duration to the minute: "48 min", "2 h 50 min"; "48分", "2時間50分".
    public func duration(_ duration: Duration) -> String {
        let minutes = Int((max(duration.seconds, 0) / 60).rounded())
        guard language == .japanese else { return PlaylistMetadata.durationText(duration) }
        return minutes >= 60 ? "\(minutes / 60)時間\(minutes % 60)分" : "\(minutes)分"
    }

    /// Songs rounded to halves: "4.5 songs", "less than 1 song"; "4.5曲", "1曲未満".
    public func songs(_ songs: Double) -> String {
        guard language == .japanese else { return SongTime.label(songs) }
        guard songs.isFinite, songs > 0 else { return "0曲" }
        let halves = (songs * 2).rounded() / 2
        if halves < 1 { return "1曲未満" }
        let whole = halves.rounded(.down)
        return halves == whole ? "\(Int(whole))曲" : "\(Int(whole)).5曲"
    }

    /// Songs rounded to a whole number, at least 1 ("of ≈ 6"): a count on the Lock Screen, not a measure.
    private static func wholeSongs(_ songs: Double) -> Int {
        guard songs.isFinite, songs > 1 else { return 1 }
        return Int(min(songs, 10_000).rounded())
    }

    // MARK: - English

    private func english(_ message: SpotifyMessage) -> String {
        let revoke = AuthorizationServer.revokeAccessPage.absoluteString
        switch message {
        case .offline: return "Spotify can't be reached. Check the connection and try again."
        case .rateLimited(let until): return "Spotify asked for a short pause. Try again after \(time(until))."
        case .quotaExceeded(let until):
            return "This app has used its Spotify requests for today. They come back around \(time(until)); "
                + "saved playlists still show."
        case .backgroundBudgetSpent(let until):
            return "Updates from Spotify pause until \(time(until)) to save requests."
        case .spotifyUnavailable: return "Spotify had a problem. Try again later."
        case .userNotRegistered:
            return "This Spotify account isn't on the app's list of users. Ask the app's developer to add it."
        case .ownerPremiumRequired:
            return "Spotify has paused this app for everyone. It works again once its developer renews Spotify Premium."
        case .userPremiumRequired: return "This needs Spotify Premium on your account."
        case .missingScope(let scope):
            return "Spotify needs your permission to \(Self.englishScope(scope)). Connect again to allow it."
        case .notFound: return "Spotify has no such item; it may have been deleted."
        case .forbidden: return "Spotify doesn't let this account see that."
        case .signInEnded(.expired):
            return "Spotify ended this sign-in after six months. Connect again to continue."
        case .signInEnded(.revoked):
            return "Spotify no longer accepts this sign-in (access may have been removed). Connect again to continue."
        case .signInEnded(.unreadable): return "The saved Spotify sign-in couldn't be read. Connect again."
        case .signInEnded(.removedElsewhere): return "The Spotify sign-in was removed. Connect again to continue."
        case .signInEndsSoon(let days):
            return "Spotify ends this sign-in in \(days) day\(days == 1 ? "" : "s"). Connect again to keep access."
        case .signInNotSaved: return "The Spotify sign-in couldn't be saved on this device. Try again."
        case .deviceLocked:
            return "The device is locked. The Spotify sign-in is kept and works again once the device is unlocked."
        case .appMisconfigured: return "This app isn't set up for Spotify correctly. Please tell its developer."
        case .signInFailed: return "Connecting to Spotify didn't work. Try again."
        case .updateSystemToConnect:
            return "Connecting to Spotify needs iOS 17.4 or macOS 14.4 or later. Update this device, then try again."
        case .connectToSearch: return "Connect Spotify to search for songs."
        case .disconnectExplanation(let store, keepingDetails: false):
            return "Disconnecting removes the Spotify sign-in from \(Self.englishPlace(store)), and every detail saved "
                + "from Spotify from this device: playlist names, owners, covers, track counts and durations. Your "
                + "records keep their linked playlists, which still open in Spotify; connect again to see their "
                + "details. To end this app's access on Spotify too, remove it at \(revoke); a token already issued "
                + "works for up to an hour."
        case .disconnectExplanation(let store, keepingDetails: true):
            return "Disconnecting removes the Spotify sign-in from \(Self.englishPlace(store)). Your linked playlists "
                + "and their saved names, covers, track counts and durations stay on this device. To end this app's "
                + "access on Spotify too, remove it at \(revoke); a token already issued works for up to an hour."
        case .disconnected(let store, keptDetails: false):
            return "Disconnected: the Spotify sign-in was removed from \(Self.englishPlace(store)), and the details "
                + "saved from Spotify from this device; your linked playlists stay. To end this app's access on "
                + "Spotify too, remove it at \(revoke)."
        case .disconnected(let store, keptDetails: true):
            return "Disconnected: the Spotify sign-in was removed from \(Self.englishPlace(store)); the saved playlist "
                + "details stay on this device. To end this app's access on Spotify too, remove it at \(revoke)."
        case .playlistDeleted:
            return "This playlist was deleted on Spotify; the details below are what was saved."
        case .playlistNoLongerAccessible:
            return "This playlist is no longer accessible on Spotify; the details below are what was saved."
        case .playlistOwnedBySpotify:
            return "Spotify doesn't share the details of its own playlists (such as Today's Top Hits) with apps. "
                + "It still opens in Spotify."
        case .playlistSongsHidden:
            return "You follow this playlist but don't own it, so Spotify doesn't show this app its songs and its "
                + "length is unknown. To see them, add its songs to a playlist of your own in Spotify, then pick that one."
        case .playlistAccess(.complete): return "Songs and length"
        case .playlistAccess(.detailsOnly): return "Followed: name and cover only"
        case .playlistAccess(.openOnly): return "Spotify's own: opens in Spotify only"
        case .playlistDetailsPending: return "Details will appear once Spotify has been reached."
        case .playlistDetailsNeedConnection:
            return "Connect Spotify to see this playlist again. It still opens in Spotify."
        case .coverDescription(let name?): return "Cover of the playlist \(name)"
        case .coverDescription(nil): return "Playlist cover"
        case .playlistSummarySpoken(let tracks, let length):
            let parts = [tracks.map { "\($0) track\($0 == 1 ? "" : "s")" }, length.map(Self.englishSpokenDuration)]
                .compactMap { $0 }
            return parts.isEmpty ? "Track count and duration unknown" : parts.joined(separator: ", ")
        case .playlistRowSpoken(let name, let owner, let tracks, let access):
            let parts = [
                name, owner.map { "by \($0)" }, tracks.map { "\($0) track\($0 == 1 ? "" : "s")" },
                access.map { english(.playlistAccess($0)) },
            ]
            return parts.compactMap { $0 }.joined(separator: ", ")
        case .spotifyButtonSpoken(let label):
            switch label {
            case .openSpotify: return "Open Spotify"
            case .playOnSpotify: return "Play on Spotify"
            case .listenOnSpotify: return "Listen on Spotify"
            case .getSpotifyFree: return "Get Spotify free"
            }
        case .parentalGateReason(.signIn): return "A grown-up is needed to connect Spotify."
        case .parentalGateReason(.openSpotify): return "A grown-up is needed to open Spotify."
        case .parentalGateReason(.choosePlaylist): return "A grown-up is needed to choose a playlist."
        case .parentalGateQuestion(let first, let second):
            return "For a grown-up: what is \(Self.englishNumber(first)) times \(Self.englishNumber(second))? "
                + "Type the answer in numbers."
        case .parentalGateWrongAnswer: return "That isn't right. Here is another question."
        case .explicitSongs(let count): return count == 1 ? "1 explicit song" : "\(count) explicit songs"
        case .explicitItem: return "Explicit"
        case .noExplicitSongsFilter: return "No explicit songs"
        case .accountTypeNotAvailable: return "Not available"
        case .extensionsNeedApp: return "Open the app to connect Spotify."
        case .playlistDetailsExpired:
            return "The saved details of this playlist were removed after 90 days without an update, as Spotify asks. "
                + "Connect to Spotify to see them again; the playlist still opens in Spotify."
        case .couldNotRefresh: return "Couldn't refresh from Spotify; showing saved details."
        case .savedPlaylistUnreadable: return "The saved playlist couldn't be read on this device."
        case .noSavedPlaylists: return "No saved playlists yet."
        case .noPlaylistsMatch(let text): return "No playlists match “\(text)”."
        case .offlineShowingSavedPlaylists: return "Spotify can't be reached; showing your saved playlists."
        case .unavailablePlaylists(let count):
            return count == 1
                ? "1 playlist in your library is no longer available on Spotify."
                : "\(count) playlists in your library are no longer available on Spotify."
        case .playlistSummary(let tracks, let length):
            let parts = [tracks.map { "\($0) track\($0 == 1 ? "" : "s")" }, length.map(duration)].compactMap { $0 }
            return parts.isEmpty ? "Track count and duration unknown" : parts.joined(separator: " · ")
        case .addAccountToUserList:
            return
                "This Spotify account isn't on the app's list of users. In Spotify's developer dashboard, open the app, "
                + "add the account's email under User Management (five users at most), then connect again."
        case .connectToCheck: return "Connect to Spotify to see what this app may do."
        case .ownPlaylistSongsHidden:
            return "Spotify didn't show the songs of your own playlist, so lengths and song times stay unknown. "
                + "Try again later; if it stays so, check the app's settings in Spotify's developer dashboard."
        case .quotaMostlySpent(let spent, let share):
            return "This device has sent \(spent) of its \(share) Spotify requests for today. "
                + "Updates slow down until the count falls; what you open yourself still goes first."
        case .noSongsMatch(let text): return "No songs match “\(text)”."
        case .songs(let count): return songs(count)
        case .songTimeUnknown(.songsHidden):
            return "Songs can't be counted: Spotify doesn't show this app the songs of a playlist you only follow."
        case .songTimeUnknown(.spotifyOwned):
            return "Songs can't be counted: Spotify shows apps nothing of its own playlists."
        case .songTimeUnknown(.unavailable): return "Songs can't be counted: this playlist is no longer on Spotify."
        case .songTimeUnknown(.notReadYet): return "Songs will be counted once Spotify has been reached."
        case .songTimeUnknown(.empty): return "This playlist has no songs to count."
        case .routineSummary(let count?) where count > 0: return "You got through \(songs(count))."
        case .routineSummary: return "No music was playing during this routine."
        case .noSavedTracks: return "No saved songs yet."
        case .noTopTracks: return "Spotify has no top songs for you yet."
        case .routineSong(let song?, let songs?): return "Song \(song) of ≈ \(Self.wholeSongs(songs))"
        case .routineSong(let song?, nil): return "Song \(song)"
        case .routineSong(nil, let songs?): return "Not playing · about \(Self.wholeSongs(songs)) songs"
        case .routineSong(nil, nil): return "Not playing"
        case .liveActivitiesOff:
            return
                "Live Activities are off for this app. To follow the routine on the Lock Screen, turn them on in Settings."
        case .storageUnavailable:
            return
                "Spotify details can't be read or saved on this device right now. Free up some space, then try again."
        case .spotifyButton(let label):
            switch label {
            case .openSpotify: return "OPEN SPOTIFY"
            case .playOnSpotify: return "PLAY ON SPOTIFY"
            case .listenOnSpotify: return "LISTEN ON SPOTIFY"
            case .getSpotifyFree: return "GET SPOTIFY FREE"
            }
        case .somethingWentWrong: return "Something went wrong with Spotify. Try again."
        }
    }

    private static func englishScope(_ scope: String) -> String {
        switch scope {
        case "playlist-read-private": "see your private playlists"
        case "playlist-read-collaborative": "see playlists you collaborate on"
        case "user-read-currently-playing": "see what you're playing"
        case "user-read-playback-state": "see your playback"
        case "user-library-read": "see your saved songs"
        case "user-top-read": "see your top songs and artists"
        default: "use “\(scope)”"
        }
    }

    /// A length as it is read aloud: "48 minutes", "2 hours 50 minutes", "1 hour".
    private static func englishSpokenDuration(_ duration: Duration) -> String {
        let minutes = Int((max(duration.seconds, 0) / 60).rounded())
        let hours = minutes / 60
        let rest = minutes % 60
        let hourText = "\(hours) hour\(hours == 1 ? "" : "s")"
        let minuteText = "\(rest) minute\(rest == 1 ? "" : "s")"
        if hours == 0 { return minuteText }
        return rest == 0 ? hourText : hourText + " " + minuteText
    }

    /// A number of the gate's questions in words: "seven"; digits past twenty.
    private static func englishNumber(_ number: Int) -> String {
        let words = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        ]
        return words.indices.contains(number) ? words[number] : "\(number)"
    }

    /// A number of the gate's questions in kanji: "七"; digits past twenty.
    private static func japaneseNumber(_ number: Int) -> String {
        let digits = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
        switch number {
        case 0...9: return digits[number]
        case 10: return "十"
        case 11...19: return "十" + digits[number - 10]
        case 20: return "二十"
        default: return "\(number)"
        }
    }

    private static func englishPlace(_ store: TokenStoreKind) -> String {
        switch store {
        case .keychain: "the Keychain"
        case .secretService: "the desktop keyring"
        case .file: "a file on this device"
        case .memory: "this app's memory"
        case .database: "the server's database"
        }
    }

    // MARK: - Japanese

    private func japanese(_ message: SpotifyMessage) -> String {
        let revoke = AuthorizationServer.revokeAccessPage.absoluteString
        switch message {
        case .offline: return "Spotifyに接続できません。通信状態を確認して、もう一度お試しください。"
        case .rateLimited(let until): return "Spotifyから少し待つよう求められました。\(time(until))以降にもう一度お試しください。"
        case .quotaExceeded(let until):
            return "このアプリは本日のSpotifyへのリクエスト上限に達しました。\(time(until))ごろに再開します。保存済みのプレイリストは引き続き表示できます。"
        case .backgroundBudgetSpent(let until): return "リクエストを節約するため、Spotifyからの更新は\(time(until))まで一時停止します。"
        case .spotifyUnavailable: return "Spotifyで問題が発生しました。しばらくしてからもう一度お試しください。"
        case .userNotRegistered: return "このSpotifyアカウントはアプリの利用者リストに登録されていません。アプリの開発者に追加を依頼してください。"
        case .ownerPremiumRequired: return "Spotifyがこのアプリを一時停止しています。開発者がSpotify Premiumを更新すると再び使えるようになります。"
        case .userPremiumRequired: return "この操作にはお使いのアカウントでSpotify Premiumが必要です。"
        case .missingScope(let scope): return "\(Self.japaneseScope(scope))にはSpotifyでの許可が必要です。もう一度接続して許可してください。"
        case .notFound: return "Spotifyにこの項目は見つかりません。削除された可能性があります。"
        case .forbidden: return "このアカウントではSpotify上でこの項目を表示できません。"
        case .signInEnded(.expired): return "Spotifyのサインインは6か月で終了しました。続けるにはもう一度接続してください。"
        case .signInEnded(.revoked):
            return "Spotifyがこのサインインを受け付けなくなりました（アクセスが取り消された可能性があります）。続けるにはもう一度接続してください。"
        case .signInEnded(.unreadable): return "保存されたSpotifyのサインイン情報を読み込めませんでした。もう一度接続してください。"
        case .signInEnded(.removedElsewhere): return "Spotifyのサインインが削除されました。続けるにはもう一度接続してください。"
        case .signInEndsSoon(let days): return "Spotifyのサインインはあと\(days)日で終了します。引き続き使うにはもう一度接続してください。"
        case .signInNotSaved: return "Spotifyのサインイン情報をこの端末に保存できませんでした。もう一度お試しください。"
        case .deviceLocked: return "端末がロックされています。Spotifyのサインインは保持され、ロックを解除すると再び使えます。"
        case .appMisconfigured: return "このアプリのSpotify設定に問題があります。開発者にお知らせください。"
        case .signInFailed: return "Spotifyに接続できませんでした。もう一度お試しください。"
        case .updateSystemToConnect:
            return "Spotifyへの接続には iOS 17.4 または macOS 14.4 以降が必要です。この端末をアップデートしてから、もう一度お試しください。"
        case .connectToSearch: return "曲を検索するにはSpotifyに接続してください。"
        case .disconnectExplanation(let store, keepingDetails: false):
            return "接続を解除すると、Spotifyのサインイン情報が\(Self.japanesePlace(store))から、"
                + "Spotifyから保存したすべての情報（プレイリストの名前・作成者・カバー・曲数・再生時間）がこの端末から削除されます。"
                + "記録にリンクしたプレイリストは残り、Spotifyで開けます。詳細は再接続すると表示されます。"
                + "Spotify側のアクセスも終了するには、\(revoke) でこのアプリを削除してください。発行済みのトークンは最長1時間有効です。"
        case .disconnectExplanation(let store, keepingDetails: true):
            return "接続を解除すると、Spotifyのサインイン情報が\(Self.japanesePlace(store))から削除されます。"
                + "リンクしたプレイリストと、保存済みの名前・カバー・曲数・再生時間はこの端末に残ります。"
                + "Spotify側のアクセスも終了するには、\(revoke) でこのアプリを削除してください。発行済みのトークンは最長1時間有効です。"
        case .disconnected(let store, keptDetails: false):
            return "接続を解除しました。Spotifyのサインイン情報は\(Self.japanesePlace(store))から、"
                + "Spotifyから保存した情報はこの端末から削除されました。リンクしたプレイリストは残ります。"
                + "Spotify側のアクセスも終了するには、\(revoke) でこのアプリを削除してください。"
        case .disconnected(let store, keptDetails: true):
            return "接続を解除しました。Spotifyのサインイン情報は\(Self.japanesePlace(store))から削除されました。"
                + "保存済みのプレイリスト情報はこの端末に残ります。"
                + "Spotify側のアクセスも終了するには、\(revoke) でこのアプリを削除してください。"
        case .playlistDeleted: return "このプレイリストはSpotifyで削除されました。以下は保存済みの情報です。"
        case .playlistNoLongerAccessible: return "このプレイリストはSpotifyで表示できなくなりました。以下は保存済みの情報です。"
        case .playlistOwnedBySpotify:
            return "Spotify自身のプレイリスト（Today's Top Hitsなど）の詳細はアプリに公開されていません。Spotifyでは開けます。"
        case .playlistSongsHidden:
            return "フォローしているだけのプレイリストは、Spotifyがアプリに曲を公開しないため、再生時間が分かりません。"
                + "曲を見るには、Spotifyでその曲を自分のプレイリストに追加し、そのプレイリストを選んでください。"
        case .playlistAccess(.complete): return "曲と再生時間"
        case .playlistAccess(.detailsOnly): return "フォロー中：名前とカバーのみ"
        case .playlistAccess(.openOnly): return "Spotify公式：Spotifyで開くのみ"
        case .playlistDetailsPending: return "Spotifyに接続すると詳細が表示されます。"
        case .playlistDetailsNeedConnection:
            return "このプレイリストをもう一度表示するには、Spotifyに接続してください。Spotifyでは引き続き開けます。"
        case .coverDescription(let name?): return "プレイリスト「\(name)」のカバー"
        case .coverDescription(nil): return "プレイリストのカバー"
        case .playlistSummarySpoken(let tracks, let length):
            let parts = [tracks.map { "\($0)曲" }, length.map(duration)].compactMap { $0 }
            return parts.isEmpty ? "曲数と再生時間は不明です" : parts.joined(separator: "、")
        case .playlistRowSpoken(let name, let owner, let tracks, let access):
            let parts = [
                name, owner.map { "作成者 \($0)" }, tracks.map { "\($0)曲" }, access.map { japanese(.playlistAccess($0)) },
            ]
            return parts.compactMap { $0 }.joined(separator: "、")
        case .spotifyButtonSpoken(let label): return japanese(.spotifyButton(label))
        case .parentalGateReason(.signIn): return "Spotifyに接続するには、保護者の確認が必要です。"
        case .parentalGateReason(.openSpotify): return "Spotifyを開くには、保護者の確認が必要です。"
        case .parentalGateReason(.choosePlaylist): return "プレイリストを選ぶには、保護者の確認が必要です。"
        case .parentalGateQuestion(let first, let second):
            return "保護者の方へ：\(Self.japaneseNumber(first))かける\(Self.japaneseNumber(second))はいくつですか？答えを数字で入力してください。"
        case .parentalGateWrongAnswer: return "正しくありません。別の問題です。"
        case .explicitSongs(let count): return "不適切な表現を含む曲：\(count)曲"
        case .explicitItem: return "不適切な表現を含む"
        case .noExplicitSongsFilter: return "不適切な表現を含む曲を除く"
        case .accountTypeNotAvailable: return "取得できません"
        case .extensionsNeedApp: return "Spotifyに接続するには、アプリを開いてください。"
        case .playlistDetailsExpired:
            return "このプレイリストの保存済み情報は、Spotifyの規約に従い90日間更新がなかったため削除されました。"
                + "Spotifyに接続すると再表示されます。プレイリストはSpotifyで開けます。"
        case .couldNotRefresh: return "Spotifyから更新できませんでした。保存済みの情報を表示しています。"
        case .savedPlaylistUnreadable: return "保存済みのプレイリストをこの端末で読み込めませんでした。"
        case .noSavedPlaylists: return "保存されたプレイリストはまだありません。"
        case .noPlaylistsMatch(let text): return "「\(text)」に一致するプレイリストはありません。"
        case .offlineShowingSavedPlaylists: return "Spotifyに接続できないため、保存済みのプレイリストを表示しています。"
        case .unavailablePlaylists(let count): return "ライブラリの\(count)件のプレイリストはSpotifyで利用できなくなりました。"
        case .playlistSummary(let tracks, let length):
            let parts = [tracks.map { "\($0)曲" }, length.map(duration)].compactMap { $0 }
            return parts.isEmpty ? "曲数と再生時間は不明です" : parts.joined(separator: "・")
        case .addAccountToUserList:
            return "このSpotifyアカウントはアプリの利用者リストに登録されていません。Spotifyの開発者ダッシュボードでアプリを開き、"
                + "User Managementにアカウントのメールアドレスを追加（最大5人）してから、もう一度接続してください。"
        case .connectToCheck: return "Spotifyに接続すると、このアプリでできることを確認できます。"
        case .ownPlaylistSongsHidden:
            return "自分のプレイリストの曲がSpotifyから表示されなかったため、再生時間と曲数は分かりません。"
                + "しばらくしてからもう一度お試しください。続く場合は、開発者ダッシュボードでアプリの設定を確認してください。"
        case .quotaMostlySpent(let spent, let share):
            return "この端末は本日のSpotifyリクエスト\(share)件のうち\(spent)件を使いました。"
                + "件数が減るまで更新を控えます。自分で開いたものは優先されます。"
        case .noSongsMatch(let text): return "「\(text)」に一致する曲はありません。"
        case .songs(let count): return songs(count)
        case .songTimeUnknown(.songsHidden):
            return "曲数で数えられません。フォローしているだけのプレイリストの曲は、Spotifyがアプリに公開しません。"
        case .songTimeUnknown(.spotifyOwned): return "曲数で数えられません。Spotify公式のプレイリストはアプリに公開されません。"
        case .songTimeUnknown(.unavailable): return "曲数で数えられません。このプレイリストはSpotifyで利用できなくなりました。"
        case .songTimeUnknown(.notReadYet): return "Spotifyに接続すると曲数で表示されます。"
        case .songTimeUnknown(.empty): return "このプレイリストには曲がありません。"
        case .routineSummary(let count?) where count > 0: return "\(songs(count))を聴きました。"
        case .routineSummary: return "このルーティン中に再生された音楽はありませんでした。"
        case .noSavedTracks: return "保存した曲はまだありません。"
        case .noTopTracks: return "よく聴く曲はまだありません。"
        case .routineSong(let song?, let songs?): return "\(song)曲目(約\(Self.wholeSongs(songs))曲中)"
        case .routineSong(let song?, nil): return "\(song)曲目"
        case .routineSong(nil, let songs?): return "再生していません・約\(Self.wholeSongs(songs))曲"
        case .routineSong(nil, nil): return "再生していません"
        case .liveActivitiesOff: return "このアプリのライブアクティビティがオフです。ロック画面でルーティンを確認するには、設定でオンにしてください。"
        case .storageUnavailable: return "この端末でSpotifyの情報を読み込み・保存できません。空き容量を確保してから、もう一度お試しください。"
        case .spotifyButton(let label):
            switch label {
            case .openSpotify: return "Spotifyを開く"
            case .playOnSpotify: return "Spotifyで再生"
            case .listenOnSpotify: return "Spotifyで聴く"
            case .getSpotifyFree: return "Spotifyを無料で入手"
            }
        case .somethingWentWrong: return "Spotifyで問題が発生しました。もう一度お試しください。"
        }
    }

    private static func japaneseScope(_ scope: String) -> String {
        switch scope {
        case "playlist-read-private": "非公開プレイリストの表示"
        case "playlist-read-collaborative": "共同編集プレイリストの表示"
        case "user-read-currently-playing": "再生中の曲の表示"
        case "user-read-playback-state": "再生状態の表示"
        case "user-library-read": "保存した曲の表示"
        case "user-top-read": "よく聴く曲とアーティストの表示"
        default: "「\(scope)」の利用"
        }
    }

    private static func japanesePlace(_ store: TokenStoreKind) -> String {
        switch store {
        case .keychain: "キーチェーン"
        case .secretService: "デスクトップのキーリング"
        case .file: "この端末のファイル"
        case .memory: "アプリのメモリ"
        case .database: "サーバーのデータベース"
        }
    }
}

extension SpotifyMessage {
    /// One message of every kind with sample values: every case, so a test can hold each
    /// language to having text for all of them (``coverageIndex`` counts the cases).
    package static var samples: [SpotifyMessage] {
        let when = Date(timeIntervalSince1970: 1_790_000_000)
        return [
            .offline, .rateLimited(until: when), .quotaExceeded(until: when), .backgroundBudgetSpent(until: when),
            .spotifyUnavailable, .userNotRegistered, .ownerPremiumRequired, .userPremiumRequired,
            .missingScope("user-top-read"), .notFound, .forbidden, .signInEnded(.expired), .signInEnded(.revoked),
            .signInEnded(.unreadable), .signInEnded(.removedElsewhere), .signInEndsSoon(days: 3), .signInNotSaved,
            .deviceLocked, .appMisconfigured, .signInFailed, .updateSystemToConnect, .connectToSearch,
            .disconnectExplanation(.keychain, keepingDetails: false),
            .disconnectExplanation(.keychain, keepingDetails: true),
            .disconnected(.keychain, keptDetails: false), .disconnected(.keychain, keptDetails: true), .playlistDeleted,
            .playlistNoLongerAccessible, .playlistOwnedBySpotify,
            .playlistDetailsPending, .playlistDetailsExpired, .couldNotRefresh, .savedPlaylistUnreadable,
            .noSavedPlaylists,
            .noPlaylistsMatch("さくら"), .offlineShowingSavedPlaylists, .unavailablePlaylists(2),
            .playlistSummary(tracks: 12, duration: .seconds(2880)), .noSongsMatch("focus"), .songs(4.5),
            .routineSummary(songs: 4.5), .routineSummary(songs: nil), .noSavedTracks, .noTopTracks,
            .routineSong(3, of: 5.6), .routineSong(3, of: nil), .routineSong(nil, of: 5.6), .routineSong(nil, of: nil),
            .liveActivitiesOff,
            .storageUnavailable, .somethingWentWrong, .playlistSongsHidden, .addAccountToUserList, .connectToCheck,
            .ownPlaylistSongsHidden, .quotaMostlySpent(spent: 90, share: 100), .playlistDetailsNeedConnection,
            .explicitSongs(3), .explicitItem, .noExplicitSongsFilter, .accountTypeNotAvailable, .extensionsNeedApp,
            .parentalGateQuestion(7, 8), .parentalGateWrongAnswer, .coverDescription(playlist: "Deep Work"),
            .coverDescription(playlist: nil), .playlistSummarySpoken(tracks: 12, duration: .seconds(2880)),
            .playlistRowSpoken(name: "Deep Work", owner: "Mira", tracks: 50, access: .complete),
        ] + OpenInSpotify.Label.allCases.map(SpotifyMessage.spotifyButton)
            + PlaylistAccess.allCases.map(SpotifyMessage.playlistAccess)
            + SongTime.Reason.allCases.map(SpotifyMessage.songTimeUnknown)
            + ParentalGate.Purpose.allCases.map(SpotifyMessage.parentalGateReason)
            + OpenInSpotify.Label.allCases.map(SpotifyMessage.spotifyButtonSpoken)
    }

    /// A number per case (and per reason of an ended sign-in), from an exhaustive switch: adding a
    /// case does not compile until it has a number here, and the text test then asks for a sample.
    package var coverageIndex: Int {
        switch self {
        case .offline: 0
        case .rateLimited: 1
        case .quotaExceeded: 2
        case .backgroundBudgetSpent: 3
        case .spotifyUnavailable: 4
        case .userNotRegistered: 5
        case .ownerPremiumRequired: 6
        case .userPremiumRequired: 7
        case .missingScope: 8
        case .notFound: 9
        case .forbidden: 10
        case .signInEnded(.expired): 11
        case .signInEnded(.revoked): 12
        case .signInEnded(.unreadable): 13
        case .signInEnded(.removedElsewhere): 14
        case .signInEndsSoon: 15
        case .signInNotSaved: 16
        case .deviceLocked: 17
        case .appMisconfigured: 18
        case .signInFailed: 19
        case .connectToSearch: 20
        case .disconnectExplanation(_, keepingDetails: false): 21
        case .disconnected(_, keptDetails: false): 22
        case .disconnectExplanation(_, keepingDetails: true): 46
        case .disconnected(_, keptDetails: true): 47
        case .playlistDeleted: 23
        case .playlistNoLongerAccessible: 24
        case .playlistOwnedBySpotify: 25
        case .playlistDetailsPending: 26
        case .couldNotRefresh: 27
        case .savedPlaylistUnreadable: 28
        case .noSavedPlaylists: 29
        case .noPlaylistsMatch: 30
        case .offlineShowingSavedPlaylists: 31
        case .unavailablePlaylists: 32
        case .playlistSummary: 33
        case .noSongsMatch: 34
        case .songs: 35
        case .routineSummary(let songs?) where songs > 0: 36
        case .routineSummary: 37
        case .noSavedTracks: 38
        case .noTopTracks: 39
        case .somethingWentWrong: 40
        case .storageUnavailable: 41
        case .spotifyButton(.openSpotify): 42
        case .spotifyButton(.playOnSpotify): 43
        case .spotifyButton(.listenOnSpotify): 44
        case .spotifyButton(.getSpotifyFree): 45
        case .playlistDetailsExpired: 48
        case .updateSystemToConnect: 49
        case .playlistSongsHidden: 50
        case .playlistAccess(.complete): 51
        case .playlistAccess(.detailsOnly): 52
        case .playlistAccess(.openOnly): 53
        case .songTimeUnknown(.songsHidden): 54
        case .songTimeUnknown(.spotifyOwned): 55
        case .songTimeUnknown(.unavailable): 56
        case .songTimeUnknown(.notReadYet): 57
        case .songTimeUnknown(.empty): 58
        case .addAccountToUserList: 59
        case .connectToCheck: 60
        case .ownPlaylistSongsHidden: 61
        case .quotaMostlySpent: 62
        case .playlistDetailsNeedConnection: 63
        case .explicitSongs: 64
        case .explicitItem: 65
        case .noExplicitSongsFilter: 66
        case .accountTypeNotAvailable: 67
        case .parentalGateReason(.signIn): 68
        case .parentalGateReason(.openSpotify): 69
        case .parentalGateReason(.choosePlaylist): 70
        case .parentalGateQuestion: 71
        case .parentalGateWrongAnswer: 72
        case .coverDescription(.some): 73
        case .coverDescription(nil): 74
        case .playlistSummarySpoken: 75
        case .playlistRowSpoken: 76
        case .spotifyButtonSpoken(.openSpotify): 77
        case .spotifyButtonSpoken(.playOnSpotify): 78
        case .spotifyButtonSpoken(.listenOnSpotify): 79
        case .spotifyButtonSpoken(.getSpotifyFree): 80
        case .extensionsNeedApp: 81
        case .routineSong(.some, .some): 82
        case .routineSong(.some, nil): 83
        case .routineSong(nil, .some): 84
        case .routineSong(nil, nil): 85
        case .liveActivitiesOff: 86
        }
    }

    /// How many numbers ``coverageIndex`` gives.
    package static let coverageCount = 87
}
