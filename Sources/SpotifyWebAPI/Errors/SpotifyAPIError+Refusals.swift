package import Foundation

extension SpotifyAPIError {
    /// The kind of a 403, from its body (JSON or plain text) and the endpoint it answered.
    static func refusal(body: Data, endpoint: Endpoint) -> SpotifyAPIError {
        let text = bodyText(body)
        let lowered = text?.lowercased() ?? ""
        let said = text.map { " (Spotify said: \(sanitized($0, limit: 120)))" } ?? ""
        if lowered.contains("not registered") {
            return SpotifyAPIError(
                code: .userNotRegistered, status: 403,
                message: "This Spotify account is not on the app's user list. The app's owner must add it under "
                    + "User Management in Spotify's developer dashboard (Development Mode apps allow at most 5 users), "
                    + "then sign in again.")
        }
        // A player command's refusal names the user's own plan; check it before the owner's.
        if reason(body) == "PREMIUM_REQUIRED" {
            return SpotifyAPIError(
                code: .userPremiumRequired, status: 403,
                message: "This needs Spotify Premium on your own account\(said). Everything else keeps working.")
        }
        if lowered.contains("premium") {
            return SpotifyAPIError(
                code: .ownerPremiumRequired, status: 403,
                message: "Spotify stopped this app for everyone: its owner's Premium subscription has lapsed. "
                    + "It works again once the owner resubscribes, which can take a few hours to take effect.")
        }
        if lowered.contains("scope") {
            let scope = endpoint.scopes.first
            return SpotifyAPIError(
                code: .missingScope, status: 403,
                message: "The sign-in does not allow this"
                    + (scope.map { ": sign in again and grant '\($0)'." }
                        ?? ": sign in again and grant the permission it asks for."),
                scope: scope)
        }
        if let hint = endpoint.forbiddenHint {
            return SpotifyAPIError(code: .playlistNotOwned, status: 403, message: hint)
        }
        return SpotifyAPIError(
            code: .forbidden, status: 403,
            message: "Spotify refused access\(said). The account may not be allowed to see this.")
    }

    /// Refuses a call needing one of `needed` when the sign-in granted none of them, before
    /// anything is sent.
    package static func requireScope(of needed: [String], granted: Set<String>) throws(SpotifyAPIError) {
        guard let first = needed.first, granted.isDisjoint(with: needed) else { return }
        throw missingScope(first, granted: granted)
    }

    /// The refusal to send a token toward the API at `apiBaseURL`, which another accounts service
    /// serves than the one that issued it.
    package static func tokensBelongElsewhere(_ apiBaseURL: URL) -> SpotifyAPIError {
        SpotifyAPIError.invalid(
            "apiBaseURL",
            "These tokens belong to another Spotify service than \((apiBaseURL.host ?? "").lowercased()); none was "
                + "sent. Use the API of the accounts service you signed in with.")
    }

    /// The error for a call whose scope the sign-in lacks, raised before anything is sent.
    static func missingScope(_ scope: String, granted: Set<String>) -> SpotifyAPIError {
        SpotifyAPIError(
            code: .missingScope,
            message: "The sign-in does not allow this: sign in again and grant '\(scope)' "
                + "(granted now: \(granted.sorted().joined(separator: ", "))). Scopes are fixed when you agree, "
                + "so only a new sign-in adds one.",
            scope: scope)
    }
}
