import Testing

@testable import SpotifyEmulator

/// The emulator's loose search matching, and its cache: a folded text is the same the first time
/// and every time after.
@Suite("Search text folding")
struct SearchTextTests {
    @Test(arguments: [
        ("さくら", "サクラ"), ("ｻｸﾗ", "サクラ"), ("ｶﾞｯｺｳ", "ガッコウ"), ("ＡＢＣ", "abc"), ("Café Noir", "cafe noir"),
        ("がっこう", "ガッコウ"), ("", ""),
    ])
    func foldsAsSpotifysSearchMatches(text: String, folded: String) {
        #expect(SearchText.fold(text) == folded)
        #expect(SearchText.folded(text) == folded, "the cache's first answer")
        #expect(SearchText.folded(text) == folded, "the cache's later answer")
    }
}
