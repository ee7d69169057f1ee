/// What an adult passes before a children's app signs in to Spotify, leaves for Spotify, or shows
/// the playlists of the account it is signed in to: Apple's Kids Category asks for a parental gate
/// before links out and sign-ins (App Review Guidelines 1.3 and 5.1.4), and a Spotify account is
/// an adult's (13 and over), its whole library on the child's device.
///
/// Set it once, in ``SpotifyServices/Configuration/parentalGate``; the package then asks it at each
/// of those moments, and the app writes no check of its own:
///
/// - ``question``, the default for the Kids Category: a multiplication in words ("what is seven
///   times eight?") that a child who cannot read cannot answer, asked through the UI module's
///   `ParentalGateModel`, which the app's sheet binds to, in English and Japanese;
/// - ``custom(_:)``: the app's own gate (the PIN of its parent area), called with the moment it
///   guards.
///
/// With no gate (`nil`, the default for an app that is not for children) nothing is asked.
public struct ParentalGate: Sendable {
    /// The moment a gate guards.
    public enum Purpose: String, Sendable, Hashable, CaseIterable {
        /// Before the sign-in sheet opens.
        case signIn
        /// Before a link out to Spotify opens (the app, the web player or the App Store).
        case openSpotify
        /// Before the picker lists the account's playlists.
        case choosePlaylist
    }

    /// How the gate is passed.
    package enum Kind: Sendable {
        /// The package's question, answered through the UI module's model.
        case question
        /// The app's own check.
        case custom(@MainActor @Sendable (Purpose) async -> Bool)
    }

    /// How the gate is passed.
    package let kind: Kind

    /// The package's gate: a multiplication written in words, which an adult answers in digits
    /// (three wrong answers close it). The app shows `ParentalGateModel.challenge` in a sheet.
    public static let question = ParentalGate(kind: .question)

    /// The app's own gate: `pass` is called on the main actor with the moment it guards, and
    /// returns whether an adult passed it. A task cancelled while it waits counts as refused.
    public static func custom(_ pass: @escaping @MainActor @Sendable (Purpose) async -> Bool) -> ParentalGate {
        ParentalGate(kind: .custom(pass))
    }
}
