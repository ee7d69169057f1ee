public import Foundation
import HTTPTypes

/// Acts as the user's browser in front of the emulator: opens the authorize URL, presses Agree or
/// Cancel on the consent page, and follows the redirect to the app (the loopback listener).
public struct ConsentBrowser: Sendable {
    /// What the browser saw at the end.
    public struct Visit: Sendable {
        /// The redirect the consent page sent the browser to.
        public var redirect: URL?
        /// The status and body of the page at the redirect target (the app's result page).
        public var finalStatus: Int
        /// The body of that page.
        public var finalPage: String
    }

    private let http = TestHTTP()
    /// The button pressed: `agree` or `cancel`.
    public var decision: String

    /// - Parameter agree: press Agree (`true`) or Cancel.
    public init(agree: Bool = true) {
        self.decision = agree ? "agree" : "cancel"
    }

    /// Opens `authorizeURL`, presses the button, follows the redirect, and says what it saw.
    public func visit(_ authorizeURL: URL) async throws -> Visit {
        var (status, headers, body) = try await http.send(.get, authorizeURL)
        if status == 200 {
            let html = String(decoding: body, as: UTF8.self)
            guard let marker = html.range(of: #"name="request" value=""#) else {
                return Visit(redirect: nil, finalStatus: status, finalPage: html)
            }
            let id = String(html[marker.upperBound...].prefix { $0 != "\"" })
            let decisionURL = URL(string: "/authorize/decision", relativeTo: authorizeURL)!.absoluteURL
            (status, headers, body) = try await http.send(
                .post, decisionURL, form: [("request", id), ("decision", decision)])
        }
        guard (300..<400).contains(status), let location = headers[.location].flatMap(URL.init(string:)) else {
            return Visit(redirect: nil, finalStatus: status, finalPage: String(decoding: body, as: UTF8.self))
        }
        let final = try await http.send(.get, location)
        return Visit(
            redirect: location, finalStatus: final.status, finalPage: String(decoding: final.body, as: UTF8.self))
    }
}
