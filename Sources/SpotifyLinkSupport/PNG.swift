package import Foundation

/// Writes real PNG images (1-bit palette, stored deflate blocks) without an image library: the
/// emulator's cover art of the sizes it advertises, and the neutral placeholders of screenshot mode.
package enum PNG {
    /// A striped image of two colours (`0xRRGGBB`), the stripes' width chosen by `seed`.
    package static func image(width: Int, height: Int, colors: (UInt32, UInt32), seed: UInt64) -> Data {
        let rowBytes = (width + 7) / 8
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * height)
        let stripe = max(4, Int(seed % 24) + 4)
        for y in 0..<height {
            raw.append(0)
            for byteIndex in 0..<rowBytes {
                var byte: UInt8 = 0
                for bit in 0..<8 {
                    let x = byteIndex * 8 + bit
                    if x < width, ((x + y) / stripe) % 2 == 0 { byte |= 0x80 >> UInt8(bit) }
                }
                raw.append(byte)
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [1, 3, 0, 0, 0])
        var palette: [UInt8] = []
        for color in [colors.0, colors.1] {
            palette.append(UInt8((color >> 16) & 0xFF))
            palette.append(UInt8((color >> 8) & 0xFF))
            palette.append(UInt8(color & 0xFF))
        }
        png += chunk("PLTE", palette)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// The neutral grey of screenshot mode's placeholders.
    package static let placeholderGrey: UInt32 = 0xD8D8D8

    /// A plain grey image of `width` × `height` pixels: a placeholder where artwork would be.
    package static func placeholder(width: Int, height: Int) -> Data {
        image(width: max(width, 1), height: max(height, 1), colors: (placeholderGrey, placeholderGrey), seed: 0)
    }

    /// A placeholder the size of `image` (a PNG or JPEG cover), or 640 × 640, Spotify's largest
    /// cover, when its size cannot be read.
    package static func placeholder(like image: Data) -> Data {
        let size = dimensions(of: image) ?? (640, 640)
        return placeholder(width: min(size.width, 4096), height: min(size.height, 4096))
    }

    /// The pixel size of a PNG or JPEG image (the formats Spotify serves covers in); `nil` for
    /// anything else or a header cut short.
    package static func dimensions(of data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(64 * 1024))
        func be16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func be32(_ at: Int) -> Int { be16(at) << 16 | be16(at + 2) }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12..<16].elementsEqual("IHDR".utf8)
        {
            return (be32(16), be32(20))
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        // JPEG: walk the segments to the frame header (SOF0–SOF15, but not DHT, JPG or DAC).
        var at = 2
        while at + 9 < bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (be16(at + 7), be16(at + 5))
            }
            guard marker != 0xD9, marker != 0xDA else { return nil }
            at += 2 + be16(at + 2)
        }
        return nil
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
