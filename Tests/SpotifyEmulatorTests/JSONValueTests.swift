import Foundation
import Testing

@testable import SpotifyEmulator

@Suite("The emulator's JSON writer")
struct JSONValueTests {
    @Test(arguments: [
        "plain", "", "日本語で歌おう ・ ｶﾀｶﾅ 🎵", #"a "quoted" word"#, #"back\slash"#, "line\nbreak\r\ttab",
        "\u{0}\u{1}\u{1F}", "mixed 日本 \"q\" \\ \n", "https://open.spotify.com/track/x?y=1&z=/",
    ])
    func stringsRoundTripThroughAStandardParser(text: String) throws {
        let value = JSONValue.object([("s", .string(text)), ("a", .array([.string(text), .null]))])
        let parsed = try #require(try JSONSerialization.jsonObject(with: value.data) as? [String: Any])
        #expect(parsed["s"] as? String == text)
        #expect((parsed["a"] as? [Any])?.first as? String == text)
    }

    @Test func aStringWithoutEscapesIsCopiedAsItIs() {
        #expect(String(decoding: JSONValue.string("日本 ok").data, as: UTF8.self) == "\"日本 ok\"")
        #expect(String(decoding: JSONValue.string("a\"b").data, as: UTF8.self) == #""a\"b""#)
    }

    @Test(arguments: [0, 7, -7, 10, 99, 100, 227_225, -1_000_000, Int.max, Int.min])
    func integersAreWrittenAsTheirDecimalDigits(value: Int) {
        let text = String(
            decoding: JSONValue.array([.int(value), .null, .bool(true), .bool(false)]).data, as: UTF8.self)
        #expect(text == "[\(value),null,true,false]")
    }
}
