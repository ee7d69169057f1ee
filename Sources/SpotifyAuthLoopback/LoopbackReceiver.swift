import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import LocalHTTPServer
import Logging
import NIOCore
import SpotifyAuth
import SpotifyLinkSupport

/// A one-shot HTTP listener on a loopback address for the OAuth redirect.
///
/// It answers only `GET` on the callback path; anything else gets 404 or 405 and the wait goes
/// on. Bodies are not read, idle connections are closed after a few seconds, and the port closes
/// when the receiver stops.
package final class LoopbackReceiver: Sendable {
    /// The page sent back to the browser for one callback.
    package struct Page: Sendable {
        /// The HTTP status of the page.
        package var status: Int
        /// The page's title and heading.
        package var title: String
        /// The sentence under the heading: what happened and what to do next.
        package var message: String

        /// A page with `status`, `title` and `message` (escaped when rendered).
        package init(status: Int, title: String, message: String) {
            self.status = status
            self.title = title
            self.message = message
        }
    }

    /// Where the listener is: `http://127.0.0.1:PORT`.
    package var host: String { server.host }
    /// The port the listener is bound to (the one put in the redirect URI).
    package var port: Int { server.port }
    private let server: LocalHTTPServer

    private init(server: LocalHTTPServer) {
        self.server = server
    }

    /// Binds `host:port` (port 0 = any free port) and hands each callback's raw query to `handler`.
    ///
    /// - Parameters:
    ///   - host: `127.0.0.1` or `::1`; nothing else is accepted.
    ///   - port: the port to listen on; 0 for any free one.
    ///   - path: the callback path, as `/callback`.
    ///   - handler: gets each callback's raw query and returns the page the browser shows.
    package static func start(
        host: String = "127.0.0.1", port: Int = 0, path: String,
        handler: @escaping @Sendable (_ query: String) async -> Page
    ) async throws -> LoopbackReceiver {
        try await start(host: host, port: port, path: path, idleTimeout: .seconds(10), handler: handler)
    }

    /// ``start(host:port:path:handler:)`` with another limit for connections that send no whole
    /// request (tests shorten it).
    package static func start(
        host: String = "127.0.0.1", port: Int = 0, path: String, idleTimeout: Duration,
        handler: @escaping @Sendable (_ query: String) async -> Page
    ) async throws -> LoopbackReceiver {
        guard host == "127.0.0.1" || host == "::1" else {
            throw OAuthError(
                code: .listenerUnavailable, message: "The sign-in listener binds only 127.0.0.1 or [::1], not \(host).")
        }
        guard
            let server = await LocalHTTPServer.start(
                responder: CallbackResponder(path: path, handler: handler), host: host, port: port,
                server: LocalHTTPServer.boundedHTTP1(idleTimeout: idleTimeout),
                serverName: "spotifylink", logLevel: .critical),
            server.host == host
        else {
            throw OAuthError(
                code: .listenerUnavailable,
                message: "Could not listen on \(host):\(port) for the sign-in callback. Is the port in use?")
        }
        return LoopbackReceiver(server: server)
    }

    /// Closes the port and waits until the server has stopped.
    package func stop() async {
        await server.stop()
    }
}

struct CallbackResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let path: String
    let handler: @Sendable (String) async -> LoopbackReceiver.Page

    func respond(to request: Request, context: Context) async throws -> Response {
        let target = request.head.path ?? "/"
        let requestPath = String(target.prefix { $0 != "?" })
        let query = target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } ?? ""
        guard requestPath == path else {
            return Self.render(
                .init(status: 404, title: "Not found", message: "This address only receives the Spotify sign-in."))
        }
        guard request.method == .get else {
            return Self.render(
                .init(
                    status: 405, title: "Method not allowed", message: "Only the browser's redirect is accepted here."))
        }
        return Self.render(await handler(query))
    }

    /// A self-contained page: no scripts, nothing external, nothing from the request echoed back.
    static func render(_ page: LoopbackReceiver.Page) -> Response {
        let escape = HTML.escape
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>\(escape(page.title))</title>
            <style>body{font-family:sans-serif;max-width:32em;margin:4em auto;line-height:1.5}</style></head>
            <body><h1>\(escape(page.title))</h1><p>\(escape(page.message))</p></body></html>
            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; style-src 'unsafe-inline'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(
            status: .init(code: page.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
