// swift-format-ignore-file
// The journal's UI tests against the Spotify emulator (seed 003's TR-011 to TR-015 ask for
// XCUITest), as a UI-test target of the app writes them; compiled for iOS 17.0 by the Apple
// check. The recipe is SpotifyLinkUI's article "UI tests against the emulator": start
// the emulator on the Mac before the run,
//
//     swift run spotify-emulator --port 8080 --auto-approve --control-token ui-tests \
//         --client-id YOUR_CLIENT_ID --redirect-uri myapp://spotify-callback
//
// and the app makes its `SpotifyLink` from `configuration.forUITests()`, which follows
// `SPOTIFYLINK_EMULATOR_URL`.
#if os(iOS)
    // SpotifyLinkUI/UITests example 2 begins
    import XCTest

    @MainActor
    final class JournalUITests: XCTestCase {
        /// The emulator on the Mac: the simulator shares its `127.0.0.1`.
        let emulator = URL(string: "http://127.0.0.1:8080")!

        /// The app, launched against the emulator: signed out, nothing saved.
        func launchedApp() -> XCUIApplication {
            let app = XCUIApplication()
            app.launchEnvironment["SPOTIFYLINK_EMULATOR_URL"] = emulator.absoluteString
            app.launch()
            return app
        }

        /// Connects as the emulator's user: the system asks before the sign-in sheet opens
        /// ("… Wants to Use … to Sign In"), and the emulator, started with `--auto-approve`,
        /// answers its consent page at once.
        func connect(_ app: XCUIApplication) {
            app.buttons["Connect Spotify"].tap()
            let springboard = XCUIApplication(bundleIdentifier: "com.apple.springboard")
            if springboard.buttons["Continue"].waitForExistence(timeout: 5) { springboard.buttons["Continue"].tap() }
            XCTAssertTrue(app.buttons["Disconnect Spotify"].waitForExistence(timeout: 10))
        }

        /// Tells the emulator to misbehave through its control API (the faults of its README).
        func inject(_ fault: String, count: Int) async throws {
            var components = URLComponents(url: emulator.appendingPathComponent("emulator/faults"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "kind", value: fault), URLQueryItem(name: "count", value: "\(count)")]
            var request = URLRequest(url: components.url!)
            request.httpMethod = "POST"
            request.setValue("Bearer ui-tests", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        }

        func testConnectingAndDisconnecting() {
            let app = launchedApp()
            connect(app)
            app.buttons["Disconnect Spotify"].tap()
            XCTAssertTrue(app.buttons["Connect Spotify"].waitForExistence(timeout: 5))
        }

        /// Spotify out of reach: the picker says so and lists what it saved.
        func testThePickerSaysWhenSpotifyCannotBeReached() async throws {
            let app = launchedApp()
            connect(app)
            try await inject("5xx-burst", count: 20)
            app.buttons["Choose a playlist"].tap()
            XCTAssertTrue(app.staticTexts["Spotify can't be reached; showing your saved playlists."].waitForExistence(timeout: 10))
        }
    }
    // SpotifyLinkUI/UITests example 2 ends
#endif
