public import Foundation
public import PlaylistLinks
public import SpotifyAuth
public import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyWebAPI

/// Something the models tell the person using the app, as data: what it is, and the values its
/// sentence needs (a scope, the time a limit lifts, what was searched for).
///
/// The models' states carry these, never finished sentences. ``SpotifyText`` words them in English
/// or Japanese, in the user's locale and 12/24-hour setting, or as the app says:
///
/// ```swift
/// Text(text(.quotaExceeded(until: date)))   // "… They come back around 4:20 AM; …"
/// ```
///
/// Spotify changes, and a minor version may add a message. An app that words messages itself
/// switches with `@unknown default`, as over Apple's enums: then a new case makes the compiler warn
/// ("switch must be exhaustive") instead of failing the build, and the default can hand the case to
/// ``SpotifyText``, which words every one:
///
/// ```swift
/// switch message {
/// case .offline: "No connection. Your saved playlists still show."
/// case .quotaExceeded: "Spotify needs a rest. Try again tomorrow."
/// default: text(message)                  // every other case, worded by SpotifyText
/// }
/// ```
///
/// A switch that lists every case ends with `@unknown default: text(message)`. An enum rather than
/// a struct of static members keeps `switch` and pattern matching on the values (`.songs(let n)`),
/// which apps use to choose an icon or a layout.
public enum SpotifyMessage: Sendable, Hashable {
    // MARK: Reaching Spotify

    /// Spotify cannot be reached (no network, a timeout).
    case offline
    /// Spotify's rate limit: requests wait until `until`.
    case rateLimited(until: Date)
    /// The developer's daily request quota is spent: nothing is sent until `until` (hours).
    case quotaExceeded(until: Date)
    /// This device's daily budget for background work is spent: updates pause until `until`.
    case backgroundBudgetSpent(until: Date)
    /// Spotify answered with an error of its own or something unreadable.
    case spotifyUnavailable

    // MARK: The account and the app

    /// The Spotify account is not on the app's list of users (Development Mode's five).
    case userNotRegistered
    /// Spotify stopped the app for everyone: its developer's Premium lapsed.
    case ownerPremiumRequired
    /// The action needs Spotify Premium on the user's own account.
    case userPremiumRequired
    /// The sign-in lacks this scope; a new sign-in asking for it adds it.
    case missingScope(String)
    /// Spotify has no such item.
    case notFound
    /// Spotify does not let this account see the item.
    case forbidden

    // MARK: Signing in

    /// The sign-in ended without the user signing out.
    case signInEnded(SpotifySession.SignInEnd)
    /// Spotify ends the sign-in in this many days (six months after it began).
    case signInEndsSoon(days: Int)
    /// The sign-in could not be saved on the device.
    case signInNotSaved
    /// The device is locked: the sign-in is kept and read again once it is unlocked.
    case deviceLocked
    /// The app's set-up for Spotify is wrong (an entitlement, a redirect URI): the developer's fix.
    case appMisconfigured
    /// Signing in failed for another reason.
    case signInFailed
    /// This device's system is too old for the app's sign-in (an https redirect needs iOS 17.4 or
    /// macOS 14.4): updating it is the user's fix.
    case updateSystemToConnect
    /// Search needs a connected Spotify account.
    case connectToSearch

    // MARK: A children's app's parental gate

    /// Why an adult is asked: to connect Spotify, to open Spotify, or to choose a playlist.
    case parentalGateReason(ParentalGate.Purpose)
    /// The gate's question: the product of two numbers from 2 to 9, written in words ("what is
    /// seven times eight?"), answered in digits.
    case parentalGateQuestion(Int, Int)
    /// The last answer was wrong; a new question is asked.
    case parentalGateWrongAnswer

    // MARK: Disconnecting

    /// What disconnecting does, for the confirmation dialog: the sign-in leaves `store`; every
    /// detail saved from Spotify goes too unless `keepingDetails`; the app's links stay; Spotify's
    /// own access is revoked on its account page.
    case disconnectExplanation(TokenStoreKind, keepingDetails: Bool)
    /// Disconnected: the sign-in was removed from `store`, and the details saved from Spotify
    /// unless `keptDetails`.
    case disconnected(TokenStoreKind, keptDetails: Bool)

    // MARK: Playlists

    /// The linked playlist was deleted on Spotify; the saved details are shown.
    case playlistDeleted
    /// The linked playlist is no longer accessible to this account; the saved details are shown.
    case playlistNoLongerAccessible
    /// One of Spotify's own playlists, whose details Spotify does not share with apps.
    case playlistOwnedBySpotify
    /// A playlist the user follows without owning it or collaborating on it: Spotify shows apps its
    /// name, cover and count, not its songs, so its length is unknown. The fix: add the songs to a
    /// playlist of one's own in Spotify, and pick that one.
    case playlistSongsHidden
    /// What the app can read of a playlist, the picker's mark beside each one: its songs and
    /// length, its name and cover only, or nothing but a link that opens in Spotify.
    case playlistAccess(PlaylistAccess)
    /// The playlist's details have not been fetched yet; they will be once Spotify answers.
    case playlistDetailsPending
    /// No detail of the playlist is saved and no one is connected (after a disconnect forgot them,
    /// as Spotify's terms ask): connecting again brings them back; the link still opens in Spotify.
    case playlistDetailsNeedConnection
    /// This many of a playlist's songs are marked explicit by Spotify ("3 explicit songs"), counted
    /// from the songs read for its length.
    case explicitSongs(Int)
    /// The song or episode is marked explicit by Spotify: the label beside it.
    case explicitItem
    /// The picker's filter that hides playlists with explicit songs.
    case noExplicitSongsFilter
    /// The saved details were removed after going unrefreshed for long (90 days by default), as
    /// Spotify's terms ask that saved details stay temporary; the link stays and opens in Spotify.
    case playlistDetailsExpired
    /// A refresh failed; the saved details are shown.
    case couldNotRefresh
    /// The saved playlist could not be read from the device.
    case savedPlaylistUnreadable
    /// The picker has no saved playlists.
    case noSavedPlaylists
    /// No playlist matches the text.
    case noPlaylistsMatch(String)
    /// Spotify cannot be reached; the saved playlists are listed.
    case offlineShowingSavedPlaylists
    /// This many playlists of the library are no longer available on Spotify.
    case unavailablePlaylists(Int)
    /// A card's facts: "12 tracks · 48 min"; either may be unknown.
    case playlistSummary(tracks: Int?, duration: Duration?)

    // MARK: Accessibility (what VoiceOver reads)

    /// A playlist's cover, described: "Cover of the playlist Deep Work"; `nil`, the name unknown.
    case coverDescription(playlist: String?)
    /// A card's facts as they are read aloud, in words: "12 tracks, 48 minutes".
    case playlistSummarySpoken(tracks: Int?, duration: Duration?)
    /// A picker row read aloud: its name, owner, count and what the app can read of it.
    case playlistRowSpoken(name: String, owner: String?, tracks: Int?, access: PlaylistAccess?)
    /// A button to Spotify read aloud: the guidelines' words in sentence case ("Open Spotify"), not
    /// the capitals they are shown in.
    case spotifyButtonSpoken(OpenInSpotify.Label)

    // MARK: What this app may do (the capability report)

    /// The account is not on the app's user list: the developer's fix, in the dashboard.
    case addAccountToUserList
    /// Nobody is signed in, so Spotify could not be asked what this app may do.
    case connectToCheck
    /// Spotify did not show the songs of the user's own playlist: durations stay unknown.
    case ownPlaylistSongsHidden
    /// This device has sent `spent` of its daily share of `share` requests.
    case quotaMostlySpent(spent: Int, share: Int)

    // MARK: Songs

    /// No song matches the text.
    case noSongsMatch(String)
    /// A time in songs, rounded to halves: "4.5 songs".
    case songs(Double)
    /// A time cannot be put in songs for this playlist, and why: never a silent guess.
    case songTimeUnknown(SongTime.Reason)
    /// A routine's end: the songs heard, or `nil` when no music played.
    case routineSummary(songs: Double?)
    /// The learner has no saved songs.
    case noSavedTracks
    /// What a profile shows for the account type (Free or Premium): Spotify no longer tells
    /// Development Mode apps, and an app must not guess it from anything else.
    case accountTypeNotAvailable
    /// What the app's extensions (a widget, a Live Activity) show while Spotify is not connected:
    /// the app is where to connect it.
    case extensionsNeedApp
    /// Spotify has no top songs for the learner yet.
    case noTopTracks
    /// A running routine's line on the Lock Screen: the song playing, counted from 1 since the
    /// routine began (`nil` while nothing plays), and the songs of the playlist's average length the
    /// routine lasts (`nil` when its songs are not known): "Song 3 of ≈ 6".
    case routineSong(Int?, of: Double?)
    /// A routine runs without its Live Activity: the user turned Live Activities off for the app
    /// (``RoutineActivityError/turnedOff``). Settings is where to turn them on.
    case liveActivitiesOff
    /// The app's Spotify data on this device (saved playlists, request counts) cannot be opened
    /// right now: the disk is full, say. Nothing saved is lost; the next use tries again.
    case storageUnavailable
    /// The words on a button that leads to Spotify, as Spotify's Design Guidelines give them:
    /// "OPEN SPOTIFY", "PLAY ON SPOTIFY", "LISTEN ON SPOTIFY", "GET SPOTIFY FREE".
    case spotifyButton(OpenInSpotify.Label)
    /// Something else went wrong.
    case somethingWentWrong
}

extension SpotifyMessage {
    /// What to tell the user about `error`, or `nil` when there is nothing to tell: a cancellation,
    /// or the user declining on Spotify's page.
    ///
    /// - Parameter now: the time a limit's end is counted from when the error carries no date.
    public init?(_ error: any Error, now: Date = Date()) {
        switch error {
        case is CancellationError:
            return nil
        case let error as SpotifyAPIError:
            self = Self.message(for: error, now: now)
        case let error as OAuthError:
            switch error.code {
            case .accessDenied: return nil
            case .needsSignIn, .invalidGrant: self = .signInEnded(.revoked)
            case .transient, .timedOut: self = .offline
            case .configuration, .invalidClient, .listenerUnavailable: self = .appMisconfigured
            case .systemTooOld: self = .updateSystemToConnect
            default: self = .signInFailed
            }
        case let error as PlaylistLinksError where error.code == .database:
            self = .storageUnavailable
        case let error as RoutineActivityError:
            switch error {
            case .turnedOff: self = .liveActivitiesOff
            }
        case let error as TokenStoreError:
            switch error.code {
            case .unavailable: self = .deviceLocked
            case .misconfigured: self = .appMisconfigured
            case .corrupt: self = .signInEnded(.unreadable)
            default: self = .signInNotSaved
            }
        default:
            self = .somethingWentWrong
        }
    }

    private static func message(for error: SpotifyAPIError, now: Date) -> SpotifyMessage {
        let until = error.retryAt ?? now.addingTimeInterval(error.retryAfter.map(\.seconds) ?? 0)
        switch error.code {
        case .transport: return .offline
        case .rateLimited: return .rateLimited(until: until)
        case .quotaExceeded: return .quotaExceeded(until: until)
        case .budgetExhausted: return .backgroundBudgetSpent(until: until)
        case .userNotRegistered: return .userNotRegistered
        case .ownerPremiumRequired: return .ownerPremiumRequired
        case .userPremiumRequired: return .userPremiumRequired
        case .missingScope: return error.scope.map(SpotifyMessage.missingScope) ?? .forbidden
        case .notFound: return .notFound
        case .playlistNotOwned: return .playlistSongsHidden
        case .forbidden: return .forbidden
        case .ledgerUnavailable: return .storageUnavailable
        default: return .spotifyUnavailable
        }
    }

    /// What a capability report's finding asks someone to do.
    public init(_ finding: CapabilityReport.Finding) {
        switch finding {
        case .userNotListed: self = .addAccountToUserList
        case .ownerPremiumLapsed: self = .ownerPremiumRequired
        case .scopeMissing(let scope): self = .missingScope(scope)
        case .signInEndsSoon(let days): self = .signInEndsSoon(days: days)
        case .signedOut: self = .connectToCheck
        case .playlistEntriesHidden: self = .ownPlaylistSongsHidden
        case .quotaMostlySpent(let spent, let share): self = .quotaMostlySpent(spent: spent, share: share)
        }
    }

    /// What the card says of a playlist's availability, or `nil` when there is nothing to say.
    public init?(_ availability: PlaylistAvailability) {
        switch availability {
        case .available: return nil
        case .notFound: self = .playlistDeleted
        case .forbidden: self = .playlistNoLongerAccessible
        case .spotifyOwned: self = .playlistOwnedBySpotify
        case .detailsOnly: self = .playlistSongsHidden
        case .unknown: self = .playlistDetailsPending
        }
    }
}
