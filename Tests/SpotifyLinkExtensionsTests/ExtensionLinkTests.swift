import Foundation
import PropertyBased
import SpotifyLinkExtensions
import Testing

/// The link an extension's tap opens its app with: any record survives the round trip, and
/// nothing but such a link reads as one.
@Suite("An extension's link to its app")
struct ExtensionLinkTests {
    /// Any namespace and record ID (reserved characters, spaces, "+", non-ASCII) come back as they
    /// went, for each action.
    @Test func anyRecordSurvivesTheRoundTrip() async {
        let scalar = Gen.int(in: 0x20...0x2FFF).map { Unicode.Scalar(UInt32($0)) ?? "&" }
        let text = scalar.array(of: 1...40).map { String(String.UnicodeScalarView($0)) }
        await propertyCheck(count: 300, input: text, text) { namespace, record in
            for action in ExtensionLink.Action.allCases {
                let link = ExtensionLink(namespace: namespace, recordID: record, action: action)
                let url = try #require(link.url(scheme: "myapp"), "\(namespace.debugDescription)")
                #expect(ExtensionLink(url) == link, "\(url)")
                #expect(url.scheme == "myapp" && url.host == ExtensionLink.host)
                // Only unreserved characters stay as they are: no parser reads "&", "=" or "+" in them.
                let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
                #expect(query.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~%=&".contains($0)) })
                #expect(query.split(separator: "&").count == 2, "\(query)")
            }
        }
    }

    /// The app's own URLs, other hosts, a missing, empty or repeated field, an unknown action, a
    /// user, a port or a fragment: none reads as an extension link; a scheme that is not one
    /// makes no link.
    @Test func nothingElseReadsAsOne() throws {
        let refused = [
            "myapp://spotify-callback?code=abc", "myapp://other/open-playlist?namespace=a&record=1",
            "myapp://spotifylink/open-playlist?namespace=a", "myapp://spotifylink/open-playlist?namespace=&record=1",
            "myapp://spotifylink/open-playlist?namespace=a&record=1&record=2",
            "myapp://spotifylink/open-playlist?namespace=a&record=1&spotify=https://evil.example",
            "myapp://spotifylink/delete?namespace=a&record=1", "myapp://spotifylink/?namespace=a&record=1",
            "myapp://spotifylink/open-playlist/more?namespace=a&record=1",
            "myapp://user@spotifylink/open-playlist?namespace=a&record=1",
            "myapp://spotifylink:8080/open-playlist?namespace=a&record=1",
            "myapp://spotifylink/open-playlist?namespace=a&record=1#x", "https://open.spotify.com/playlist/x",
        ]
        for text in refused {
            #expect(ExtensionLink(try #require(URL(string: text))) == nil, "\(text)")
        }
        let accepted = try #require(URL(string: "MyApp://SpotifyLink/show?record=1&namespace=routine"))
        #expect(ExtensionLink(accepted) == ExtensionLink(namespace: "routine", recordID: "1", action: .show))
        let link = ExtensionLink(namespace: "a", recordID: "1", action: .show)
        for scheme in ["", "1app", "my app", "myäpp", "my/app"] {
            #expect(link.url(scheme: scheme) == nil, "\(scheme)")
        }
        let row = ExtensionSnapshot.Playlist(namespace: "session", recordID: "7")
        #expect(row.link(.openPlaylist) == ExtensionLink(namespace: "session", recordID: "7", action: .openPlaylist))
    }
}
