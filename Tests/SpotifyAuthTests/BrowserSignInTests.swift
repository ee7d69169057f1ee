import Foundation
import HTTPTypes
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@_spi(Storage) @testable import SpotifyAuth
@_spi(Transport) @testable import SpotifyWebAPI

/// The iOS app's sign-in, driven on Linux: the same `BrowserSignIn` an app's SwiftUI view calls,
/// with a scripted browser in front of the emulator and a custom-scheme redirect the browser hands
/// back without following (as the system's web authentication sheet does).
@Suite("Sign-in through a one-shot browser, against the emulator")
struct BrowserSignInTests {
    static let redirect = "myapp://spotify-callback"

    /// An emulator that knows the app's custom-scheme redirect, and a session on it.
    static func withApp(
        store: any TokenStore = MemoryTokenStore(), transport: any Transport = platformDefaultTransport(),
        redirect: String = redirect, _ body: @escaping @Sendable (EmulatorServer, SpotifySession) async throws -> Void
    ) async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: [redirect])]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let session = SpotifySession(
                endpoint: TokenEndpoint(
                    server: .emulator(url: emulator.baseURL), clientID: "spotlink-demo", transport: transport),
                store: store)
            try await body(emulator, session)
        }
    }

    /// The user agrees; the sheet hands back the callback URL.
    static let agreeing: BrowserSignIn.Browser = { url, callback in
        #expect(callback == .customScheme("myapp"))
        return try await ConsentBrowser().callback(for: url)
    }

    static func tokenRequests(_ emulator: EmulatorServer) async -> Int {
        await emulator.requestCount("POST /api/token")
    }

    @Test func aCompletedSignInSavesTheTokensBeforeItReturns() async throws {
        try await Self.withApp { emulator, session in
            let tokens = try await BrowserSignIn(redirectURI: Self.redirect).run(
                session: session, adding: ["user-top-read"], browser: Self.agreeing)
            #expect(try await session.tokens() == tokens)
            #expect(await session.status == .signedIn)
            // The scopes asked for: the defaults and the added one.
            #expect(Set(tokens.scopes) == Set(SpotifyScope.all + ["user-top-read"]))
            let client = SpotifyClient(
                configuration: .emulator(url: emulator.baseURL), tokens: session, transport: PatientTransport())
            #expect(try await client.currentUser().id == "emu-user")
        }
    }

    /// An https redirect (a universal link of the app's domain) reaches the browser as
    /// `.https(host:path:)`, as `ASWebAuthenticationSession.Callback` takes it, not as a scheme.
    @Test(arguments: [
        (
            "https://App.Example/spotify-callback",
            BrowserSignIn.Callback.https(host: "app.example", path: "/spotify-callback")
        ),
        ("https://app.example", .https(host: "app.example", path: "/")),
        ("myapp://spotify-callback", .customScheme("myapp")),
    ])
    func theBrowserIsToldTheCallbackAsTheSystemSessionTakesIt(redirect: String, expected: BrowserSignIn.Callback)
        async throws
    {
        try await Self.withApp(redirect: redirect) { _, session in
            let told = Lock<[BrowserSignIn.Callback]>([])
            let tokens = try await BrowserSignIn(redirectURI: redirect).run(session: session) { url, callback in
                told.withLock { $0.append(callback) }
                return try await ConsentBrowser().callback(for: url)
            }
            #expect(told.withLock { $0 } == [expected])
            #expect(try await session.tokens() == tokens)
            #expect(await session.status == .signedIn)
        }
    }

    /// The exchange and the save run inside the session's expiring activity, as a refresh does.
    @Test func theExchangeAndTheSaveRunInsideTheExpiringActivity() async throws {
        var configuration = EmulatorConfiguration()
        configuration.clients = [.init(id: "spotlink-demo", redirectURIs: [Self.redirect])]
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let activity = RecordingActivity()
            let store = NotingStore(activity)
            let transport = NotingTransport(activity: activity)
            let session = SpotifySession(
                endpoint: TokenEndpoint(
                    server: .emulator(url: emulator.baseURL), clientID: "spotlink-demo", transport: transport),
                store: store, clock: SystemClock(), logger: nil, activity: activity)
            try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { url, _ in
                activity.note("browser")
                return try await ConsentBrowser().callback(for: url)
            }
            #expect(
                activity.events == ["browser", "begin Finishing the Spotify sign-in", "POST /api/token", "save", "end"])
        }
    }

    @Test func addingAScopeAsksForTheGrantedOnesAndShowsTheConsentPage() async throws {
        try await Self.withApp { _, session in
            try await BrowserSignIn(redirectURI: Self.redirect).run(session: session, browser: Self.agreeing)
            let asked = Lock<URL?>(nil)
            try await BrowserSignIn(redirectURI: Self.redirect).run(session: session, adding: ["user-library-read"]) {
                url, _ in
                asked.withLock { $0 = url }
                return try await ConsentBrowser().callback(for: url)
            }
            let url = try #require(asked.withLock { $0 })
            let scopes = Set((url.queryValue("scope") ?? "").split(separator: " ").map(String.init))
            #expect(scopes == Set(SpotifyScope.all + ["user-library-read"]))
            #expect(url.queryValue("show_dialog") == "true")
        }
    }

    /// The user closes the sheet: Apple's `canceledLogin`, recognised by domain and code.
    @Test func closingTheSheetIsACancellationAndSavesNothing() async throws {
        try await Self.withApp { emulator, session in
            await #expect(throws: CancellationError.self) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { _, _ in
                    throw NSError(domain: "com.apple.AuthenticationServices.WebAuthenticationSession", code: 1)
                }
            }
            let stored = try await session.tokens()
            #expect(stored == nil)
            #expect(await Self.tokenRequests(emulator) == 0)
        }
    }

    @Test func anotherBrowserErrorIsNotACancellation() async throws {
        struct SheetCouldNotShow: Error {}
        try await Self.withApp { _, session in
            await #expect(throws: SheetCouldNotShow.self) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { _, _ in
                    throw SheetCouldNotShow()
                }
            }
            #expect(
                !BrowserSignIn.isCancellation(
                    NSError(domain: "com.apple.AuthenticationServices.WebAuthenticationSession", code: 2)))
            #expect(!BrowserSignIn.isCancellation(NSError(domain: "NSURLErrorDomain", code: 1)))
        }
    }

    @Test func decliningOnSpotifysPageIsAccessDenied() async throws {
        try await Self.withApp { emulator, session in
            await #expect(throws: OAuthError(code: .accessDenied, message: "")) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { url, _ in
                    try await ConsentBrowser(agree: false).callback(for: url)
                }
            }
            let stored = try await session.tokens()
            #expect(stored == nil)
            #expect(await Self.tokenRequests(emulator) == 0)
        }
    }

    /// The sheet comes back once. A callback with another sign-in's state would make a waiting
    /// listener wait on; here it ends the sign-in, with nothing exchanged.
    @Test func aCallbackOfAnotherSignInFailsAtOnce() async throws {
        try await Self.withApp { emulator, session in
            await #expect(throws: OAuthError(code: .stateMismatch, message: "")) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { url, _ in
                    let real = try await ConsentBrowser().callback(for: url)
                    return Self.replacing("state", with: "someone-elses-state", in: real)
                }
            }
            let stored = try await session.tokens()
            #expect(stored == nil)
            #expect(await Self.tokenRequests(emulator) == 0)
        }
    }

    @Test func aCallbackNamingAnotherServiceIsRefused() async throws {
        try await Self.withApp { emulator, session in
            await #expect(throws: OAuthError(code: .issuerMismatch, message: "")) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { url, _ in
                    Self.replacing(
                        "iss", with: "https://accounts.evil.example", in: try await ConsentBrowser().callback(for: url))
                }
            }
            #expect(await Self.tokenRequests(emulator) == 0)
        }
    }

    @Test func aCallbackToAnotherAddressIsRefused() async throws {
        try await Self.withApp { emulator, session in
            await #expect(throws: OAuthError(code: .invalidCallback, message: "")) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { url, _ in
                    let real = try await ConsentBrowser().callback(for: url)
                    return URL(string: real.absoluteString.replacingOccurrences(of: "spotify-callback", with: "other"))!
                }
            }
            #expect(await Self.tokenRequests(emulator) == 0)
        }
    }

    @Test func tokensThatCannotBeSavedFailTheSignIn() async throws {
        let store = FailingStore()
        try await Self.withApp(store: store) { _, session in
            await #expect(throws: TokenStoreError(code: .io, message: "")) {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session, browser: Self.agreeing)
            }
            #expect(store.saves.withLock { $0 } == 1)
            #expect(await session.status != .signedIn)
        }
    }

    /// The app cancels the sign-in (the user left the screen) while the sheet is up: whatever the
    /// sheet returns afterwards is not exchanged.
    @Test func cancellingWhileTheBrowserIsUpExchangesNothing() async throws {
        // A transport that would finish a cancelled request, so the sign-in's own check is what stops it.
        try await Self.withApp(transport: UncancellableTransport(platformDefaultTransport())) { emulator, session in
            let shown = AsyncStream.makeStream(of: Void.self)
            let closed = AsyncStream.makeStream(of: Void.self)
            let signIn = Task {
                try await BrowserSignIn(redirectURI: Self.redirect).run(session: session) { url, _ in
                    // A consent page that fails ends the wait below with its error, never holds it.
                    defer { shown.continuation.finish() }
                    let callback = try await ConsentBrowser().callback(for: url)
                    shown.continuation.yield()
                    // The sheet ignores the cancellation a moment, then hands back a good callback.
                    for await _ in closed.stream { break }
                    return callback
                }
            }
            var showing = shown.stream.makeAsyncIterator()
            guard await showing.next() != nil else {
                _ = try await signIn.value  // the consent page's own error
                Issue.record("the sign-in ended before its sheet was shown")
                return
            }
            signIn.cancel()
            closed.continuation.yield()
            await #expect(throws: CancellationError.self) { try await signIn.value }
            let stored = try await session.tokens()
            #expect(stored == nil)
            #expect(await Self.tokenRequests(emulator) == 0)
        }
    }

    @Test func aRedirectURISpotifyRefusesFailsBeforeTheBrowserOpens() async throws {
        try await Self.withApp { _, session in
            await #expect(throws: OAuthError(code: .configuration, message: "")) {
                try await BrowserSignIn(redirectURI: "http://localhost/callback").run(session: session) { _, _ in
                    Issue.record("the browser was opened")
                    throw CancellationError()
                }
            }
        }
    }

    static func replacing(_ name: String, with value: String, in url: URL) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = components.queryItems?.map {
            $0.name == name ? URLQueryItem(name: name, value: value) : $0
        }
        return components.url!
    }
}

/// Sends every request to the end even when the caller's task is cancelled (some stacks do).
struct UncancellableTransport: Transport {
    let inner: any Transport
    init(_ inner: any Transport) { self.inner = inner }

    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws -> (
        HTTPResponse, Data
    ) {
        let inner = self.inner
        return try await Task.detached {
            try await inner.send(request, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes)
        }.value
    }
}

/// The real transport, noting each request in an activity's log.
struct NotingTransport: Transport {
    let activity: RecordingActivity
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration, maxBodyBytes: Int) async throws
        -> (HTTPResponse, Data)
    {
        activity.note("\(request.method) \(request.url?.path ?? "")")
        return try await platformDefaultTransport().send(
            request, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}
