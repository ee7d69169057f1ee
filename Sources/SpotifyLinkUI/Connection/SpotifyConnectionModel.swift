public import Foundation
public import Observation
package import PlaylistLinks
public import SpotifyAuth
package import SpotifyLinkExtensions
import SpotifyLinkServices
package import SpotifyWebAPI

/// The settings screen's Connect / Disconnect, and the one place the other models ask whether
/// Spotify may be called at all.
///
/// It follows the session's status (`SpotifySession.statusUpdates()`): a sign-in that Spotify
/// ends during any model's call shows here at once, with no call from that model. Until the user
/// connects, nothing here or in the other models touches the network: an app that never connects
/// behaves exactly as without the feature.
@MainActor @Observable
public final class SpotifyConnectionModel {
    /// What the settings screen shows.
    public enum Phase: Sendable, Equatable {
        /// Not connected: show Connect.
        case disconnected
        /// A sign-in is in flight; ``connect(using:)`` does nothing more until it ends.
        case connecting
        /// Connected to this account.
        case connected(Account)
        /// Spotify ended the sign-in (six months passed, access revoked): why, and a Connect button.
        case needsSignIn(SpotifySession.SignInEnd)
        /// The last attempt failed: what to tell the user. Connect is offered again.
        case failed(SpotifyMessage)
    }

    /// The connected user, as far as known (the name and picture arrive once Spotify answers `/me`).
    public struct Account: Sendable, Equatable {
        /// The immutable key of the account (`account_id`), once Spotify said.
        public var accountID: String?
        /// The Spotify user ID, once known.
        public var userID: String?
        /// The name the user shows on Spotify, when they set one.
        public var displayName: String?
        /// The user's picture (the largest Spotify has), once known; its URL expires within a day.
        public var imageURL: URL?
        /// The scopes the sign-in granted.
        public var scopes: [String]
    }

    /// Where the connection is: what the settings row shows.
    public private(set) var phase: Phase = .disconnected
    /// Shown near the Connect button when the six-month sign-in limit is near.
    public private(set) var signInWarning: SpotifyMessage?
    /// What the last disconnect did, to show once.
    public private(set) var lastDisconnectMessage: SpotifyMessage?

    /// The session that holds the tokens.
    package let session: SpotifySession
    /// Where the details saved from Spotify are kept, which a disconnect forgets.
    private let links: LinkedPlaylists?
    /// The extensions' snapshot, which a disconnect forgets with the details.
    private let extensionSnapshot: ExtensionSnapshotFile?
    /// The client every other model calls Spotify through.
    package let client: SpotifyClient
    private let signIn: BrowserSignIn
    /// What an adult passes before the sign-in sheet opens (a children's app); `nil`, nothing.
    private let parentalGate: ParentalGateModel?
    private var connectTask: Task<Void, Never>?
    /// The read of the sign-in stored at launch, started as the model is made; `nil` once done.
    private var storedSignInRead: Task<Void, Never>?
    /// The place, in the session's order of status changes, of the latest change this model has
    /// acted on: a change heard later than a newer one (the follower's task ran late) is stale.
    private var knownGeneration = -1
    /// Sign-ins started, for diagnostics (a double tap starts one).
    package private(set) var signInCount = 0

    /// A connection for `session` and `client` whose sign-in comes back to `redirectURI`, as
    /// registered in Spotify's dashboard (`myapp://spotify-callback`); a disconnect forgets the
    /// details `links` saved from Spotify.
    package convenience init(
        session: SpotifySession, client: SpotifyClient, redirectURI: String, links: LinkedPlaylists? = nil,
        extensionSnapshot: ExtensionSnapshotFile? = nil, parentalGate: ParentalGateModel? = nil
    ) {
        self.init(
            session: session, client: client, redirectURI: redirectURI, links: links,
            extensionSnapshot: extensionSnapshot, parentalGate: parentalGate, beforeFollowing: nil)
    }

    /// A connection whose status follower awaits `beforeFollowing` before it acts on each change
    /// (tests make it late with it).
    package init(
        session: SpotifySession, client: SpotifyClient, redirectURI: String, links: LinkedPlaylists? = nil,
        extensionSnapshot: ExtensionSnapshotFile? = nil, parentalGate: ParentalGateModel? = nil,
        beforeFollowing: (@Sendable (SpotifySession.Status) async -> Void)?
    ) {
        self.session = session
        self.links = links
        self.extensionSnapshot = extensionSnapshot
        self.parentalGate = parentalGate
        self.client = client
        self.signIn = BrowserSignIn(redirectURI: redirectURI)
        storedSignInRead = Task { [weak self] in
            _ = await self?.readStoredSignIn()
            self?.storedSignInRead = nil
        }
        Task { [weak self, session] in
            for await change in await session.statusChanges() {
                await beforeFollowing?(change.status)
                guard let self else { return }
                self.follow(change)
            }
        }
    }

    /// What to show near the Connect button, if anything: why the last attempt failed, why
    /// Spotify ended the sign-in, or that it ends soon.
    public var message: SpotifyMessage? {
        switch phase {
        case .failed(let message): message
        case .needsSignIn(let end): .signInEnded(end)
        case .connected: signInWarning
        case .disconnected, .connecting: nil
        }
    }

    /// Whether Spotify may be called: only with a sign-in in place.
    public var isConnected: Bool {
        if case .connected = phase { return true }
        return false
    }

    /// What disconnecting keeps and removes, for the confirmation dialog: by default the sign-in
    /// and every detail saved from Spotify go, the app's links stay; with `keepingDetails`, the
    /// saved details stay too.
    public func disconnectExplanation(keepingDetails: Bool = false) -> SpotifyMessage {
        .disconnectExplanation(session.store.kind, keepingDetails: keepingDetails && links != nil)
    }

    /// Reads the stored sign-in (no network), then asks Spotify who the user is (one request), for
    /// a settings screen that shows the account's current name and picture. An app need not call
    /// it to be connected: the model reads the stored sign-in by itself as it is made.
    public func load() async {
        guard let scopes = await readStoredSignIn() else { return }
        await fetchAccount(scopes: scopes)
    }

    /// Waits until the sign-in stored at launch has been read, so that ``isConnected`` says whether
    /// the user connected in an earlier launch: the other models ask it before they call Spotify.
    package func storedSignInKnown() async {
        await storedSignInRead?.value
    }

    /// Whether the sign-in stored at launch has been read (``isConnected`` is to be believed).
    package var isStoredSignInKnown: Bool { storedSignInRead == nil }

    /// Reads the stored sign-in (the token store, no network) and shows it: connected, with the
    /// account saved beside it, or why Spotify ended it.
    /// - Returns: the sign-in's scopes when it is connected.
    func readStoredSignIn() async -> [String]? {
        do {
            let (stored, change) = try await session.tokensAndStatus()
            // The follower may have heard this same change first and, for "signed in", done nothing:
            // only a later change it acted on wins over what this read found.
            guard change.generation >= knownGeneration else { return nil }
            knownGeneration = change.generation
            guard let tokens = stored else {
                if case .needsSignIn(let end) = change.status { phase = .needsSignIn(end) }
                return nil
            }
            // A sign-in this model started or finished meanwhile shows what it found.
            if case .connecting = phase { return nil }
            if !isConnected { phase = .connected(Account(tokens.account, scopes: tokens.scopes)) }
            signInWarning = try await session.daysUntilSignInEnds().map { .signInEndsSoon(days: $0) }
            return tokens.scopes
        } catch {
            if case .needsSignIn(let end) = await session.status {
                phase = .needsSignIn(end)
            } else if let message = SpotifyMessage(error, now: client.clock.now) {
                phase = .failed(message)
            }
            return nil
        }
    }

    /// Shows `message` as why the last attempt failed (an adoption that Spotify did not answer).
    func showFailure(_ message: SpotifyMessage) {
        phase = .failed(message)
    }

    /// Starts a sign-in in `browser`; while one is in flight, further calls do nothing (a double tap
    /// starts one). In SwiftUI, `connect(using: web)` (Apple platforms) passes Apple's sheet;
    /// a loopback listener (a desktop app) or a scripted browser (tests) come here.
    ///
    /// The user closing the sheet, or declining on Spotify's page, leaves the model disconnected
    /// with nothing to report; it says "connected" only once the tokens are saved.
    public func connect(using browser: @escaping BrowserSignIn.Browser) {
        guard !isConnected else { return }
        startSignIn(adding: [], browser: browser)
    }

    /// Signs in again in `browser`, asking for `scopes` on top of those granted (Spotify fixes
    /// scopes at consent, so only a new sign-in adds one; its consent page is shown); works while
    /// connected. Offer it when a model's phase says ``SpotifyMessage/missingScope(_:)``.
    public func connect(adding scopes: [String], using browser: @escaping BrowserSignIn.Browser) {
        startSignIn(adding: scopes, browser: browser)
    }

    private func startSignIn(adding scopes: [String], browser: @escaping BrowserSignIn.Browser) {
        guard connectTask == nil else { return }
        let previous = phase
        phase = .connecting
        signInCount += 1
        connectTask = Task {
            defer { connectTask = nil }
            // A children's app: no sheet opens before an adult passes the gate.
            if let parentalGate, !(await parentalGate.pass(.signIn)) {
                phase = previous == .connecting ? .disconnected : previous
                return
            }
            do {
                let (tokens, change) = try await signIn.signIn(session: session, adding: scopes, browser: browser)
                _ = isNewer(change)
                phase = .connected(Account(tokens.account, scopes: tokens.scopes))
                signInWarning = nil
                await fetchAccount(scopes: tokens.scopes)
            } catch {
                // Closing the sheet or declining is not a failure: back to where it was.
                let message = SpotifyMessage(error, now: client.clock.now)
                phase = message.map(Phase.failed) ?? (previous == .connecting ? .disconnected : previous)
            }
        }
    }

    /// Cancels a sign-in in flight: the browser's task is cancelled, and nothing it returns is used.
    public func cancelConnect() {
        connectTask?.cancel()
    }

    /// Waits for a sign-in in flight to end (for tests and for apps that await the result).
    public func waitForConnect() async {
        await connectTask?.value
    }

    /// Runs after every disconnect, whether or not its sign-out and forget succeeded, and when the
    /// sign-in ends elsewhere: `SpotifyLink` ends the routines' Live Activities there.
    var afterSignOut: (@MainActor () async -> Void)?

    /// Disconnects waiting for a sign-in to end (tests wait for one to arrive there).
    package private(set) var disconnectsWaitingForSignIn = 0

    /// Disconnects: removes this app's Spotify sign-in and, unless `keepingDetails`, every detail
    /// saved from Spotify (playlist names, owners, counts, durations, covers, the picker's list),
    /// as Spotify's Developer Policy asks of a disconnect. The app's records keep their links; a
    /// card then shows its link and opens it in Spotify, and connecting again fetches the details
    /// anew. Keeping them is a choice the app asks the user for.
    public func disconnect(keepingDetails: Bool = false) async {
        // A sign-in that is finishing must not save its tokens after the sign-out: stop it and wait.
        connectTask?.cancel()
        if let connectTask {
            disconnectsWaitingForSignIn += 1
            await connectTask.value
            disconnectsWaitingForSignIn -= 1
        }
        do {
            try await SpotifyServices.disconnect(
                session: session, links: links, extensionSnapshot: extensionSnapshot, keepingDetails: keepingDetails
            ) {
                _ = isNewer($0)
                phase = .disconnected
                signInWarning = nil
            }
            lastDisconnectMessage = .disconnected(session.store.kind, keptDetails: keepingDetails || links == nil)
        } catch {
            phase = .failed(SpotifyMessage(error, now: client.clock.now) ?? .somethingWentWrong)
        }
        // Also when the forget (or the sign-out) failed: the user asked that nothing of the
        // account stay shown.
        await afterSignOut?()
    }

    /// The sign-in ended without this model's disconnect: Spotify refused it (access removed on
    /// the account page, six months passed), or another process of the app signed out. What shows
    /// the account outside the app's screens goes as at a disconnect (a routine's Live Activity,
    /// the learner's songs for the widgets); the saved details stay, as the user did not ask.
    private func signInEndedElsewhere() {
        guard let afterSignOut else { return }
        Task { await afterSignOut() }
    }

    /// Whether `change` is later than every change this model acted on; if so it becomes the latest.
    private func isNewer(_ change: SpotifySession.StatusChange) -> Bool {
        guard change.generation > knownGeneration else { return false }
        knownGeneration = change.generation
        return true
    }

    /// The session's status changed: a sign-in that ended anywhere in the app ends here too. The
    /// order of the changes decides, not the order their followers ran in: a change older than one
    /// the model saw itself (the sign-in's save, the sign-out) is not acted on.
    private func follow(_ change: SpotifySession.StatusChange) {
        guard isNewer(change) else { return }
        switch change.status {
        case .needsSignIn(let end) where phase != .connecting:
            let wasConnected = isConnected
            phase = .needsSignIn(end)
            signInWarning = nil
            if wasConnected { signInEndedElsewhere() }
        case .signedOut where isConnected:
            phase = .disconnected
            signInEndedElsewhere()
        default:
            break
        }
    }

    private func fetchAccount(scopes: [String]) async {
        let user: CurrentUser
        do {
            user = try await client.currentUser()
        } catch let error as SpotifyAPIError
            where error.code == .userNotRegistered || error.code == .ownerPremiumRequired
        {
            // Spotify lets a user who is not on a Development Mode app's user list finish the
            // sign-in, then refuses every call: that is not "connected". The sign-in is kept, so it
            // works as soon as the developer adds the account.
            if isConnected, let message = SpotifyMessage(error, now: client.clock.now) { phase = .failed(message) }
            return
        } catch {
            // Offline or rate limited: still connected, the name comes later; an ended sign-in
            // shows through the session's status.
            return
        }
        _ = try? await session.remember(user)
        guard isConnected else { return }
        var account = Account(SpotifyAccount(user), scopes: scopes)
        account.imageURL = SpotifyImage.best(in: user.images)?.url
        phase = .connected(account)
    }
}

extension SpotifyConnectionModel.Account {
    /// What a sign-in knows of its account: its keys once `/me` answered, and the scopes granted.
    init(_ account: SpotifyAccount?, scopes: [String]) {
        self.init(
            accountID: account?.accountID, userID: account?.userID, displayName: account?.displayName, imageURL: nil,
            scopes: scopes)
    }
}
