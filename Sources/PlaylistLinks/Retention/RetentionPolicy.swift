import Foundation
import SpotifyLinkSupport

/// How long the details saved from Spotify stay on the device: temporary by design, as Spotify's
/// Developer Terms ask ("temporary caching of metadata and cover art", "delete older data").
///
/// Every limit is applied when a card is read (``LinkedPlaylists/card(for:retention:at:)``), on
/// the device alone: offline too, with no timer and no request. The defaults keep a journal's
/// card whole for weeks without a network and still temporary:
/// - ``refreshAfter``, a day: Spotify publishes no retention period, and its terms ask for "the
///   most up to date data available"; a day matches how long Spotify's own cover URLs live, and
///   refreshing a card once a day costs at most one request per card a day, far inside a
///   Development Mode quota;
/// - ``coverUnusedFor``, 30 days: a cover not shown for a month is not being used; it comes back
///   with the card's next refresh;
/// - ``detailsKeptFor``, 90 days: details Spotify has not confirmed for a quarter go (projects that
///   set a period use 24 hours to 66 days; 90 days keeps a journal entry whole through a long
///   time offline, and the link itself never goes). The card then says so
///   (`SpotifyMessage.playlistDetailsExpired`) and opens the playlist in Spotify.
public struct RetentionPolicy: Sendable, Equatable {
    /// Details older than this are refreshed when a card is opened and Spotify can be reached.
    public var refreshAfter: Duration
    /// Cover bytes not shown for this long are deleted.
    public var coverUnusedFor: Duration
    /// Details not refreshed for this long are dropped; the link stays.
    public var detailsKeptFor: Duration

    /// A policy with each limit given; the defaults are ``default``'s.
    public init(
        refreshAfter: Duration = .seconds(24 * 3600), coverUnusedFor: Duration = .seconds(30 * 86_400),
        detailsKeptFor: Duration = .seconds(90 * 86_400)
    ) {
        self.refreshAfter = refreshAfter
        self.coverUnusedFor = coverUnusedFor
        self.detailsKeptFor = detailsKeptFor
    }

    /// A day, 30 days, 90 days.
    public static let `default` = RetentionPolicy()
}
