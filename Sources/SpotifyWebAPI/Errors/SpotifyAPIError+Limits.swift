package import Foundation
import SpotifyLinkSupport

extension SpotifyAPIError {
    /// The error for a cooldown in force: which limit it is, when it lifts in words and in local
    /// time ("about 11 h 40 min, around 04:20"), and that what was saved stays readable.
    ///
    /// - Parameters:
    ///   - cooldown: the cooldown, as ``SpotifyClient/cooldown()`` reports it.
    ///   - now: the time to count the wait from.
    ///   - timeZone: where the clock time is read; the device's by default.
    package static func coolingDown(_ cooldown: Cooldown, now: Date, timeZone: TimeZone = .current) -> SpotifyAPIError {
        let wait = Duration.clampedSeconds(cooldown.until.timeIntervalSince(now))
        let when = LimitWording.lift(after: wait, at: cooldown.until, now: now, timeZone: timeZone)
        switch cooldown.kind {
        case .quota:
            return SpotifyAPIError(
                code: .quotaExceeded, status: 429,
                message:
                    "Spotify's daily request quota for this app is used up (all apps of one developer account share it). "
                    + "It lifts in \(when); nothing is sent to Spotify until then. Linked playlists stay readable offline.",
                retryAfter: wait, retryAt: cooldown.until)
        case .rateLimit:
            let seconds = Int(wait.seconds.rounded(.up))
            return SpotifyAPIError(
                code: .rateLimited, status: 429,
                message: "Spotify's rate limit was reached: retry after \(seconds) s (\(when)). "
                    + "Linked playlists stay readable offline.",
                retryAfter: wait, retryAt: cooldown.until)
        }
    }

    /// The error for a rate limit that lasts `wait` from `now`, longer than a request waits.
    static func rateLimitedFor(_ wait: Duration, now: Date) -> SpotifyAPIError {
        coolingDown(Cooldown(kind: .rateLimit, until: now.addingTimeInterval(wait.seconds), learnedAt: now), now: now)
    }

    /// The error for background work past the app's daily budget.
    static func budgetExhausted(budget: Int, reopens: Date, now: Date, timeZone: TimeZone = .current) -> SpotifyAPIError
    {
        let wait = Duration.clampedSeconds(reopens.timeIntervalSince(now))
        return SpotifyAPIError(
            code: .budgetExhausted,
            message: "This app's daily budget of \(budget) Spotify requests is spent, so background work (refreshing "
                + "details, now playing) pauses for \(LimitWording.lift(after: wait, at: reopens, now: now, timeZone: timeZone)). "
                + "What you ask for still works.",
            retryAfter: wait, retryAt: reopens)
    }
}

/// Waits and moments in words a person reads at a glance.
package enum LimitWording {
    /// "about 11 h 40 min, around 04:20", "about 40 s, around 16:02", "about 20 h, around 09:15 tomorrow".
    package static func lift(after wait: Duration, at date: Date, now: Date, timeZone: TimeZone) -> String {
        "about \(approximate(wait)), around \(clockTime(date, now: now, timeZone: timeZone))"
    }

    /// A wait rounded to what matters: seconds under a minute, minutes under an hour, else hours
    /// and minutes.
    package static func approximate(_ wait: Duration) -> String {
        let seconds = Int(wait.seconds.rounded(.up))
        if seconds < 60 { return "\(max(seconds, 1)) s" }
        let minutes = Int((Double(seconds) / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// `HH:mm` in `timeZone`, with "tomorrow" or the date when it is not today.
    package static func clockTime(_ date: Date, now: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        if calendar.isDate(date, inSameDayAs: now) { return time }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now), calendar.isDate(date, inSameDayAs: tomorrow)
        {
            return time + " tomorrow"
        }
        return time + String(format: " on %04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
