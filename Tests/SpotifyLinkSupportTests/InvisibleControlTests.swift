import SpotifyLinkSupport
import Testing

@Suite("Scalars that act on a terminal or hide in text")
struct InvisibleControlTests {
    @Test(
        arguments: [
            0x1B, 0x07, 0x0D, 0x9B, 0x7F, 0x2028, 0x2029, 0x202E, 0x2066, 0x2069,
            // Issue 66 item 13: the zero-width space and the bidirectional marks.
            0x200B, 0x200E, 0x200F, 0x061C,
        ] as [UInt32])
    func isInvisible(_ value: UInt32) throws {
        #expect(try #require(Unicode.Scalar(value)).isInvisibleControl)
    }

    /// Joiners stay: a family emoji, or a Persian word with a non-joiner, is text.
    @Test(arguments: [0x200C, 0x200D, 0x41, 0x3042, 0x1F468, 0xA0] as [UInt32])
    func isText(_ value: UInt32) throws {
        #expect(try #require(Unicode.Scalar(value)).isInvisibleControl == false)
    }
}
