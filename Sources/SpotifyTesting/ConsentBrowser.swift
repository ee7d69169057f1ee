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

    /// The accounts service showed a page instead of sending the browser back to the app (an
    /// unregistered redirect URI, an unknown client): a real sheet would stay on it until closed.
    public struct StayedOnPage: Error, CustomStringConvertible {
        /// The HTTP status of the page.
        public var status: Int
        /// The page's text.
        public var page: String
        public var description: String { "the accounts service showed a page (HTTP \(status)): \(page.prefix(200))" }
    }

    /// Opens `authorizeURL`, presses the button and returns where the consent page sends the
    /// browser, without going there: what a one-shot browser sheet (iOS's web authentication
    /// session) hands back for an app's custom-scheme redirect.
    /// - Throws: ``StayedOnPage`` when no redirect comes.
    public func callback(for authorizeURL: URL) async throws -> URL {
        let (status, headers, body) = try await press(authorizeURL)
        guard (300..<400).contains(status), let location = headers[.location].flatMap(URL.init(string:)) else {
            throw StayedOnPage(status: status, page: String(decoding: body, as: UTF8.self))
        }
        return location
    }

    /// Opens `authorizeURL`, presses the button, follows the redirect, and says what it saw.
    public func visit(_ authorizeURL: URL) async throws -> Visit {
        let (status, headers, body) = try await press(authorizeURL)
        guard (300..<400).contains(status), let location = headers[.location].flatMap(URL.init(string:)) else {
            return Visit(redirect: nil, finalStatus: status, finalPage: String(decoding: body, as: UTF8.self))
        }
        let final = try await http.send(.get, location)
        return Visit(
            redirect: location, finalStatus: final.status, finalPage: String(decoding: final.body, as: UTF8.self))
    }

    /// Opens `authorizeURL` and presses the button when the consent page shows: the answer that follows.
    private func press(_ authorizeURL: URL) async throws -> (status: Int, headers: HTTPFields, body: Data) {
        var (status, headers, body) = try await http.send(.get, authorizeURL)
        if status == 200 {
            let html = String(decoding: body, as: UTF8.self)
            guard let marker = html.range(of: #"name="request" value=""#) else { return (status, headers, body) }
            let id = String(html[marker.upperBound...].prefix { $0 != "\"" })
            let decisionURL = URL(string: "/authorize/decision", relativeTo: authorizeURL)!.absoluteURL
            (status, headers, body) = try await http.send(
                .post, decisionURL, form: [("request", id), ("decision", decision)])
        }
        return (status, headers, body)
    }
}
