import Foundation
import SpotifyWebAPI
import Testing

@Suite("Secrets redact themselves")
struct SecretTests {
    @Test func everyTextFormIsRedacted() {
        let token = AccessToken("SENTINEL_AT_123")
        var dumped = ""
        dump(token, to: &dumped)
        let forms = [
            "\(token)", String(describing: token), String(reflecting: token), dumped,
            "\([token])", "\(Optional(token) as Any)",
        ]
        for form in forms {
            #expect(!form.contains("SENTINEL"), "leaked in: \(form)")
        }
        #expect(token.unredactedValue == "SENTINEL_AT_123")
    }
}
