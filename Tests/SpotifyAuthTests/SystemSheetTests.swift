import Foundation
import SpotifyEmulator
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

@testable import SpotifyAuth
@testable import SpotifyWebAPI

/// The system sheet's two forms, chosen by release (`BrowserSignIn.systemSheet`): the logic the
/// SwiftUI adapter (`connect(using: web)`) runs on iOS and macOS, with the release faked and the two
/// forms played by a scripted browser in front of the emulator.
@Suite("The system sign-in sheet below and from iOS 17.4")
struct SystemSheetTests {
    /// Which form showed the sheet, and with what.
    final class Forms: Sendable {
        private let calls = Lock<[String]>([])
        var log: [String] { calls.withLock { $0 } }

        func sheet(callbackFormAvailable: Bool) -> BrowserSignIn.Browser {
            BrowserSignIn.systemSheet(
                callbackFormAvailable: callbackFormAvailable,
                callbackForm: { url, callback in
                    self.calls.withLock { $0.append("callback \(callback)") }
                    return try await ConsentBrowser().callback(for: url)
                },
                customSchemeForm: { url, scheme in
                    self.calls.withLock { $0.append("scheme \(scheme)") }
                    return try await ConsentBrowser().callback(for: url)
                })
        }
    }

    @Test func fromIOS17_4TheCallbackFormShowsEitherRedirect() async throws {
        for redirect in ["myapp://spotify-callback", "https://app.example/spotify-callback"] {
            try await BrowserSignInTests.withApp(redirect: redirect) { _, session in
                let forms = Forms()
                let tokens = try await BrowserSignIn(redirectURI: redirect).run(
                    session: session, browser: forms.sheet(callbackFormAvailable: true))
                #expect(forms.log == ["callback \(BrowserSignIn.Callback(redirectURI: redirect))"])
                #expect(try await session.tokens() == tokens)
            }
        }
    }

    /// iOS 17.0–17.3 (and macOS 14.0–14.3): the custom-scheme form, given the bare scheme, signs in
    /// as the newer one does.
    @Test func belowIOS17_4ACustomSchemeSignsInThroughTheSchemeForm() async throws {
        try await BrowserSignInTests.withApp { emulator, session in
            let forms = Forms()
            let tokens = try await BrowserSignIn(redirectURI: BrowserSignInTests.redirect).run(
                session: session, browser: forms.sheet(callbackFormAvailable: false))
            #expect(forms.log == ["scheme myapp"])
            #expect(try await session.tokens() == tokens)
            #expect(await session.status == .signedIn)
            #expect(await emulator.requestCount("POST /api/token") == 1)
        }
    }

    /// Below 17.4 an https redirect cannot come back to the app: the sign-in ends before any sheet
    /// opens, with a typed error that says why, and nothing is sent or saved.
    @Test func belowIOS17_4AnHTTPSRedirectEndsBeforeTheSheetOpens() async throws {
        let redirect = "https://app.example/spotify-callback"
        try await BrowserSignInTests.withApp(redirect: redirect) { emulator, session in
            let forms = Forms()
            let error = await #expect(throws: OAuthError.self) {
                try await BrowserSignIn(redirectURI: redirect).run(
                    session: session, browser: forms.sheet(callbackFormAvailable: false))
            }
            #expect(error?.code == .systemTooOld)
            let message = error?.message ?? ""
            #expect(message.contains("iOS 17.4") && message.contains("custom-scheme"))
            #expect(forms.log.isEmpty)
            let saved = try await session.tokens()
            #expect(saved == nil)
            #expect(await emulator.requestCount("POST /api/token") == 0)
        }
    }
}
