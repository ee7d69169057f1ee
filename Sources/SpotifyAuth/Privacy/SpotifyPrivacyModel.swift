import Foundation

/// The privacy screen: the scopes in plain words, what is stored where, what is never collected,
/// and how to revoke access. Its statements match the `PrivacyInfo.xcprivacy` manifests of the
/// library products (a test holds them together).
package struct SpotifyPrivacyModel: Sendable {
    /// One thing kept on the device.
    package struct StoredItem: Sendable, Equatable {
        /// What is kept.
        package var what: String
        /// Where it is kept.
        package var location: String
        /// When it is removed.
        package var removedWhen: String
    }

    /// A required-reason API the libraries call, as declared in their privacy manifests.
    package struct DeclaredAPI: Sendable, Equatable {
        /// The manifest's `NSPrivacyAccessedAPIType`.
        package var category: String
        /// The manifest's reason code.
        package var reason: String
        /// Why the libraries call it, in plain words.
        package var why: String
    }

    /// Each scope asked for, with what it lets the app do.
    package var scopes: [(scope: String, meaning: String)]
    /// What is kept on the device, where, and until when.
    package var stored: [StoredItem]
    /// What is never collected.
    package var neverCollected: [String]
    /// How to revoke the app's access, on the device and on Spotify.
    package var revokeSteps: [String]
    /// Whether the libraries track users (App Store sense): never.
    package let tracks = false
    /// Data types collected off the device (App Store sense): none; requests go to Spotify only.
    package let collectedDataTypes: [String] = []

    /// The required-reason APIs the library products use, with the reason declared for each.
    package static let declaredAPIs = [
        DeclaredAPI(
            category: "NSPrivacyAccessedAPICategoryFileTimestamp", reason: "C617.1",
            why:
                "The file token store checks the owner and permissions of its own file and folder (stat) before reading tokens."
        ),
        DeclaredAPI(
            category: "NSPrivacyAccessedAPICategoryUserDefaults", reason: "CA92.1",
            why:
                "Only when the app asks (adoptEarlierSignIn): the sign-in the app itself kept in its own user defaults is read once and removed."
        ),
    ]

    /// - Parameters:
    ///   - storeKind: where this app keeps the tokens.
    ///   - scopes: the scopes the app asks for.
    package init(storeKind: TokenStoreKind, scopes: [String] = SpotifyScope.all) {
        self.scopes = scopes.map { ($0, SpotifyScope.explanation($0)) }
        stored = [
            StoredItem(
                what: "Your Spotify sign-in (access and refresh tokens)", location: "the \(storeKind)",
                removedWhen:
                    "when you disconnect Spotify, and on the first launch after the app is deleted and installed "
                    + "again (the \(storeKind) keeps it past the app's deletion)"),
            StoredItem(
                what: "Each linked playlist's name, owner, cover, track count and duration, as Spotify gave them",
                location: "this app's database on this device",
                removedWhen: "when you disconnect Spotify, unless you choose to keep them"),
            StoredItem(
                what: "Links from your records to playlists (the playlist's Spotify ID)",
                location: "this app's database on this device",
                removedWhen: "when you remove the link or the record; kept when you disconnect"),
        ]
        neverCollected = [
            "No listening history is stored: what plays is read live and only summed up in songs.",
            "No email address, country or subscription level is asked for.",
            "No tracking and no analytics; nothing is sent anywhere but Spotify.",
        ]
        revokeSteps = [
            "Disconnect Spotify in this app: the tokens are removed from this device.",
            "To revoke the app's access on Spotify too, remove it at \(AuthorizationServer.revokeAccessPage.absoluteString). "
                + "Spotify has no way for an app to revoke its own access, and a token already issued keeps working "
                + "until it expires, up to an hour after you remove the app there.",
        ]
    }
}
