import Foundation
import HTTPTypes
@_spi(Storage) import PlaylistLinks
import SpotifyEmulator
import SpotifyLinkServices
import SpotifyLinkSupport
import SpotifyLinkUI
import SpotifyTesting
import SpotifyWebAPI
import Testing

/// Screenshot mode (issue 54 §6): App Store screenshots must not show Spotify's artwork, so the
/// preview and the emulator's root show every cover as a plain grey placeholder of the cover's
/// size, and keep the names.
@MainActor
@Suite("Screenshot mode: grey placeholders of the same size, names kept", .serialized)
struct ScreenshotModeTests {
    /// The colours of a PNG's palette, as `0xRRGGBB`.
    nonisolated static func palette(_ png: Data) throws -> Set<UInt32> {
        let bytes = [UInt8](png)
        let tag = Array("PLTE".utf8)
        let found = (0..<bytes.count - 4).first { at in Array(bytes[at..<at + 4]) == tag }
        let start: Int = try #require(found, "no palette")
        var length = 0
        for byte in bytes[start - 4..<start] { length = length << 8 | Int(byte) }
        var colors: Set<UInt32> = []
        for at in stride(from: start + 4, to: start + 4 + length, by: 3) {
            let red = UInt32(bytes[at]) << 16
            let green = UInt32(bytes[at + 1]) << 8
            colors.insert(red | green | UInt32(bytes[at + 2]))
        }
        return colors
    }

    @Test func theCardShowsAGreyPlaceholderTheSizeOfTheSavedCover() async throws {
        let harness = try await UIHarness.connected(screenshotMode: true)
        let (record, deep) = try await harness.linkDeepWork(to: "shot")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        let saved = try #require(try await harness.linkStore.cover(for: deep), "the refresh saved no cover")
        let shown = try #require(card.card?.cover)
        let savedSize = try #require(PNG.dimensions(of: saved))
        let shownSize = try #require(PNG.dimensions(of: shown))
        #expect(shownSize == savedSize)
        #expect(try Self.palette(saved).count == 2, "the saved cover is the emulator's striped one, kept as it was")
        #expect(try Self.palette(shown) == [PNG.placeholderGrey])
        #expect(card.card?.metadata.name == "Deep Work", "the names stay")
        await harness.stop()
    }

    /// Outside screenshot mode the emulator's covers are striped in two colours, and the card shows
    /// the saved bytes: what the test above tells apart.
    @Test func withoutItTheCardShowsTheSavedCover() async throws {
        let harness = try await UIHarness.connected()
        let (record, deep) = try await harness.linkDeepWork(to: "normal")
        let card = PlaylistCardModel(record: record, spotify: harness.spotify)
        await card.load()
        await card.waitForRefresh()
        let shown = try #require(card.card?.cover)
        #expect(await shown == (try harness.linkStore.cover(for: deep)))
        #expect(try Self.palette(shown).count == 2)
        await harness.stop()
    }

    @Test func thePreviewsCardHasAGreyCover() async throws {
        let spotify = SpotifyLink.preview()
        #expect(spotify.services.configuration.screenshotMode)
        let card = spotify.card(for: SpotifyServices.previewRecord)
        await card.load()
        let cover = try #require(card.card?.cover)
        #expect(PNG.dimensions(of: cover).map { [$0.width, $0.height] } == [640, 640])
        #expect(try Self.palette(cover) == [PNG.placeholderGrey])
    }
}

/// The emulator's half of screenshot mode, and the size of a JPEG cover.
@Suite("Screenshot mode: the emulator's images")
struct ScreenshotImageTests {
    /// The emulator started with placeholder images serves every image grey, at the size asked.
    @Test(arguments: [60, 300, 640])
    func theEmulatorServesGreyImagesOfEverySize(size: Int) async throws {
        var configuration = EmulatorConfiguration()
        configuration.placeholderImages = true
        try await withEmulator(configuration) { (emulator: EmulatorServer) async throws in
            let id = try #require(await emulator.playlists().first { $0.name == "Deep Work" }).id
            let (status, _, data) = try await TestHTTP().send(
                .get, emulator.baseURL.appendingPathComponent("emulator/images/\(id)/\(size).png"))
            #expect(status == 200)
            #expect(PNG.dimensions(of: data).map { [$0.width, $0.height] } == [size, size])
            #expect(try ScreenshotModeTests.palette(data) == [PNG.placeholderGrey])
        }
    }

    /// Spotify serves covers as JPEG: their size is read from the frame header.
    @Test func aJPEGsSizeIsReadFromItsFrameHeader() throws {
        // SOI, an APP0 segment of 16 bytes, then SOF0 with height 300 and width 640.
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0, count: 14)
        jpeg += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0x2C, 0x02, 0x80, 0x03] + [UInt8](repeating: 0, count: 9)
        #expect(PNG.dimensions(of: Data(jpeg)).map { [$0.width, $0.height] } == [640, 300])
        #expect(PNG.dimensions(of: Data(jpeg.prefix(12))) == nil)
        #expect(PNG.dimensions(of: Data("not an image".utf8)) == nil)
        let placeholder = PNG.placeholder(like: Data(jpeg))
        #expect(PNG.dimensions(of: placeholder).map { [$0.width, $0.height] } == [640, 300])
    }
}
